"""Easy bot: a random playable card (a wild names a random colour); draws when it cannot play.
With ``uno_call`` it calls or forgets at random (and, as every strength, catches: kernel/catch.py)."""
from __future__ import annotations

import random
from typing import Any

from service.games.kernel.views import SeatView


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    actions = [dict(a) for a in view.legal_actions]
    if not actions:
        raise ValueError("no legal action")
    plays = [a for a in actions if a["type"] == "play"]
    if plays:
        card = rng.choice(sorted({a["card"] for a in plays}))
        return rng.choice([a for a in plays if a["card"] == card])
    return rng.choice(actions)
