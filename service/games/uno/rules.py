"""The rules both the event engine and the playout core decide by, from RLCard 1.2's
``UnoRound.get_legal_actions``: which faces a hand may play on the target, and who moves next."""
from __future__ import annotations

from collections.abc import Iterable

from service.games.uno.cards import COLOR, TRAIT, WILD_DRAW_4

HAND_SIZE = 7  # dealer.deal_cards(player, 7) for every player (game.py)


def playable(hand: Iterable[str], target_trait: str, target_wild: bool, color: str,
             colour_only: bool = False) -> list[str]:
    """The card ids of ``hand`` RLCard lets its holder play on the target (its trait, whether it
    is a wild, and the colour in play): on a wild only the colour matches, otherwise the colour or
    the trait; a wild always; a wild draw four only when nothing else is playable (RLCard's), or
    with ``colour_only`` (the published rules) only when the hand holds no card of the colour in play."""
    hand = tuple(hand)
    plain: list[str] = []
    fours: list[str] = []
    for c in hand:
        col = COLOR[c]
        if col is None:
            (fours if TRAIT[c] == WILD_DRAW_4 else plain).append(c)
        elif col == color or (not target_wild and TRAIT[c] == target_trait):
            plain.append(c)
    if colour_only:
        return plain + fours if all(COLOR[c] != color for c in hand) else plain
    return plain or fours


def step(seats: tuple[int, ...], seat: int, by: int) -> int:
    """The seat ``by`` places from ``seat`` in seat order (negative: the other way)."""
    return seats[(seats.index(seat) + by) % len(seats)]


POINTS = {"skip": 20, "reverse": 20, "draw_2": 20, "wild": 50, "wild_draw_4": 50}
"""The published rules' card points (a number card scores its number)."""


def hand_points(hand: Iterable[str]) -> int:
    """What a hand left at the end of a hand is worth to the hand's winner."""
    return sum(POINTS.get(TRAIT[c]) or int(TRAIT[c]) for c in hand)
