"""The default ``easy`` bot of a game that brings none (OpenSpiel's uniform random bot)."""
from __future__ import annotations

import random
from typing import Any

from service.games.kernel.views import SeatView


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """Any of the seat's legal actions, uniformly at random."""
    if not view.legal_actions:
        raise ValueError("no legal action")
    return dict(rng.choice(view.legal_actions))
