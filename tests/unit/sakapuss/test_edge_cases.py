"""RULES §6.9: one test per row (K-1 ... K-21), named after the rows."""
from __future__ import annotations

import pytest

from service.api.codes import status_of
from service.games import engine
from service.games.kernel import randomness
from service.games.kernel.model import JoinSeat, LeaveSeat, StartMatch
from service.games.sakapuss.evolve import fz
from service.games.sakapuss.state import rep

from .helpers import FireTimer, PassCard, Sak, ScoreRound, Slap


def _three(seed=0, **kw):
    g = Sak(3, seed=seed, **kw)
    a, b, c = g.m.kinds
    return g, a, b, c


def _drawn(evs):
    return [(e.data["seat"], e.data["reason"]) for e in evs if e.type == "ChanceCardDrawn"]


def test_k01_dealt_four_identical_may_slap_at_once():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b, b, c, c], 2: [a] * 0 + [b, b, c, c]})
    evs = g.do(Slap(0, 0))
    assert evs[0].type == "SlapMade" and evs[0].data["race_id"] == 1 and evs[0].data["seen_step"] == 0
    g.do(Slap(1, 0))
    evs = g.do(Slap(2, 0))  # everyone slapped: resolved at once
    assert g.types(evs)[1:] == ["RaceResolved", "ChanceCardDrawn", "RoundEnded"]
    assert evs[1].data["valid"] is True and evs[-1].data == {"reason": "race", "winner": 0,
                                                             "first_slapper": 0, "valid": True}
    assert _drawn(evs) == [(2, "last_slapper")]


def test_k02_two_players_complete_in_the_same_step():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b] * 4, 2: [c] * 4})
    g.do(Slap(1, 0))
    g.do(Slap(0, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert evs[0].data["first_slapper"] == 1 and evs[0].data["valid"]
    assert _drawn(evs) == [(2, "non_slapper")]  # seat 0 completed too: merely safe, no bonus


def test_k03_holding_four_but_passing_is_allowed():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b] * 4, 2: [c] * 4})
    evs = g.pass_all({0: a, 1: b, 2: c})
    assert "SlapMade" not in g.types(g.events)  # the server never slaps for a player
    assert evs[-1].type == "PassesResolved"
    assert sorted(g.hand(0)) == sorted([a, a, a, c])  # received seat 2's card: set broken


def test_k04_slap_appended_before_the_last_pass_discards_the_step():
    g, a, b, c = _three()
    g.set_hands({0: [a, a, a, b], 1: [a, b, b, c], 2: [b, c, c, c]})
    g.do(PassCard(0, b, 1))
    g.do(PassCard(1, a, 1))
    before = dict(g.m.rnd.hands)
    evs = g.do(Slap(2, 0))
    assert evs[0].data["discarded_step"] == 1
    assert dict(g.m.rnd.hands) == before and not g.m.rnd.passes
    assert g.refused(PassCard(2, b, 1)).code == "wrong_phase"


def test_k04_last_pass_first_then_slap_judged_with_grace():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b, b, b, c], 2: [b, c, c, c]})
    g.pass_all({0: a, 1: c, 2: b})  # seat 0's own pass broke its set as step 1 resolved
    assert g.m.rnd.resolved == 1 and sorted(g.hand(0)) == [a, a, a, b]
    g.do(Slap(0, 0))  # seen_step = r - 1: judged against H_0
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert evs[0].data["valid"] is True and evs[0].data["grace"] is True


def test_k04_grace_off_makes_the_same_slap_false():
    g, a, b, c = _three(slap_grace_steps=0)
    g.set_hands({0: [a] * 4, 1: [b, b, b, c], 2: [b, c, c, c]})
    g.pass_all({0: a, 1: c, 2: b})
    g.do(Slap(0, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert evs[0].data["valid"] is False


def test_k05_a_seat_slapping_twice_is_idempotent():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b, b, c, c], 2: [b, b, c, c]})
    g.do(Slap(0, 0))
    g.advance(100)
    g.do(Slap(1, 0))
    assert g.do(Slap(1, 0)) == () and g.do(Slap(0, 0)) == ()
    assert g.m.rnd.race.slaps == (0, 1)


def test_k06_slap_after_the_window_or_outside_passing_is_refused():
    g, a, b, c = _three()
    g.set_hands({0: [a] * 4, 1: [b, b, c, c], 2: [b, b, c, c]})
    g.do(Slap(0, 0))
    g.advance(3001)
    assert g.refused(Slap(1, 0)).code == "race_closed"
    assert engine.legal_actions(g.m, 1, g.now) == []
    g.do(FireTimer("race-1-1"))  # -> ROUND_OVER
    err = g.refused(Slap(1, 0))
    assert (err.code, status_of(err.code)) == ("not_passing", 409)
    g.do(ScoreRound(1))  # -> INTERMISSION
    assert g.refused(Slap(1, 0)).code == "not_passing"


def test_k07_a_non_participant_slap_is_forbidden():
    g = Sak(4, start=False)
    g.do(LeaveSeat(3))
    g.do(StartMatch())
    err = g.refused(Slap(3, 0))
    assert (err.code, status_of(err.code)) == ("not_a_player", 403)
    assert g.m.rnd.seats == (0, 1, 2)


def test_k08_every_non_slapper_draws_one_in_seat_order_from_the_first_slappers_left():
    g = Sak(4, seed=3)
    a, b, c, d = g.m.kinds
    g.set_hands({0: [b, b, c, c], 1: [a] * 4, 2: [b, b, c, d], 3: [d, d, d, c]})
    g.do(Slap(1, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert _drawn(evs) == [(2, "non_slapper"), (3, "non_slapper"), (0, "non_slapper")]


def test_k08_one_random_non_slapper_draws():
    g = Sak(4, seed=3, non_slappers_policy="one_random")
    a, b, c, d = g.m.kinds
    g.set_hands({0: [b, b, c, c], 1: [a] * 4, 2: [b, b, c, d], 3: [d, d, d, c]})
    g.do(Slap(1, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    i = randomness.choice_index(bytes.fromhex(g.m.match_seed), "one_random/1/1", 3)
    assert _drawn(evs) == [([2, 3, 0][i], "non_slapper")]


def test_k09_false_slap_voids_the_race_and_the_real_holder_may_slap_again():
    g, a, b, c = _three()
    g.set_hands({0: [a, a, b, c], 1: [b] * 3 + [c], 2: [a, a, c, c]})
    g.pass_all({0: c, 1: c, 2: a})  # seat 1 completes? give it b from seat 0
    g.set_hands({0: [a, a, a, c], 1: [b] * 4, 2: [a, c, c, c]})
    g.do(Slap(0, 1))  # false
    g.do(Slap(1, 1))
    evs = g.do(Slap(2, 1))
    res = evs[1]
    assert res.type == "RaceResolved" and res.data["valid"] is False
    assert res.data["reopened_step"] == 2 and res.data["deadline"] == g.now + 15000
    assert _drawn(evs) == [(0, "false_slap"), (0, "false_slap")]
    assert g.m.rnd.phase == "passing" and g.m.rnd.step == 2 and g.m.rnd.voided == 1
    evs = g.do(Slap(1, 1))
    assert evs[0].data["race_id"] == 2


def test_k10_repeated_false_slaps_each_cost_two_cards():
    g, a, b, c = _three()
    g.set_hands({0: [a, a, b, c], 1: [a, b, b, c], 2: [a, b, c, c]})
    drawn = []
    for race in (1, 2):
        g.do(Slap(0, 0))
        g.advance(3000)
        drawn += _drawn(g.do(FireTimer(f"race-1-{race}")))
    assert drawn == [(0, "false_slap")] * 4 and g.m.rnd.voided == 2 and g.m.rnd.step == 1


def test_k11_pass_of_a_kind_not_held_or_for_the_wrong_step():
    g, a, b, c = _three()
    g.set_hands({0: [a, a, b, b], 1: [a, b, c, c], 2: [a, b, c, c]})
    err = g.refused(PassCard(0, c, 1))
    assert (err.code, status_of(err.code)) == ("kind_not_in_hand", 422)
    assert {"type": "pass_card", "kind": a, "step": 1, "card": f"cat:{a}"} in err.extra["legal_actions"]
    assert g.refused(PassCard(0, "k99", 1)).code == "kind_not_in_hand"
    for step in (0, 2):
        err = g.refused(PassCard(0, a, step))
        assert (err.code, status_of(err.code)) == ("wrong_step", 409)
    g.do(PassCard(0, a, 1))
    assert g.do(PassCard(0, a, 1)) == ()  # resending the same kind is idempotent
    err = g.refused(PassCard(0, b, 1))
    assert (err.code, status_of(err.code)) == ("already_passed", 409)


def test_k12_a_timed_out_pass_is_a_seeded_random_card():
    g, a, b, c = _three()
    g.set_hands({0: [a, a, a, b], 1: [a, b, c, c], 2: [b, b, c, c]})
    g.do(PassCard(1, c, 1))
    g.advance(14_999)
    assert g.refused(FireTimer("pass-1-1")).code == "nothing_to_do"  # early: waits
    g.advance(1)
    evs = g.do(FireTimer("pass-1-1"))
    assert g.types(evs) == ["TimedOut", "PassSubmitted", "TimedOut", "PassSubmitted", "PassesResolved"]
    seed = bytes.fromhex(g.m.match_seed)
    for ev in evs:
        if ev.type == "PassSubmitted":
            s = ev.data["seat"]
            hand = sorted({0: [a, a, a, b], 2: [b, b, c, c]}[s])
            assert ev.data["auto"] is True and "kind" not in ev.data
            assert ev.to_seat[s]["kind"] == hand[randomness.choice_index(seed, f"auto_pass/1/1/{s}", 4)]
    assert g.refused(FireTimer("pass-1-1")).code == "nothing_to_do"  # closed


def test_k13_insecticide_without_parasites_of_its_kind_goes_to_the_bottom():
    g, a, b, c = _three()
    deck = list(g.m.chance_deck)
    deck.remove("ins:lice:a")
    g.set_deck(["ins:lice:a"] + deck)
    g.set_hands({0: [a] * 4, 1: [b, b, c, c], 2: [b, b, c, c]})
    g.do(Slap(0, 0))
    g.do(Slap(1, 0))
    evs = g.do(Slap(2, 0))
    drawn = [e for e in evs if e.type == "ChanceCardDrawn"]
    assert len(drawn) == 1  # no replacement card
    assert drawn[0].data["effect"] == "insecticide" and drawn[0].data["returned"] == ["ins:lice:a"]
    assert g.m.chance_deck[-1] == "ins:lice:a" and len(g.m.chance_deck) == 25


def test_k14_insecticide_then_parasite_of_the_same_kind_resolve_in_draw_order():
    g, a, b, c = _three()
    deck = [x for x in g.m.chance_deck if x not in ("ins:lice:a", "par:lice:3:a", "par:lice:1:a")]
    g.set_deck(["ins:lice:a", "par:lice:3:a"] + deck)
    g.state = rep(g.m, parasites=fz({0: ("par:lice:1:a",), 1: (), 2: ()}))
    g.set_hands({0: [a, a, b, c], 1: [a, b, b, c], 2: [a, b, c, c]})
    g.do(Slap(0, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    drawn = [e.data for e in evs if e.type == "ChanceCardDrawn"]
    assert drawn[0]["removed"] == ["par:lice:1:a"] and drawn[0]["returned"] == ["par:lice:1:a", "ins:lice:a"]
    assert g.m.parasites[0] == ("par:lice:3:a",)
    assert g.m.chance_deck[-2:] == ("par:lice:1:a", "ins:lice:a")


def test_k15_a_leaver_is_replaced_by_a_bot():
    g, _a, _b, _c = _three()
    g.do(PassCard(0, g.hand(0)[0], 1))
    evs = g.do(LeaveSeat(1))
    assert evs[0].data["replaced_by"] == {"kind": "bot", "strength": "medium", "name": "bot"}  # §8.3 default
    seat = g.m.seats[1]
    assert (seat.kind, seat.state, seat.strength) == ("bot", "active", "medium")
    due = [d for d in engine.pending_work(g.m) if d.kind == "bot"]
    assert [d.seat for d in due] == [1] and due[0].opened_seq == g.m.rnd.step_opened_seq
    assert due[0].due_at - g.m.rnd.step_opened_at >= 350
    import random

    from service.games.sakapuss.bots import easy as sakapuss_easy
    action = sakapuss_easy.choose(engine.seat_view(g.m, 1, g.now), random.Random(1))
    assert action["type"] in ("pass_card", "slap")


def test_k16_joining_after_the_start_is_refused():
    g = Sak(3)
    err = g.refused(JoinSeat("late"))
    assert (err.code, status_of(err.code)) == ("joining_closed", 409)


def _stalemate_round(g):
    for _ in range(20):
        g.pass_all()
        if g.m.rnd.phase != "passing":
            break


def test_k17_a_tie_at_the_end_is_a_shared_win():
    g = Sak(3, rounds=1, max_pass_steps_per_round=20)
    g.set_hands({0: list("") + [g.m.kinds[0], g.m.kinds[1]] * 2, 1: [g.m.kinds[1], g.m.kinds[2]] * 2,
                 2: [g.m.kinds[2], g.m.kinds[0]] * 2})
    _stalemate_round(g)
    evs = g.do(ScoreRound(1))
    assert g.types(evs) == ["RoundScored", "MatchEnded", "SeedsRevealed"]
    end = evs[1].data
    assert [x["rank"] for x in end["standings"]] == [1, 1, 1] and end["winners"] == [0, 1, 2]
    assert end["winner"] is None and end["reason"] == "rounds_played"


def test_k18_bots_never_react_faster_than_the_floor():
    for seed in range(30):
        g = Sak(3, seed=seed, bots=2)
        for d in engine.pending_work(g.m):
            if d.kind == "bot":
                assert 350 <= d.due_at - g.m.rnd.step_opened_at <= 3000  # the floor; medium by default
        g.do(Slap(0, 0))
        for d in engine.pending_work(g.m):
            if d.kind == "bot":
                assert 350 <= d.due_at - g.m.rnd.race.opened_at <= 3000


def test_k19_stalemate_ends_the_round_with_no_draw():
    g = Sak(3, max_pass_steps_per_round=20)
    g.set_hands({0: [g.m.kinds[0], g.m.kinds[1]] * 2, 1: [g.m.kinds[1], g.m.kinds[2]] * 2,
                 2: [g.m.kinds[2], g.m.kinds[0]] * 2})
    _stalemate_round(g)
    assert g.events[-1].type == "RoundEnded" and g.events[-1].data["reason"] == "stalemate"
    assert g.m.rnd.resolved == 20 and "ChanceCardDrawn" not in g.types(g.events)


def test_k20_slap_without_or_with_a_bad_seen_step():
    from marshmallow import ValidationError

    from service.api.schemas import Action
    with pytest.raises(ValidationError):
        Action().load({"type": "slap"})
    g, _a, _b, _c = _three()
    g.pass_all()
    g.pass_all()  # r = 2
    for bad in (-1, 0, 3):
        err = g.refused(Slap(0, bad))
        assert (err.code, status_of(err.code)) == ("invalid_seen_step", 422)
    assert g.do(Slap(0, 1))[0].type == "SlapMade"


def test_k21_steps_after_a_voided_race_and_the_guard_counting_it():
    g = Sak(3, max_pass_steps_per_round=20)
    g.set_hands({0: [g.m.kinds[0], g.m.kinds[1]] * 2, 1: [g.m.kinds[1], g.m.kinds[2]] * 2,
                 2: [g.m.kinds[2], g.m.kinds[0]] * 2})
    g.pass_all()
    g.do(Slap(0, 1))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert evs[0].data["reopened_step"] == 2 and g.m.rnd.step == 2
    assert [d.key for d in engine.pending_work(g.m)] == ["pass-1-2-1"]
    for _ in range(17):
        g.pass_all()
    assert g.m.rnd.resolved == 18 and g.m.rnd.phase == "passing"  # 18 steps + 1 voided race
    g.do(Slap(0, 18))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-2"))
    assert evs[0].data["reopened_step"] is None
    assert evs[-1].type == "RoundEnded" and evs[-1].data["reason"] == "stalemate"
