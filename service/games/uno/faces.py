"""UNO's cards as a client shows them (docs/clients.md): a face per coloured card (every copy
``<face>:<copy>`` finds it by dropping its copy), the two wilds, and the four colours as suits."""
from __future__ import annotations

from service.games.kernel.presentation import Face, SuitFace
from service.games.uno.cards import ACTION_TRAITS, COLORS, NUMBERS, WILD, WILD_DRAW_4

SUIT_FACES: tuple[SuitFace, ...] = (
    SuitFace("R", "\U0001F7E5", "red"), SuitFace("G", "\U0001F7E9", "tone-2"),
    SuitFace("B", "\U0001F7E6", "tone-4"), SuitFace("Y", "\U0001F7E8", "tone-1"),
)
assert tuple(s.id for s in SUIT_FACES) == COLORS, "a face for every colour"
_COLOUR = {s.id: s.colour for s in SUIT_FACES}
LABEL = {"skip": "\u2298", "reverse": "\u21c4", "draw_2": "+2"}
"""The short text on an action card (spoken: words ``label.<label>``)."""

FACES: tuple[Face, ...] = (
    *(Face(f"{c}-{t}", LABEL.get(t, t), "card.colored", suit=c, colour=_COLOUR[c])
      for c in COLORS for t in (*NUMBERS, *ACTION_TRAITS)),
    Face(WILD, "W", "card.wild", symbol="\U0001F308"),
    Face(WILD_DRAW_4, "+4", "card.wild_draw_4", symbol="\U0001F308"),
)
"""Every face of the 108-card deck (cards.py): ``R-5:1`` -> ``R-5``, ``wild:2`` -> ``wild``."""
