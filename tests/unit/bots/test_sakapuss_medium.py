"""The medium Sakapuss bot keeps its majority kind and passes the kind it holds least."""
from __future__ import annotations

import random

from service.bots import sakapuss_medium
from service.rules.views import SeatView


def _view(hand: list[str], phase: str = "passing", slap: bool = True) -> SeatView:
    kinds = sorted({c.split(":")[1] for c in hand})
    actions = [{"type": "pass_card", "kind": k, "step": 3} for k in kinds]
    if slap:
        actions.append({"type": "slap", "seen_step": 3})
    return SeatView(seat=0, now=0, public={"phase": phase}, hand=tuple(sorted(hand)), legal_actions=tuple(actions))


def test_passes_the_kind_held_least_and_keeps_the_majority() -> None:
    view = _view(["cat:k1", "cat:k1", "cat:k1", "cat:k2"])
    for seed in range(20):
        assert sakapuss_medium.choose(view, random.Random(seed))["kind"] == "k2"
    view = _view(["cat:k0", "cat:k3", "cat:k3", "cat:k4"])
    picks = {sakapuss_medium.choose(view, random.Random(s))["kind"] for s in range(40)}
    assert picks == {"k0", "k4"}


def test_slaps_its_own_set_and_follows_a_race_but_never_false_slaps() -> None:
    assert sakapuss_medium.choose(_view(["cat:k2"] * 4), random.Random(1))["type"] == "slap"
    assert sakapuss_medium.choose(_view(["cat:k1", "cat:k2", "cat:k2", "cat:k3"], phase="slap_race"),
                                  random.Random(1))["type"] == "slap"
    assert sakapuss_medium.choose(_view(["cat:k1", "cat:k2", "cat:k2", "cat:k3"]), random.Random(1))["type"] == "pass_card"
