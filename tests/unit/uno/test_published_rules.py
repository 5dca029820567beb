"""The ``uno`` preset (the published rules) at each difference from ``uno-rlcard`` (docs/games/uno.md),
on hands set by hand; the RLCard side of each difference is in test_rules.py."""
from __future__ import annotations

import pytest

from service.games.engine import legal_actions
from service.games.kernel.model import DealRound, RuleViolation, ScoreRound
from service.games.registry import preset_defaults
from service.games.shedding.commands import Draw, Pass, Play
from service.games.uno.rules import hand_points
from tests.unit.uno.helpers import T0, act, started, with_hands


def uno(players: int = 2, **overrides):
    return started(players, preset="uno", **overrides)


def _cards(acts):
    return sorted({a.get("card") or a["type"] for a in acts})


def test_the_presets_differ_in_exactly_the_documented_options():
    rl, pub = preset_defaults("uno-rlcard"), preset_defaults("uno")
    assert {k for k in rl if rl[k] != pub[k]} == {"drawn_card", "wild_draw_4", "uno_call", "match_end_mode"}
    assert (pub["drawn_card"], pub["wild_draw_4"], pub["uno_call"], pub["match_end_mode"], pub["target_points"]) == \
        ("play_or_keep", "only_without_colour", True, "target_points", 500)


def test_a_wild_draw_four_only_without_a_card_of_the_colour_in_play():
    # a matching number of another colour does not forbid it (RLCard's would)
    m = with_hands(uno(), {0: ("wild_draw_4:0", "B-3:0", "G-7:0"), 1: ("G-1:0",)}, "R-3:0", "R")
    assert _cards(legal_actions(m, 0, T0)) == ["B-3:0", "wild_draw_4:0"]
    m = with_hands(uno(), {0: ("wild_draw_4:0", "R-9:0", "G-7:0"), 1: ("G-1:0",)}, "R-3:0", "R")
    assert _cards(legal_actions(m, 0, T0)) == ["R-9:0"]
    with pytest.raises(RuleViolation):
        act(m, Play(0, "wild_draw_4:0", "G"))


def test_a_drawn_card_that_follows_may_be_kept():
    m = with_hands(uno(), {0: ("B-7:0", "G-2:0", "G-4:0"), 1: ("G-1:0", "G-2:1")}, "R-3:0", "R",
                   stock=("R-8:0", "Y-9:0"))
    m, events = act(m, Draw(0))
    assert not any(e.type == "CardPlayed" for e in events)
    assert m.rnd.current == 0 and m.rnd.drawn == "R-8:0"
    assert legal_actions(m, 0, T0) == [{"type": "play", "card": "R-8:0"}, {"type": "pass"}]
    with pytest.raises(RuleViolation):
        act(m, Draw(0))
    kept, events = act(m, Pass(0))
    assert [e.type for e in events][:2] == ["CardKept", "TurnStarted"]
    assert kept.rnd.current == 1 and "R-8:0" in kept.rnd.hands[0] and kept.rnd.drawn is None


def test_a_drawn_card_that_follows_may_be_played_and_acts_in_full():
    m = with_hands(uno(), {0: ("B-7:0", "G-2:0", "G-4:0"), 1: ("G-1:0", "G-2:1")}, "R-3:0", "R",
                   stock=("wild_draw_4:1", "Y-9:0", "Y-8:0", "Y-7:0", "Y-6:0"))
    m, _ = act(m, Draw(0))
    assert {a.get("called_suit") for a in legal_actions(m, 0, T0) if a["type"] == "play"} == {"R", "G", "B", "Y"}
    m, _ = act(m, Play(0, "wild_draw_4:1", "G"))
    assert len(m.rnd.hands[1]) == 6 and m.rnd.current == 0 and m.rnd.color == "G"  # +4, and skipped


def test_a_drawn_card_that_does_not_follow_ends_the_turn_and_pass_is_refused_without_a_draw():
    m = with_hands(uno(), {0: ("B-7:0", "G-2:0"), 1: ("G-1:0", "G-2:1")}, "R-3:0", "R", stock=("Y-8:0",))
    with pytest.raises(RuleViolation):
        act(m, Pass(0))
    m, _ = act(m, Draw(0))
    assert m.rnd.current == 1 and m.rnd.drawn is None


def test_uno_is_called_on_the_next_to_last_card_and_an_uncalled_one_is_caught():
    m = with_hands(uno(), {0: ("R-5:0", "B-7:0"), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R")
    assert {"type": "play", "card": "R-5:0", "announce": True} in legal_actions(m, 0, T0)
    m, _ = act(m, Play(0, "R-5:0"))
    assert {"type": "challenge", "target": 0} in legal_actions(m, 1, T0)


def test_the_hands_winner_scores_the_cards_left_and_the_match_goes_on_to_the_target():
    assert hand_points(("R-7:0", "G-skip:0", "wild:0", "Y-0:0", "wild_draw_4:0")) == 7 + 20 + 50 + 0 + 50
    m = with_hands(uno(3), {0: ("R-5:0",), 1: ("G-9:0", "Y-draw_2:0"), 2: ("wild:1",)}, "R-3:0", "R")
    m, _ = act(m, Play(0, "R-5:0"))
    m, events = act(m, ScoreRound(m.round_no))
    scored = next(e for e in events if e.type == "RoundScored")
    assert scored.data["points"] == {"0": 79, "1": 0, "2": 0} and scored.data["intermission_deadline"] is not None
    assert m.status == "running" and m.rnd.phase == "intermission"
    m, events = act(m, DealRound(2), at=scored.data["intermission_deadline"])
    assert m.round_no == 2 and m.rnd.phase == "play" and m.seats[0].total == 79
    started_ = next(e for e in events if e.type == "RoundStarted")
    assert started_.data["dealer"] == 0  # the next seat deals (begins: seat 1, unless the starter says otherwise)


def test_the_match_ends_when_a_seat_reaches_the_target():
    m = with_hands(uno(2, target_points=50), {0: ("R-5:0",), 1: ("wild:1",)}, "R-3:0", "R")
    m, _ = act(m, Play(0, "R-5:0"))
    m, events = act(m, ScoreRound(m.round_no))
    assert [e.type for e in events][-2:] == ["MatchEnded", "SeedsRevealed"]
    ended = next(e for e in events if e.type == "MatchEnded")
    assert ended.data["reason"] == "target_reached" and ended.data["winner"] == 0
