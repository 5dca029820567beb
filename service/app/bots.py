"""Which bot policy plays a seat: by the strength chosen when the bot was added."""
from __future__ import annotations

from typing import Any, Callable

STRENGTHS = ("easy", "medium", "hard")


def policy(strength: str | None) -> Callable[..., dict[str, Any]]:
    """The pure policy ``(SeatView, rng) -> action`` for a strength."""
    from service.bots import easy, hard, medium

    table = {"easy": easy.choose, "medium": medium.choose, "hard": hard.choose}
    return table[strength or "easy"]


def choose_for(state: Any, seat: int) -> Callable[..., dict[str, Any]]:
    if getattr(state, "variant", None) == "sakapuss":
        from service.bots import sakapuss_easy
        return sakapuss_easy.choose
    strength = next((s.strength for s in state.seats if s.seat == seat), None)
    return policy(strength)
