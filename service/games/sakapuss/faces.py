"""Sakapuss' cards as a client shows them (docs/clients.md): the cats of every kind a table may
deal (``cat:k0`` ... ``cat:k4``), the chance cards of the default parasite kinds, and a face for each
family (``par``, ``ins``, ``shower``) that an id with kinds named by the table's options falls back to."""
from __future__ import annotations

from service.games.kernel.presentation import Face
from service.games.sakapuss.commands import cat_id
from service.games.sakapuss.options import PARASITES, SPEC_BY_NAME

PARASITE, INSECTICIDE, SHOWER = "\U0001FAB3", "\U0001F9F4", "\U0001F6BF"
GLYPHS = ("\u25CF", "\u25B2", "\u25A0", "\u25C6", "\u271A")
"""Each cat kind's glyph (k0 ... k4: a disc, a triangle, a square, a diamond, a cross): a shape any font has,
so that two kinds differ by shape as well as by their tone and their name (words ``label.k<i>``)."""
_KINDS = int(SPEC_BY_NAME["cat_kinds_total"].hi or 0)
_VALUES = range(int(SPEC_BY_NAME["parasite_cards"].lo or 1), int(SPEC_BY_NAME["parasite_cards"].hi or 0) + 1)

FACES: tuple[Face, ...] = (
    *(Face(cat_id(f"k{i}"), f"k{i}", "card.cat", symbol=GLYPHS[i % len(GLYPHS)], colour=f"tone-{i % 6}") for i in range(_KINDS)),
    *(Face(f"par:{kind}:{n}", f"{kind} {n}", "card.parasite", symbol=PARASITE) for kind in PARASITES for n in _VALUES),
    *(Face(f"ins:{kind}", kind, "card.insecticide", symbol=INSECTICIDE) for kind in PARASITES),
    Face("par", None, "card.parasite", symbol=PARASITE),
    Face("ins", None, "card.insecticide", symbol=INSECTICIDE),
    Face("shower", "", "card.shower", symbol=SHOWER),
)
"""Parasites ``par:<kind>:<n>:<copy>``, insecticides ``ins:<kind>:<copy>``, showers ``shower`` or
``shower:<copy>`` (flow.py ``chance_deck``)."""
