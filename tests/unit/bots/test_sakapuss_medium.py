"""The medium Sakapuss bot keeps its majority kind and passes the kind it holds least."""
from __future__ import annotations

import random

from service.games.kernel.views import SeatView
from service.games.sakapuss.bots import medium as sakapuss_medium


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


def test_a_tie_for_the_kind_to_keep_goes_to_the_kind_received_most_recently() -> None:
    """§7.5: keep the kind held most; ties: the kind received most recently (own pass log)."""
    hand = ["cat:k1", "cat:k1", "cat:k3", "cat:k3"]
    base = _view(hand)
    assert sakapuss_medium.choose(base, random.Random(0))["kind"] == "k3"  # no log: lower number kept
    log = ({"step": 1, "passed": "k0", "received": "k3"}, {"step": 2, "passed": "k3", "received": "k1"})
    view = SeatView(seat=0, now=0, public=base.public, hand=base.hand, legal_actions=base.legal_actions,
                    own={"passed_kind": None, "pass_log": log})
    for seed in range(10):
        assert sakapuss_medium.choose(view, random.Random(seed))["kind"] == "k3"  # k1 came last: kept
    assert sakapuss_medium.history(view) == [("k0", "k3"), ("k3", "k1")]


def test_the_pass_log_reaches_the_bot_through_its_seat_view() -> None:
    """The engine's seat view carries the seat's own log, equal to what it passed and received."""
    from service.games import engine
    from service.games.sakapuss.commands import PassCard
    from tests.unit.sakapuss.helpers import Sak

    g = Sak(players=3, seed="log")
    sent: dict[int, list[str]] = {s: [] for s in range(3)}
    for _ in range(3):
        for s in range(3):
            kind = g.m.rnd.hands[s][0]
            sent[s].append(kind)
            g.do(PassCard(s, kind, g.m.rnd.step))
        if g.m.rnd.phase != "passing":
            break
    for s in range(3):
        log = sakapuss_medium.history(engine.seat_view(g.m, s, g.now))
        assert [p for p, _ in log] == sent[s][:len(log)] and log
        assert [r for _, r in log] == sent[(s - 1) % 3][:len(log)]  # passes go left: from seat s-1
