"""The hard bot: legal, deterministic for a seed and an iteration budget, and blind to hidden cards."""
import dataclasses
import random

from service.games.engine import decide, seat_view
from service.games.kernel.views import SeatView
from service.games.shedding.bots import hard
from service.games.shedding.bots.determinize import Determinizer
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
    visible = set(view.public["record"]["discard"])
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
        assert m.rnd.discard == tuple(view.public["record"]["discard"])
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
    ticks = iter(range(10_000))
    fake = lambda: next(ticks) * 0.010  # noqa: E731  (each reading: +10 ms)
    s = hard._Search(view, random.Random(0), hard.UCB_C, hard.EPSILON, fake)
    s.run(50, None)  # 50 ms budget, no iteration cap: stops on the fake clock
    assert 1 <= s.iterations <= 6
    # no clock: the time budget is ignored and the iteration budget alone decides
    assert hard.choose(view, random.Random(3), budget_ms=1, iterations=IT) == choose(view, 3)


def _sim(g):
    from service.games.shedding.playout import RngChance, SheddingSim
    return SheddingSim.from_match(g.m, RngChance(random.Random(0)))


def test_cutoff_evaluation_is_antisymmetric_and_reads_the_tactics():
    # seat 0 to move with one fitting card: about to go out
    g = crafted(2, [["6H:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    z = hard.win_logit(_sim(g), 0, 1)
    assert z > 3 and hard.win_logit(_sim(g), 1, 0) == -z
    # the same single card that does not fit: far less
    g2 = crafted(2, [["6C:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    assert hard.win_logit(_sim(g2), 0, 1) < z - 3
    # a jack in hand is worth more than a plain card of the same suit count
    g3 = crafted(2, [["6C:0", "JD:0", "2D:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    g4 = crafted(2, [["6C:0", "3D:0", "2D:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    assert hard.win_logit(_sim(g3), 0, 1) > hard.win_logit(_sim(g4), 0, 1) + 0.5
    # fewer cards is better, for the mover and for the waiter alike
    for k in range(1, 11):
        assert hard.MOVER[k - 1] > hard.MOVER[k] and hard.WAITER[k - 1] > hard.WAITER[k]


def test_estimate_scores_two_seats_as_a_win_probability():
    g = crafted(2, [["6H:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    view = seat_view(g.m, 0, g.now)
    s = hard._Search(view, random.Random(0), hard.UCB_C, hard.EPSILON)
    est = s.estimate(_sim(g))
    assert est[0] > 0.6 and est[1] < -0.6  # WIN_WEIGHT × (2P − 1) dominates


def test_clone_plays_on_without_touching_the_original():
    g = crafted(2, [["6H:0", "7H:0", "KS:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0")
    base = _sim(g)
    hands, stock, discard = [list(h) for h in base.hands], list(base.stock), list(base.discard)
    c = hard._clone(base, random.Random(1))
    c.step(0, ("play", "6H:0", None, False))
    c.step(1, ("draw",))
    assert c.hands != hands and c.discard != discard
    assert base.hands == hands and base.stock == stock and base.discard == discard
    assert base.current == 0 and base.phase == "play"


def test_playout_scores_a_finished_round_by_going_out_first():
    g = crafted(2, [["6H:0"], ["2S:1", "3S:1", "JC:1"]], "5H:0")
    s = hard._Search(seat_view(g.m, 0, g.now), random.Random(0), hard.UCB_C, 0.0)
    sim = _sim(g)
    r = s.play_out(sim, random.Random(0))  # medium goes out at once
    assert sim.winner == 0 and r[0] >= hard.WIN_WEIGHT and r[1] <= -hard.WIN_WEIGHT
    # a round still running at the cut-off is estimated, never scored as finished
    g2 = crafted(2, [["6H:0", "KS:0", "2D:0"], ["2S:1", "3S:1", "JC:1"]], "5H:0")
    sim2 = _sim(g2)
    hard_cut, hard.CUTOFF_PLIES = hard.CUTOFF_PLIES, 1
    try:
        r2 = s.play_out(sim2, random.Random(0))
    finally:
        hard.CUTOFF_PLIES = hard_cut
    assert sim2.winner is None and -hard.WIN_WEIGHT < r2[0] < hard.WIN_WEIGHT


def test_rollouts_model_each_opponent_by_his_public_strength():
    g = Game(4, seed="eps", bots=3)  # seat 0 human, seats 1-3 bots (strength from the option)
    g.start()
    view = seat_view(g.m, 1, g.now)
    rows = [dict(r) for r in view.public["seats"]]
    assert rows[0]["kind"] == "human" and rows[3]["strength"] == "medium"
    rows[2]["strength"] = "easy"
    s = hard._Search(dataclasses.replace(view, public=dict(view.public, seats=rows)),
                     random.Random(0), hard.UCB_C, 0.3)
    # the human: ε-medium; me: ε-medium as asked; an easy bot: random; a medium bot: its chain
    assert s.seat_eps == [hard.EPSILON, 0.3, 1.0, 0.0]
    rows[3]["strength"] = "hard"
    s = hard._Search(dataclasses.replace(view, public=dict(view.public, seats=rows)),
                     random.Random(0), hard.UCB_C, 0.3)
    assert s.seat_eps[3] == hard.EPSILON


def test_the_easy_rollout_plays_when_it_can_and_announces():
    rng = random.Random(1)
    acts = [("play", "5H:0", None, False), ("play", "5H:0", None, True), ("play", "JS:0", "H", False),
            ("draw",)]
    got = {hard._easy(acts, rng) for _ in range(200)}
    assert got == {("play", "5H:0", None, True), ("play", "JS:0", "H", False)}
    assert hard._easy([("draw",), ("announce",)], rng) == ("draw",)


def test_hard_reads_the_record_into_its_deals():
    """With a recorded round the determinizations come from the opponent model, and they
    explain the opponent's recorded moves better than the plain deals do."""
    from service.games.shedding.bots import medium
    from service.games.shedding.bots.evidence import Evidence
    g = Game(2, seed="rec", bots=2)
    g.start()
    rng = random.Random(0)
    for _ in range(40):  # a medium round well under way
        seat = g.m.rnd.current
        g.do(to_command(seat, medium.choose(seat_view(g.m, seat, g.now), rng)))
        g.now += 2000
        if g.m.rnd.phase == "scoring":
            break
    view = seat_view(g.m, g.m.rnd.current, g.now)
    s = hard._Search(view, random.Random(0), hard.UCB_C, hard.EPSILON)
    s.infer(None, 800)
    assert s.posterior is not None and s.posterior.steps == 400
    ev = Evidence(view, s.det.rules)
    opp = 1 - view.seat
    modelled = plain = 0.0
    for i in range(40):
        prio = {}
        modelled += ev.log_likelihood(opp, s.sample_sim(random.Random(i)).hands[opp], prio)
        plain += ev.log_likelihood(opp, Determinizer(view).sample(random.Random(i)).rnd.hands[opp], prio)
    assert modelled > plain
