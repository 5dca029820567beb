"""What a seat may do: lay a card of its hand on its turn (the legal actions and the timeout's default)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .state import PLAY, ToyMatch


@dataclass(frozen=True, slots=True)
class LayCard:
    """Lay ``card`` from the hand on the trick (the ``lay`` action)."""

    seat: int
    card: str


def rank(card: str) -> int:
    return int(card[2:])


def sort_hand(hand: tuple[str, ...]) -> list[str]:
    return sorted(hand, key=rank)


def my_turn(m: ToyMatch | None, seat: int) -> bool:
    return (m is not None and m.status == "running" and m.rnd is not None and m.rnd.phase == PLAY
            and m.rnd.current == seat)


def legal_actions(m: ToyMatch | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every card of the hand on the seat's turn; nothing otherwise."""
    if m is None or not my_turn(m, seat):
        return []
    assert m.rnd is not None
    return [{"type": "lay", "card": c} for c in sort_hand(m.rnd.hands[seat])]


def default_action(m: ToyMatch, seat: int) -> dict[str, Any] | None:
    """On a timeout: the lowest card."""
    actions = legal_actions(m, seat, 0)
    return actions[0] if actions else None
