"""§7.5 medium Sakapuss bot: collect the kind held most, pass a card of the kind held least.

Ties for the kind to keep go to the kind most recently received (the seat's own pass log,
``view.own["pass_log"]``), then to the lower kind number; ties for the kind to pass are broken at
random. Slaps like easy, but never misses its own set; never false-slaps.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from service.games.kernel.views import SeatView
from service.games.sakapuss.bots.easy import _complete


def slap_or_passes(view: SeatView) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """The slap to make now (own set, or a race is on; never a false slap), else the passes by kind."""
    actions = [dict(a) for a in view.legal_actions]
    slap = next((a for a in actions if a["type"] == "slap"), None)
    passes = {a["kind"]: a for a in actions if a["type"] == "pass_card"}
    if slap is not None and (view.public.get("phase") == "slap_race" or _complete(view.hand)):
        return slap, passes
    if not passes:
        raise ValueError("no pass left and no set to slap")
    return None, passes


def history(view: SeatView) -> list[tuple[str, str]]:
    """The seat's own (kind passed, kind received) per resolved step of the round, oldest first."""
    return [(e["passed"], e["received"]) for e in view.own.get("pass_log", ())]


def majority(counts: Counter[str], log: list[tuple[str, str]]) -> str:
    """§7.5 medium: the kind held most; ties: the one received most recently, then the lowest."""
    recent = {received: i for i, (_, received) in enumerate(log)}
    return max(sorted(counts), key=lambda k: (counts[k], recent.get(k, -1)))


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """One action of ``view.legal_actions`` (the same view a human in this seat gets)."""
    slap, passes = slap_or_passes(view)
    if slap is not None:
        return slap
    counts = Counter(card.split(":", 1)[1] for card in view.hand)
    keep = majority(counts, history(view))
    candidates = [k for k in passes if k != keep] or list(passes)
    fewest = min(counts[k] for k in candidates)
    return passes[rng.choice(sorted(k for k in candidates if counts[k] == fewest))]
