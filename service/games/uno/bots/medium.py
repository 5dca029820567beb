"""Medium bot: plays action cards before numbers and higher numbers before lower, keeps its wilds
for when nothing else follows; a wild names the colour it holds most of. Draws when it cannot play.
With ``uno_call`` it always calls (and, as every strength, catches: kernel/catch.py ``catching``)."""
from __future__ import annotations

import random
from typing import Any

from service.games.kernel.views import SeatView
from service.games.uno.actions import best_color
from service.games.uno.cards import COLOR, KIND, TRAIT


def _worth(card: str) -> int:
    """RLCard has no card points; a printed rule book's: 20 per action card, face value otherwise."""
    return 20 if KIND[card] == "action" else int(TRAIT[card])


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    actions = [dict(a) for a in view.legal_actions]
    if not actions:
        raise ValueError("no legal action")
    plays = [a for a in actions if a["type"] == "play"]
    plain = [a for a in plays if COLOR[a["card"]] is not None]
    if plain:
        return max(plain, key=lambda a: (_worth(a["card"]), bool(a.get("announce")), rng.random()))
    if plays:
        card = plays[0]["card"]
        rest = [c for c in view.hand if c != card]
        color = best_color(rest)
        same = [a for a in plays if a["card"] == card and a.get("called_suit") == color] or plays
        return max(same, key=lambda a: bool(a.get("announce")))
    return max(actions, key=lambda a: bool(a.get("announce")))
