"""What every part of the application layer shares, and how it reads a game: the event store, the
settings, the clock, the seed source (service/app/entropy.py), the per-process cache of folded
states and the pause a searching bot waits with, plus ``load`` — the cached fold fast-forwarded
with the events appended since (a fold long enough to be heavy runs off the event loop). Writes,
queries, seats and jobs all take one of these; ``GameService`` is one."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from service.app import compute, entropy, meter, snapshots as snapshot_codec
from service.app.cache import FlagCache, StateCache
from service.app.codes import AppCode
from service.app.errors import AppError, not_found
from service.app.plugins import Integrations
from service.eventstore.chain import GENESIS
from service.eventstore.codec import CorruptEvent, Stored
from service.eventstore.ports import (
    ApiKeys,
    AppendFeed,
    BotRecords,
    DueQueue,
    EventLog,
    EventStore,
    IdempotencyRecords,
    Leases,
    Lobby,
    Matchmaking,
    Players,
    Reports,
    Retention,
    Snapshots,
    Tokens,
    Webhooks,
)
from service.games import engine
from service.games.kernel.state import TableState
from service.settings import Settings

log = logging.getLogger("meow.app")


def now_ms() -> int:
    return int(time.time() * 1000)


class AppContext:
    """The store, settings, clock, seed source, state cache and bot pause one service works with."""

    def __init__(self, store: EventStore, settings: Settings | None = None, clock: Callable[[], int] = now_ms,
                 random_bytes: entropy.Entropy = entropy.system, integrations: Integrations | None = None) -> None:
        self.store = store  # the whole backend (every port): for the composition root, tests and benches
        # each part of the application reaches the store through the narrowest port it uses
        self.event_log: EventLog = store
        self.append_feed: AppendFeed = store
        self.due_queue: DueQueue = store
        self.leases: Leases = store
        self.tokens: Tokens = store
        self.idempotency: IdempotencyRecords = store
        self.snapshots: Snapshots = store
        self.reports: Reports = store
        self.lobby_index: Lobby = store
        self.retention: Retention = store
        self.bot_records: BotRecords = store  # registered remote bots (service/app/remote_bots.py)
        self.api_keys: ApiKeys = store
        self.players: Players = store
        self.matchmaking: Matchmaking = store
        self.webhooks: Webhooks = store
        self.settings = settings or Settings()
        self.clock = clock
        self.random_bytes = random_bytes  # seeds, game ids, tokens: ``secrets``; tests inject entropy.Seeded
        self.cache = StateCache(self.settings.state_cache_size)
        self.privacy = FlagCache(16 * self.settings.state_cache_size)  # private tables (service/app/private_tables.py)
        self.pause: Callable[[float], None] = _pause  # a searching bot waits out its budget (seconds)
        # what the integrations plugged in (service/app/plugins.py): built once, by service/wiring.py
        self.integrations = integrations if integrations is not None else Integrations()

    def load(self, game_id: str) -> TableState:
        """The folded state: the cached fold fast-forwarded with the events appended since."""
        return self.load_with_head(game_id)[0]

    def load_with_head(self, game_id: str) -> tuple[TableState, str]:
        """The folded state and the hash-chain head at its version. The read that fast-forwards the
        cached fold starts at the cached version's own event and checks its hash: a store that no
        longer holds that event, or holds another one there, is folded again from its first event,
        so a process never serves a version its store no longer holds."""
        cached = self.cache.get(game_id)
        state, head = cached if cached is not None else self.nearest_snapshot(game_id)
        stored = self._read_after(game_id, state, head)
        if stored is None:  # the store no longer holds what the cache (or snapshot) folded: start over
            log.warning("%s: the store is behind or apart from the cached fold at %d; reloading",
                        game_id, state.version if state is not None else 0)
            self.cache.drop(game_id)
            cached, state, head = None, None, GENESIS
            stored = self._read_after(game_id, None, GENESIS) or []
        state, head = fold_off_loop(state, head, stored)
        if state is None:
            raise not_found()
        if stored or cached is None:  # (a snapshot with nothing after it is worth keeping too)
            self.cache.put(game_id, (state, head))
        return state, head

    def _read_after(self, game_id: str, state: TableState | None, head: str) -> list[Stored] | None:
        """The events after ``state``, read from the event at its own version on, so that the same
        round trip checks the store still holds that event with the cached chain head: None when
        it does not (a failover to a replica that missed the last writes shortened the stream, or
        it grew again apart from it), so the caller folds from scratch."""
        version = state.version if state is not None else 0
        try:
            stored = self.event_log.read_stored(game_id, after=version - 1 if version else 0)
        except CorruptEvent as exc:
            raise AppError(AppCode.GAME_CORRUPTED, f"event {exc.seq} of this game cannot be read", seq=exc.seq) from exc
        if not version:
            return stored
        if not stored or stored[0].event.seq != version or (stored[0].hash or head) != head:
            return None  # (a game that went, expired or evicted, is not found from scratch)
        return stored[1:]

    def nearest_snapshot(self, game_id: str, at_most: int | None = None) -> tuple[TableState | None, str]:
        """The newest usable snapshot at a version <= ``at_most`` (service/app/snapshots.py), or
        nothing folded yet; a snapshot made by other code, or unreadable, is no snapshot."""
        if self.settings.snapshot_every <= 0:
            return None, GENESIS
        found = self.snapshots.snapshot_get(game_id, at_most)
        if found is None:
            return None, GENESIS
        version, blob = found
        got = compute.run(lambda: snapshot_codec.decode(blob)) if len(blob) > HEAVY_SNAPSHOT else snapshot_codec.decode(blob)
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
            self.snapshots.snapshot_put(game_id, state.version, snapshot_codec.encode(state, head))
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
