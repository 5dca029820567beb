"""§7.2 easy bot: a uniformly random legal action; draws only when forced; always announces."""
from __future__ import annotations

import random
from typing import Any

from service.games.kernel.views import SeatView

CLOSING_NON_PLAY = ("draw", "take_penalty", "accept_skip", "pass")


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """Pick one action of ``view.legal_actions`` (never a draw while a play is legal)."""
    actions = [dict(a) for a in view.legal_actions]
    if not actions:
        raise ValueError("no legal action")
    forget_p = float(view.public.get("options", {}).get("easy_bot_forget_announce_p", 0.0))
    forget = forget_p > 0 and rng.random() < forget_p
    plays = [a for a in actions if a["type"] == "play"]
    if plays:
        flagged = {_key(a) for a in plays if a.get("announce")}
        if flagged and not forget:
            plays = [a for a in plays if a.get("announce") or _key(a) not in flagged]
        else:
            plays = [a for a in plays if not a.get("announce")]
        return rng.choice(_one_per_card(plays, rng))
    if any(a["type"] == "announce" for a in actions) and not forget:
        return {"type": "announce"}
    rest = [a for a in actions if a["type"] in CLOSING_NON_PLAY]
    return rng.choice(rest or actions)


def _key(a: dict[str, Any]) -> tuple[str, str | None]:
    return a["card"], a.get("called_suit")


def _one_per_card(plays: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Uniform over cards, then a random suit for a calling jack."""
    by_card: dict[str, list[dict[str, Any]]] = {}
    for a in plays:
        by_card.setdefault(a["card"], []).append(a)
    return [rng.choice(v) for v in by_card.values()]
