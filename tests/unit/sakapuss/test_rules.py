"""Sakapuss flow, options, errors, visibility and the easy bot (RULES §6, §7.5, §8.2, §8.5)."""
from __future__ import annotations

import random

import pytest

from service.api.codes import status_of
from service.app.redaction import Viewer, project_event
from service.games import engine, registry
from service.games.kernel.model import DealRound, JoinSeat, RuleViolation, ScoreRound, StartMatch
from service.games.registry import preset_defaults, resolve_options, variants_catalog
from service.games.sakapuss.bots import easy as sakapuss_easy
from service.games.shedding.commands import Draw, Pass, Play

from .helpers import FireTimer, PassCard, Sak, Slap


def test_shedding_actions_are_invalid_at_a_sakapuss_table():
    g = Sak(3)
    for cmd in (Play(0, "7H"), Draw(0), Pass(0)):
        err = g.refused(cmd)
        assert (err.code, status_of(err.code)) == ("invalid_action", 422)


def test_too_few_players_cannot_start():
    g = Sak(2, start=False)
    assert g.refused(StartMatch()).code == "not_enough_players"
    g.do(JoinSeat("c"))
    g.do(StartMatch())
    assert len(g.m.kinds) == 3 and g.m.rnd.phase == "passing"


def test_options_defaults_catalog_and_validation():
    d = preset_defaults("sakapuss")
    assert d["round_intermission_s"] == 5 and d["pass_timeout_s"] == 15 and d["rounds"] == 10
    assert "bot_delay_ms" not in d and "turn_timeout_s" not in d
    names = [v["name"] for v in variants_catalog()]
    assert "sakapuss" in names and set(names) == set(registry.BY_VARIANT)
    resolved, warnings = resolve_options("sakapuss", {"round_intermission_s": 0, "pass_timeout_s": 5}, 4)
    assert resolved["round_intermission_s"] == 0 and resolved["max_players"] == 4 and warnings == []
    with pytest.raises(RuleViolation) as info:
        resolve_options("sakapuss", {"pass_timeout_s": 4, "slap_window_ms": 500, "bogus": 1,
                                     "false_slap_mode": "x"}, 5)
    assert status_of(info.value.code) == 422 and info.value.code == "invalid_option"
    assert {e["option"] for e in info.value.extra["errors"]} == {"pass_timeout_s", "slap_window_ms", "bogus",
                                                                  "false_slap_mode"}
    with pytest.raises(RuleViolation) as info:  # §8.5 rule 6
        resolve_options("sakapuss", {"cat_kinds_total": 3}, 4)
    assert {e["option"] for e in info.value.extra["errors"]} == {"cat_kinds_total", "max_players"}
    with pytest.raises(RuleViolation) as info:
        resolve_options("sakapuss", {"parasite_kinds": ["lice"], "parasite_cards": {"lice": []},
                                     "insecticides_per_kind": 0, "shower_cards": 0}, 5)
    assert {e["option"] for e in info.value.extra["errors"]} == {
        "parasite_kinds", "parasite_cards", "insecticides_per_kind", "shower_cards"}
    with pytest.raises(RuleViolation):
        resolve_options("sakapuss", {}, 2)


def test_round_flow_scoring_intermission_next_deal_and_match_end():
    g = Sak(3, rounds=2)
    a, b, c = g.m.kinds
    first_dealer = g.m.dealer
    g.set_hands({0: [a] * 4, 1: [b] * 4, 2: [c] * 4})
    for s in (0, 1, 2):
        evs = g.do(Slap(s, 0))
    assert evs[-1].type == "RoundEnded" and engine.public_view(g.m, g.now)["phase"] == "scoring"
    assert [d.kind for d in engine.pending_work(g.m)] == ["score"]
    evs = g.do(ScoreRound(1))
    assert g.types(evs) == ["RoundScored"]
    assert evs[0].data["intermission_deadline"] == g.now + 5000
    assert evs[0].data["totals"]["2"] == g.m.parasite_total(2)
    (due,) = engine.pending_work(g.m)
    assert (due.kind, due.key, due.due_at) == ("deal", "2", g.now + 5000)
    assert g.refused(DealRound(3)).code == "nothing_to_do"
    g.advance(5000)
    evs = g.do(DealRound(2))
    assert g.types(evs) == ["RoundStarted", "ShuffleCommitted", "CardsDealt"]  # chance deck not reshuffled
    assert g.m.kinds == (a, b, c) and g.m.dealer == (first_dealer + 1) % 3
    assert g.m.rnd.step == 1 and g.m.rnd.races == 0
    g.set_hands({0: [a] * 4, 1: [b] * 4, 2: [c] * 4})
    for s in (1, 0, 2):
        g.do(Slap(s, 0))
    evs = g.do(ScoreRound(2))
    assert g.types(evs) == ["RoundScored", "MatchEnded", "SeedsRevealed"]
    assert evs[0].data["intermission_deadline"] is None
    assert engine.pending_work(g.m) == () and g.m.status == "finished"
    assert g.refused(Slap(0, 0)).code == "wrong_phase"


def test_random_per_round_kinds_and_right_passing():
    g = Sak(3, kinds_selection="random_per_round", pass_direction="right", seed=5)
    g.do(PassCard(0, g.hand(0)[0], 1))
    g.do(PassCard(1, g.hand(1)[0], 1))
    evs = g.do(PassCard(2, g.hand(2)[0], 1))
    assert evs[-1].data["targets"] == {"0": 2, "1": 0, "2": 1}
    assert evs[-1].to_seat[2]["from"] == 0


def test_both_penalties_end_round_mode():
    g = Sak(3, false_slap_mode="both_penalties_end_round")
    a, b, c = g.m.kinds
    g.set_hands({0: [a, a, b, c], 1: [a, b, b, c], 2: [a, b, c, c]})
    g.do(Slap(0, 0))
    g.do(Slap(2, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    drawn = [(e.data["seat"], e.data["reason"]) for e in evs if e.type == "ChanceCardDrawn"]
    assert drawn == [(1, "non_slapper"), (0, "false_slap"), (0, "false_slap")]
    assert evs[-1].data["reason"] == "race" and evs[-1].data["winner"] is None


def test_chance_deck_empty_skips_the_draw():
    g = Sak(3, parasite_kinds=["lice"], parasite_cards={"lice": [2]}, insecticides_per_kind=0, shower_cards=0)
    assert g.m.chance_deck == ("par:lice:2:a",)
    g.do(Slap(0, 0))
    g.advance(3000)
    evs = g.do(FireTimer("race-1-1"))
    assert [e.type for e in evs][1:3] == ["ChanceCardDrawn", "ChanceDeckEmpty"]


def test_no_slap_before_the_first_pass_when_disabled():
    g = Sak(3, allow_slap_before_first_pass=False)
    assert all(a["type"] == "pass_card" for a in engine.legal_actions(g.m, 0, g.now))
    assert g.refused(Slap(0, 0)).code == "wrong_phase"


def test_sealed_passes_are_seen_only_by_passer_and_receiver():
    g = Sak(3)
    kind = g.hand(0)[0]
    (ev,) = g.do(PassCard(0, kind, 1))
    assert "kind" not in project_event(ev, Viewer(seat=1))["data"]
    assert "private" not in project_event(ev, Viewer(seat=1))
    assert project_event(ev, Viewer(seat=0))["private"] == {"0": {"kind": kind}}
    view = engine.public_view(g.m, g.now)
    assert view["table"]["passed"] == [0] and view["turn"]["seat"] is None
    assert engine.private_view(g.m, 0, g.now)["passed_kind"] == kind
    assert engine.private_view(g.m, 1, g.now)["passed_kind"] is None
    g.do(PassCard(1, g.hand(1)[0], 1))
    evs = g.do(PassCard(2, g.hand(2)[0], 1))
    res = evs[-1]
    assert project_event(res, Viewer(seat=1))["private"] == {"1": {"received": kind, "from": 0}}
    assert "private" not in project_event(res, Viewer())


def _view_for(g, seat):
    return engine.seat_view(g.m, seat, g.now)


def test_easy_bot_slaps_its_set_misses_sometimes_and_never_false_slaps():
    g = Sak(3, bots=3)
    a, b, c = g.m.kinds
    g.set_hands({0: [a] * 4, 1: [b, b, c, c], 2: [b, b, c, c]})
    picks = [sakapuss_easy.choose(_view_for(g, 0), random.Random(i))["type"] for i in range(400)]
    assert 0.08 < picks.count("pass_card") / 400 < 0.22
    for i in range(50):
        assert sakapuss_easy.choose(_view_for(g, 1), random.Random(i))["type"] == "pass_card"
    g.do(Slap(0, 0))
    assert sakapuss_easy.choose(_view_for(g, 1), random.Random(0)) == {"type": "slap", "seen_step": 0}


def test_bot_follow_ups_in_passing_and_race():
    g = Sak(3, bots=2)
    dues = engine.pending_work(g.m)
    assert {d.kind for d in dues} == {"timer", "bot"}
    assert sorted(d.seat for d in dues if d.kind == "bot") == [1, 2]
    assert all(d.opened_seq == g.m.rnd.step_opened_seq for d in dues)
    g.do(Slap(0, 0))
    dues = engine.pending_work(g.m)
    assert [d.key for d in dues if d.kind == "timer"] == ["race-1-1"]
    assert all(d.opened_seq == g.m.rnd.race.opened_seq for d in dues)
    assert engine.pending_work(g.m) == dues  # deterministic
