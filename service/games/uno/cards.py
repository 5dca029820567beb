"""UNO's cards: RLCard's faces (``R-5``, ``G-skip``, ``wild_draw_4``) and their ids (face, ':' and the copy).

The deck is built in RLCard's ``init_deck`` order: for each colour R, G, B, Y (RLCard's r, g, b, y)
the numbers 0..9 (one 0, two of each other number), two each of skip, reverse and draw_2, then one wild and one wild
draw four; the copies of a face are numbered in that order (``R-1:0``, ``R-1:1``, ``wild:0`` is
red's wild). A wild has no colour of its own: RLCard colours it only when it is played.
"""
from __future__ import annotations

COLORS: tuple[str, ...] = ("R", "G", "B", "Y")
NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(10))
ACTION_TRAITS: tuple[str, ...] = ("skip", "reverse", "draw_2")
WILD, WILD_DRAW_4 = "wild", "wild_draw_4"
SKIP, REVERSE, DRAW_2 = ACTION_TRAITS


def _deck() -> tuple[str, ...]:
    faces: list[str] = []
    for c in COLORS:
        for n in NUMBERS:
            faces += [f"{c}-{n}"] * (1 if n == "0" else 2)
        for a in ACTION_TRAITS:
            faces += [f"{c}-{a}"] * 2
        faces += [WILD, WILD_DRAW_4]
    seen: dict[str, int] = {}
    out = []
    for f in faces:
        k = seen.get(f, 0)
        seen[f] = k + 1
        out.append(f"{f}:{k}")
    return tuple(out)


DECK: tuple[str, ...] = _deck()
"""The 108 card ids in the documented (RLCard ``init_deck``) order."""
FACE: dict[str, str] = {c: c.split(":")[0] for c in DECK}
"""card id -> face (``R-5:1`` -> ``R-5``): the two copies of a face play alike."""
COLOR: dict[str, str | None] = {c: (None if FACE[c].startswith("wild") else FACE[c][0]) for c in DECK}
TRAIT: dict[str, str] = {c: FACE[c] if COLOR[c] is None else FACE[c][2:] for c in DECK}
KIND: dict[str, str] = {c: "wild" if COLOR[c] is None else "number" if TRAIT[c] in NUMBERS else "action"
                        for c in DECK}
CARD_PATTERN = r"([RGBY]-([0-9]|skip|reverse|draw_2)|wild|wild_draw_4):[0-3]"
"""Every card id (the registry joins it into the API's pattern of an action's ``card``)."""
_ORDER = {c: i for i, c in enumerate(DECK)}


def sort_hand(cards: tuple[str, ...] | list[str]) -> list[str]:
    """A hand in deck order: by colour, then number and action, the wilds after each colour's cards."""
    return sorted(cards, key=_ORDER.__getitem__)


def is_card_id(card: object) -> bool:
    return isinstance(card, str) and card in _ORDER
