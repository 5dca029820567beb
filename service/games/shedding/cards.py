"""§2.2 cards: ranks, suits, card ids ("7H:0"), decks built from options, lookup tables."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
RANK_ORDER: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
SUIT_ORDER: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
MAX_COPIES = 2

RANK: dict[str, str] = {}
"""card id -> rank, for every card id that can exist."""
SUIT: dict[str, str] = {}
"""card id -> suit letter."""
SHORT: dict[str, str] = {}
"""card id -> short form "<rank><suit>"."""
SORT_KEY: dict[str, tuple[int, int, int]] = {}
"""card id -> (suit, rank, copy) order used for displaying hands."""
RS: dict[str, tuple[str, str]] = {}
"""card id -> (rank, suit): one lookup for the hot legality loops."""

for _r in RANKS:
    for _s in SUITS:
        for _c in range(MAX_COPIES):
            _cid = f"{_r}{_s}:{_c}"
            RANK[_cid] = _r
            SUIT[_cid] = _s
            SHORT[_cid] = f"{_r}{_s}"
            SORT_KEY[_cid] = (SUIT_ORDER[_s], RANK_ORDER[_r], _c)
            RS[_cid] = (_r, _s)


def card_id(rank: str, suit: str, copy: int = 0) -> str:
    """§2.2: the id of one physical card."""
    return f"{rank}{suit}:{copy}"


def is_card_id(text: str) -> bool:
    """Whether ``text`` is an exact card id."""
    return text in RANK


def build_deck(ranks: Iterable[str], copies: int) -> tuple[str, ...]:
    """§5.2 / §4.2: the unshuffled deck in a fixed documented order (copy, suit, rank)."""
    rank_list = list(ranks)
    return tuple(card_id(r, s, c) for c in range(copies) for s in SUITS for r in rank_list)


def sort_hand(hand: Iterable[str]) -> list[str]:
    """A hand in display order: by suit, then rank, then copy."""
    return sorted(hand, key=SORT_KEY.__getitem__)


def hand_points(hand: Iterable[str], points: Mapping[str, int]) -> int:
    """§3.9.2: the sum of card_points over a hand."""
    return sum(points[RANK[c]] for c in hand)
