"""The shedding games' cards as a client shows them (docs/clients.md): a face per rank and suit
(every copy ``<rank><suit>:<copy>`` finds it by dropping its copy), the four suits."""
from __future__ import annotations

from service.games.kernel.presentation import Face, SuitFace
from service.games.shedding.cards import RANKS, SUITS

SUIT_FACES: tuple[SuitFace, ...] = (
    SuitFace("C", "\u2663", "black"), SuitFace("D", "\u2666", "red"),
    SuitFace("H", "\u2665", "red"), SuitFace("S", "\u2660", "black"),
)
assert tuple(s.id for s in SUIT_FACES) == SUITS, "a face for every suit"
_COLOUR = {s.id: s.colour for s in SUIT_FACES}

FACES: tuple[Face, ...] = tuple(Face(f"{r}{s}", r, "card.suited", suit=s, colour=_COLOUR[s])
                                for s in SUITS for r in RANKS)
"""Every rank and suit a deck may hold (``deck_ranks`` may name any rank, ``deck_copies`` two)."""
