"""The Sakapuss event emitter: appends events and folds them with the Sakapuss evolve."""
from __future__ import annotations

from typing import Any, Mapping

from service.games.kernel import randomness
from service.games.kernel.common import SeedTx, shuffle  # noqa: F401  (shuffle is re-exported for the game modules)
from service.games.shedding.evolve import MEMO
from service.games.kernel.model import EMPTY, Context
from service.games.shedding.tx import MEMO_MAX, make_event
from service.games.sakapuss.evolve import evolve
from service.games.sakapuss.state import SakapussMatch


AUTO_MARKED = frozenset({"PassSubmitted", "SlapMade"})
"""A seat's own actions: without ``auto`` they clear its timeouts and absence (§2.7)."""


class Tx(SeedTx):
    """One decide call of Sakapuss: folds with the Sakapuss evolve."""

    __slots__ = ()

    def __init__(self, state: SakapussMatch | None, ctx: Context) -> None:
        super().__init__(state, ctx)
        if len(MEMO) > MEMO_MAX:  # the memo only serves the caller's fold of recent decides
            MEMO.clear()

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
        ev = make_event(s.version + 1 if s is not None else 1, type_, self.at, rnd, seat, data, to_seat,
                        secret)
        new = evolve(s, ev)
        MEMO[id(ev)] = (ev, s, new)  # the caller's fold (engine.evolve) reuses it: pure memoization
        self.state = new
        self.events.append(ev)


def choice(m: SakapussMatch, label: str, n: int) -> int:
    """§2.3: a seeded choice among n options from the match seed."""
    return randomness.choice_index(bytes.fromhex(m.match_seed), label, n)
