"""UNO's rules at their corners (RLCard 1.2's round.py; docs/games/uno.md), on hands set by hand."""
from __future__ import annotations

import pytest

from service.games.engine import legal_actions
from service.games.kernel.model import RuleViolation
from service.games.shedding.commands import Draw, Play
from tests.unit.uno.helpers import T0, act, started, with_hands


def _types(acts):
    return sorted((a["type"], a.get("card"), a.get("called_suit")) for a in acts)


def test_a_wild_draw_four_only_when_nothing_else_is_playable_and_draw_only_then():
    m = with_hands(started(2), {0: ("wild_draw_4:0", "R-5:0", "B-7:0"), 1: ("G-1:0",)}, "R-3:0", "R")
    assert _types(legal_actions(m, 0, T0)) == [("play", "R-5:0", None)]
    m = with_hands(started(2), {0: ("wild_draw_4:0", "B-7:0"), 1: ("G-1:0",)}, "R-3:0", "R")
    assert {a["card"] for a in legal_actions(m, 0, T0)} == {"wild_draw_4:0"}
    m = with_hands(started(2), {0: ("B-7:0",), 1: ("G-1:0",)}, "R-3:0", "R")
    assert legal_actions(m, 0, T0) == [{"type": "draw"}]
    with pytest.raises(RuleViolation):
        act(with_hands(started(2), {0: ("R-7:0", "B-1:0"), 1: ("G-1:0",)}, "R-3:0", "R"), Draw(0))


def test_on_a_wild_only_the_colour_matches():
    m = with_hands(started(2), {0: ("G-5:0", "R-5:0"), 1: ("G-1:0",)}, "wild:0", "R")
    assert _types(legal_actions(m, 0, T0)) == [("play", "R-5:0", None)]


def test_a_drawn_card_of_another_colour_is_kept_even_if_its_number_matches():
    m = with_hands(started(2), {0: ("B-7:0",), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R", stock=("G-3:0", "Y-9:0"))
    m, events = act(m, Draw(0))
    assert "G-3:0" in m.rnd.hands[0] and m.rnd.current == 1
    assert not any(e.type == "CardPlayed" for e in events)


def test_a_drawn_wild_draw_four_is_played_without_its_four():
    m = with_hands(started(2), {0: ("B-7:0",), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R", stock=("wild_draw_4:1", "Y-9:0"))
    m, events = act(m, Draw(0))
    played = next(e for e in events if e.type == "CardPlayed")
    assert played.data["drawn"] and played.data["card"] == "wild_draw_4:1"
    assert len(m.rnd.hands[1]) == 2 and m.rnd.current == 1 and m.rnd.color == played.data["color"]


def test_a_reverse_with_two_players_passes_the_turn_to_the_other():
    m = with_hands(started(2), {0: ("R-reverse:0", "B-1:0"), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R")
    m, _ = act(m, Play(0, "R-reverse:0"))
    assert m.rnd.current == 1 and m.rnd.direction == -1


def test_the_reshuffle_takes_every_played_card_and_the_target_stays():
    m = with_hands(started(2), {0: ("B-7:0",), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R", stock=(),
                   discard=("Y-1:0", "R-3:0"))
    m, events = act(m, Draw(0))
    assert [e.type for e in events][:2] == ["StockReshuffled", "ShuffleCommitted"]
    assert m.rnd.target == "R-3:0" and m.rnd.discard in ((), ("R-3:0",))


def test_where_rlcard_raises_the_draw_falls_short_and_the_turn_passes():
    m = with_hands(started(2), {0: ("B-7:0",), 1: ("G-1:0", "G-2:0")}, "R-3:0", "R", stock=(), discard=())
    m, events = act(m, Draw(0))
    assert [e.type for e in events] == ["DrawShortfall", "TurnStarted"] and m.rnd.current == 1
    m = with_hands(started(2), {0: ("R-draw_2:0", "B-1:0"), 1: ("G-1:0",)}, "R-3:0", "R", stock=(), discard=())
    m, events = act(m, Play(0, "R-draw_2:0"))  # the draw two itself is reshuffled: one card of two
    short = next(e for e in events if e.type == "DrawShortfall")
    assert short.data == {"seat": 1, "missing": 1} and m.rnd.current == 0 and len(m.rnd.hands[1]) == 2
