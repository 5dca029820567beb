"""The rules both the event engine and the playout core decide by (OpenSpiel's crazy_eights.cc):
which cards follow, who moves next, the penalty of a hand. Pure functions of plain values."""
from __future__ import annotations

from collections.abc import Iterable

from service.games.shedding.cards import RS

EIGHT, SKIP, REVERSE, DRAW_TWO = "8", "Q", "A", "2"
HIGH = frozenset({"J", "Q", "K", "A"})
HAND_SIZE = {2: 7}  # OpenSpiel: 7 cards each for two players, else 5
DEFAULT_HAND = 5


def hand_size(players: int) -> int:
    return HAND_SIZE.get(players, DEFAULT_HAND)


def follows(card: str, top: str, suit: str) -> bool:
    """An eight always; otherwise the suit to follow or the top card's rank."""
    rank, s = RS[card]
    return rank == EIGHT or s == suit or rank == RS[top][0]


def card_penalty(card: str) -> int:
    """OpenSpiel's documented scoring: 50 per eight, 10 per J, Q, K and A, face value otherwise."""
    rank = RS[card][0]
    if rank == EIGHT:
        return 50
    if rank in HIGH:
        return 10
    return int(rank)


def penalty(hand: Iterable[str]) -> int:
    return sum(card_penalty(c) for c in hand)


def step(seats: tuple[int, ...], seat: int, by: int) -> int:
    """The seat ``by`` places from ``seat`` in seat order (negative: the other way)."""
    return seats[(seats.index(seat) + by) % len(seats)]
