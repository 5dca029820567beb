"""What every part of the application layer shares, and how it reads a game: the event store, the
settings, the clock, the seed source (service/app/entropy.py), the per-process cache of folded
states and the pause a searching bot waits with, plus ``load`` — the cached fold fast-forwarded
with the events appended since (a fold long enough to be heavy runs off the event loop). Writes,
queries, seats and jobs all take one of these; ``GameService`` is one."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from service.app import compute, entropy, meter, snapshots
from service.app.cache import StateCache
from service.app.codes import AppCode
from service.app.errors import AppError, not_found
from service.eventstore.chain import GENESIS
from service.eventstore.codec import CorruptEvent, Stored
from service.eventstore.contract import EventStore
from service.games import engine
from service.games.kernel.state import TableState
from service.settings import Settings

log = logging.getLogger("meow.app")


def now_ms() -> int:
    return int(time.time() * 1000)


class AppContext:
    """The store, settings, clock, seed source, state cache and bot pause one service works with."""

    def __init__(self, store: EventStore, settings: Settings | None = None, clock: Callable[[], int] = now_ms,
                 random_bytes: entropy.Entropy = entropy.system) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.random_bytes = random_bytes  # seeds, game ids, tokens: ``secrets``; tests inject entropy.Seeded
        self.cache = StateCache(self.settings.state_cache_size)
        self.pause: Callable[[float], None] = _pause  # a searching bot waits out its budget (seconds)

    def load(self, game_id: str) -> TableState:
        """The folded state: the cached fold fast-forwarded with the events appended since."""
        return self.load_with_head(game_id)[0]

    def load_with_head(self, game_id: str) -> tuple[TableState, str]:
        """The folded state and the hash-chain head at its version."""
        cached = self.cache.get(game_id)
        state, head = cached if cached is not None else self.nearest_snapshot(game_id)
        try:
            stored = self.store.read_stored(game_id, after=state.version if state is not None else 0)
        except CorruptEvent as exc:
            raise AppError(AppCode.GAME_CORRUPTED, f"event {exc.seq} of this game cannot be read", seq=exc.seq) from exc
        state, head = fold_off_loop(state, head, stored)
        if state is None:
            raise not_found()
        if stored or cached is None:  # (a snapshot with nothing after it is worth keeping too)
            self.cache.put(game_id, (state, head))
        elif state.status in ("open", "finished") and self.store.version(game_id) == 0:
            # an open table that expired, or a finished game evicted once archived (`meow archive`)
            self.cache.drop(game_id)
            raise not_found()
        return state, head

    def nearest_snapshot(self, game_id: str, at_most: int | None = None) -> tuple[TableState | None, str]:
        """The newest usable snapshot at a version <= ``at_most`` (service/app/snapshots.py), or
        nothing folded yet; a snapshot made by other code, or unreadable, is no snapshot."""
        if self.settings.snapshot_every <= 0:
            return None, GENESIS
        found = self.store.snapshot_get(game_id, at_most)
        if found is None:
            return None, GENESIS
        version, blob = found
        got = compute.run(lambda: snapshots.decode(blob)) if len(blob) > HEAVY_SNAPSHOT else snapshots.decode(blob)
        if got is None or getattr(got[0], "version", None) != version:
            return None, GENESIS
        return got

    def keep_snapshot(self, game_id: str, before: int, state: TableState | None, head: str) -> None:
        """After an append from version ``before`` to ``state``: a snapshot when the version
        crossed a multiple of ``snapshot_every``. A cache: failing to write one fails nothing."""
        every = self.settings.snapshot_every
        if every <= 0 or state is None or before // every == state.version // every:
            return
        try:
            self.store.snapshot_put(game_id, state.version, snapshots.encode(state, head))
        except Exception:  # the write itself succeeded; the next crossing tries again
            log.warning("snapshot of %s at %d not written", game_id, state.version, exc_info=True)


HEAVY_SNAPSHOT = 64 * 1024  # compressed bytes: decoded off the event loop above this


def fold_off_loop(state: TableState | None, head: str, stored: Sequence[Stored]) -> tuple[TableState | None, str]:
    """``fold``, run off the event loop when it is heavy (``compute.HEAVY`` events or more)."""
    meter.charge(len(stored))
    if len(stored) >= compute.HEAVY:
        return compute.run(lambda: fold(state, head, stored))
    return fold(state, head, stored)


def fold(state: TableState | None, head: str, stored: Sequence[Stored]) -> tuple[TableState | None, str]:
    """Apply stored events to ``state``, following the hash chain; an unappliable event is game_corrupted."""
    for item in stored:
        try:
            state = engine.evolve(state, item.event)
        except Exception as exc:  # an event that cannot be applied poisons only its game
            seq = item.event.seq
            raise AppError(AppCode.GAME_CORRUPTED, f"event {seq} of this game cannot be applied", seq=seq) from exc
        head = item.hash or head
    return state, head


def _pause(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)
