"""Which bot policy plays a seat: the seat's game's bot of the strength chosen when it was added."""
from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from service.games import registry
from service.games.kernel.state import TableState

STRENGTHS = ("easy", "medium", "hard")


def choose_for(state: TableState, seat: int, budget_ms: int | None = None) -> Callable[..., dict[str, Any]]:
    """The pure policy ``(SeatView, rng) -> action`` for a seat. An absent seat (RULES §2.7
    bot_autopilot) and a seat with no strength get ``easy``; a searching strength gets a clock
    and ``budget_ms`` (default: the table's ``hard_bot_budget_ms``)."""
    game = registry.of(state)
    found = next((s for s in state.seats if s.seat == seat), None)
    strength = found.strength if found is not None and not getattr(found, "absent", False) else None
    if strength is None or strength not in game.bots:
        return game.bots["easy"]
    choose = game.bots[strength]
    if strength in game.searching:
        # the search's time budget needs a clock: passed in here, the game packages stay free
        # of I/O and clocks (tests/unit/rules/test_purity.py)
        choose = functools.partial(choose, clock=time.perf_counter)
        if budget_ms is not None:
            choose = functools.partial(choose, budget_ms=budget_ms)
    return choose
