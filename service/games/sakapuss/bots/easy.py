"""§7.2/§7.5 easy Sakapuss bot: passes a random card; slaps on its own set (missing it with
p = 0.15 per step) or once another seat has slapped; never false-slaps."""
from __future__ import annotations

import random
from typing import Any

from service.games.kernel.views import SeatView

MISS_P = 0.15


def _complete(hand: tuple[str, ...]) -> bool:
    return len(hand) == 4 and len(set(hand)) == 1


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """One action of ``view.legal_actions`` (the same view a human in this seat gets)."""
    actions = [dict(a) for a in view.legal_actions]
    slap = next((a for a in actions if a["type"] == "slap"), None)
    passes = {a["kind"]: a for a in actions if a["type"] == "pass_card"}
    if view.public.get("phase") == "slap_race":
        if slap is None:
            raise ValueError("nothing to do in this race")
        return slap  # someone else slapped: follow as fast as the reaction delay allows
    if slap is not None and _complete(view.hand) and rng.random() >= MISS_P:
        return slap
    if passes:
        card = rng.choice(sorted(view.hand))  # a random card: a kind held twice is twice as likely
        return passes.get(card.split(":", 1)[1]) or passes[sorted(passes)[0]]
    raise ValueError("no pass left and no set to slap")
