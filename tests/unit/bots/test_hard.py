"""The hard bot: legal, deterministic for a seed and an iteration budget, and blind to hidden cards."""
import dataclasses
import random

from service.bots import hard
from service.bots.determinize import Determinizer
from service.rules.engine import decide, seat_view
from service.rules.views import SeatView

from tests.unit.rules.helpers import Game, apply, crafted, to_command

IT = 24  # iterations (simulated playouts) per decision in these tests; never the clock


def choose(view, seed, iterations=IT, **kw):
    return hard.choose(view, random.Random(seed), budget_ms=None, iterations=iterations, **kw)


def test_seat_view_holds_no_hidden_cards_by_construction():
    assert {f.name for f in dataclasses.fields(SeatView)} == {"seat", "now", "public", "hand",
                                                             "legal_actions", "own"}
    g = Game(3, seed="blind")
    g.start()
    view = seat_view(g.m, 0, g.now)
    text = repr(dict(view.public))
    hidden = [c for s in (1, 2) for c in g.m.rnd.hands[s]] + list(g.m.rnd.stock)
    visible = set(view.public["table"]["discard"])
    assert not [c for c in hidden if c not in visible and f"'{c}'" in text]


def test_same_view_different_hidden_state_same_choice():
    mine = ["AH:0", "KH:0", "7H:0", "2C:0", "JS:0"]
    a = crafted(2, [mine, ["2S:1", "3S:1", "4S:1", "5S:1", "6S:1"]], "5H:0")
    b = crafted(2, [mine, ["9D:1", "QD:1", "KD:1", "AD:1", "JD:1"]], "5H:0",
                stock=None)
    va, vb = seat_view(a.m, 0, a.now), seat_view(b.m, 0, b.now)
    assert va == vb  # identical public view + own hand + legal actions
    assert a.m.rnd.hands[1] != b.m.rnd.hands[1] and a.m.rnd.stock != b.m.rnd.stock
    for seed in range(3):
        assert choose(va, seed) == choose(vb, seed)
        assert choose(va, seed, mode="ismcts") == choose(vb, seed, mode="ismcts")


def test_deterministic_for_a_seed_and_iteration_budget():
    g = Game(3, seed="det")
    g.start()
    view = seat_view(g.m, g.m.rnd.current, g.now)
    assert choose(view, 7) == choose(view, 7)
    assert choose(view, 7, mode="ismcts") == choose(view, 7, mode="ismcts")


def test_only_legal_actions_over_random_states_and_announces():
    for i in range(6):
        g = Game(2 + i % 3, seed=f"hard{i}")
        g.start()
        for step in range(12):
            if g.m.rnd.phase not in ("play", "respond_seven", "ace_followup", "after_draw"):
                break
            seat = g.m.rnd.current
            view = seat_view(g.m, seat, g.now)
            a = choose(view, step, iterations=8, mode="pimc" if step % 2 else "ismcts")
            assert a in [dict(x) for x in view.legal_actions]
            g.state = apply(g.state, decide(g.m, to_command(seat, a), g.ctx()))
            g.now += 2000
    g = crafted(2, [["6H:0", "KH:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    a = choose(seat_view(g.m, 0, g.now), 1)
    assert a["type"] == "play" and a.get("announce") is True


def test_determinizations_match_the_public_facts():
    g = Game(3, seed="detz")
    g.start()
    view = seat_view(g.m, 0, g.now)
    det = Determinizer(view)
    for k in range(5):
        m = det.sample(random.Random(k))
        assert m.rnd.hands[0] == tuple(view.hand)
        for s in view.public["seats"]:
            assert len(m.rnd.hands[s["seat"]]) == s["hand_count"]
        assert len(m.rnd.stock) == view.public["table"]["stock_count"]
        assert m.rnd.discard == tuple(view.public["table"]["discard"])
        everything = sorted(list(m.rnd.stock) + list(m.rnd.discard) + [c for h in m.rnd.hands for c in h])
        assert everything == sorted(g.m.rnd.stock + g.m.rnd.discard + tuple(c for h in g.m.rnd.hands for c in h))


def test_takes_the_obvious_win():
    # going out beats everything else; hard must find it without the medium prior mattering
    g = crafted(2, [["5H:0"], ["2S:1", "3S:1"]], "9H:0")
    assert choose(seat_view(g.m, 0, g.now), 0) == {"type": "play", "card": "5H:0"}
    g = crafted(2, [["AH:0", "6H:0"], ["2S:1", "3S:1"]], "5H:0")
    a = choose(seat_view(g.m, 0, g.now), 0, iterations=60)
    assert a == {"type": "play", "card": "AH:0", "announce": True}


def test_time_budget_uses_the_injected_clock_only():
    g = Game(2, seed="clock")
    g.start()
    view = seat_view(g.m, g.m.rnd.current, g.now)
    ticks = iter(range(0, 10_000))
    fake = lambda: next(ticks) * 0.010  # noqa: E731  (each reading: +10 ms)
    s = hard._Search(view, random.Random(0), hard.UCB_C, hard.EPSILON, fake)
    s.run(50, None)  # 50 ms budget, no iteration cap: stops on the fake clock
    assert 1 <= s.iterations <= 6
    # no clock: the time budget is ignored and the iteration budget alone decides
    assert hard.choose(view, random.Random(3), budget_ms=1, iterations=IT) == choose(view, 3)
