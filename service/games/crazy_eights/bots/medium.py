"""Medium bot: sheds its costliest cards first and keeps its eights for when nothing else follows;
an eight names the suit it holds most of; with special cards it answers a two rather than draw.
Draws until it can play (up to the limit), then passes."""
from __future__ import annotations

import random
from typing import Any

from service.games.crazy_eights.actions import best_suit
from service.games.crazy_eights.rules import EIGHT, card_penalty
from service.games.kernel.views import SeatView
from service.games.shedding.cards import RANK


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    actions = [dict(a) for a in view.legal_actions]
    if not actions:
        raise ValueError("no legal action")
    plays = [a for a in actions if a["type"] == "play"]
    plain = [a for a in plays if RANK[a["card"]] != EIGHT]
    if plain:
        return max(plain, key=lambda a: (card_penalty(a["card"]), rng.random()))
    if plays:
        rest = [c for c in view.hand if c != plays[0]["card"]]
        suit = best_suit(rest)
        same = [a for a in plays if a["card"] == plays[0]["card"]]
        return next((a for a in same if a.get("called_suit") == suit), same[0])
    draws = [a for a in actions if a["type"] == "draw"]
    return draws[0] if draws else actions[0]
