"""Which bot policy plays a seat: by the strength chosen when the bot was added."""
from __future__ import annotations

import functools
import time
from typing import Any, Callable

STRENGTHS = ("easy", "medium", "hard")


def policy(strength: str | None, budget_ms: int | None = None) -> Callable[..., dict[str, Any]]:
    """The pure policy ``(SeatView, rng) -> action`` for a strength; ``budget_ms`` bounds a
    hard bot's search (default: the table's ``hard_bot_budget_ms``)."""
    from service.games.shedding.bots import easy, hard, medium

    # the hard bot's time budget needs a clock: passed in here, the bots package itself stays
    # free of I/O and clocks (tests/unit/rules/test_purity.py)
    searching = functools.partial(hard.choose, clock=time.perf_counter)
    if budget_ms is not None:
        searching = functools.partial(searching, budget_ms=budget_ms)
    table = {"easy": easy.choose, "medium": medium.choose, "hard": searching}
    return table[strength or "easy"]


def choose_for(state: Any, seat: int, budget_ms: int | None = None) -> Callable[..., dict[str, Any]]:
    found = next((s for s in state.seats if s.seat == seat), None)
    if getattr(state, "variant", None) == "sakapuss":
        from service.games.sakapuss.bots import easy as sakapuss_easy, hard as sakapuss_hard, medium as sakapuss_medium

        # §7.5: medium collects its majority kind; hard plans passes by belief + Monte-Carlo;
        # an absent seat (§2.7) and a seat with no strength get easy
        if found is None or getattr(found, "absent", False):
            return sakapuss_easy.choose
        return {"medium": sakapuss_medium.choose, "hard": sakapuss_hard.choose}.get(
            found.strength, sakapuss_easy.choose)
    if found is not None and getattr(found, "absent", False):
        return policy("easy")  # RULES §2.7: bot_autopilot hands an absent seat to an easy bot
    return policy(found.strength if found is not None else None, budget_ms)
