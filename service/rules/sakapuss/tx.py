"""The Sakapuss event emitter: appends events and folds them with the Sakapuss evolve."""
from __future__ import annotations

from typing import Any, Mapping

from .. import randomness
from ..model import EMPTY, Context, Event, NeedMoreSeeds
from .evolve import evolve
from .state import SakapussMatch


AUTO_MARKED = frozenset({"PassSubmitted", "SlapMade"})
"""A seat's own actions: without ``auto`` they clear its timeouts and absence (§2.7)."""


class Tx:
    """One decide call: the working state, the events so far, the seeds left."""

    __slots__ = ("state", "events", "at", "seeds", "seed_i", "auto")

    def __init__(self, state: SakapussMatch | None, ctx: Context) -> None:
        self.state = state
        self.events: list[Event] = []
        self.at = ctx.now
        self.seeds = ctx.seeds
        self.seed_i = 0
        self.auto: int | None = None  # §2.7: the absent seat the autopilot plays now

    @property
    def m(self) -> SakapussMatch:
        assert self.state is not None
        return self.state

    def emit(self, type_: str, seat: int | None, data: Mapping[str, Any],
             to_seat: Mapping[int, Mapping[str, Any]] = EMPTY,
             secret: Mapping[str, Any] = EMPTY, round_: int | None = None) -> None:
        """Append one event (seq = version + 1, at = ctx.now) and evolve the working state."""
        s = self.state
        if self.auto is not None and seat == self.auto and type_ in AUTO_MARKED:
            data = {**data, "auto": True}  # the autopilot's action, not the human's (§2.7)
        rnd = (s.round_no if s is not None else 0) if round_ is None else round_
        ev = Event(s.version + 1 if s is not None else 1, type_, self.at, rnd, seat, data, to_seat, secret)
        self.state = evolve(s, ev)
        self.events.append(ev)

    def next_seed(self) -> bytes:
        """§2.3: every shuffle consumes the next fresh seed of the context."""
        if self.seed_i >= len(self.seeds):
            raise NeedMoreSeeds(self.seed_i + 1)
        seed = self.seeds[self.seed_i]
        self.seed_i += 1
        return seed


def shuffle(tx: Tx, what: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """§2.3 commit, record, reveal: ShuffleCommitted with the seed and order kept secret."""
    seed = tx.next_seed()
    order = randomness.shuffled(seed, cards, "shuffle")
    data = {"what": what, "count": len(cards), "commitment": randomness.commitment(seed),
            "algorithm": randomness.ALGORITHM}
    tx.emit("ShuffleCommitted", None, data, secret={"seed": seed.hex(), "order": list(order)})
    return order


def choice(m: SakapussMatch, label: str, n: int) -> int:
    """§2.3: a seeded choice among n options from the match seed."""
    return randomness.choice_index(bytes.fromhex(m.match_seed), label, n)
