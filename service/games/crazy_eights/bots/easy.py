"""Easy bot: a random playable card (an eight names a random suit); draws only when it cannot play;
passes when it may not draw."""
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
    draws = [a for a in actions if a["type"] == "draw"]
    return draws[0] if draws else actions[0]
