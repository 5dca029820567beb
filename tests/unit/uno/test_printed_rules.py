"""The ``uno`` preset as printed, from rules version 4 (docs/games/uno.md, issue 42 item 9): a draw two
or wild draw four that goes out still makes the next player draw and those cards are scored; a
reshuffle keeps the top card on the table; 2-10 seats. Each case also shows what does not change:
``uno-rlcard`` (RLCard's, for the differential) and ``uno`` histories of rules version 3."""
from __future__ import annotations

import random

import pytest

from service.games.engine import legal_actions
from service.games.kernel.model import RuleViolation, ScoreRound
from service.games.kernel.options import OptionError
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Pass, Play
from service.games.uno.options import catalogue
from service.games.uno.rules import hand_points
from tests.unit.uno.helpers import T0, act, started, with_hands

HANDS = {0: ("Y-draw_2:0",), 1: ("G-9:0", "R-1:0"), 2: ("B-5:0",)}
STOCK = ("R-7:0", "wild:1", "Y-3:0", "G-skip:0", "B-8:0")


def _out_on(card: str, preset: str = "uno", version: int = 4, **called):
    m = started(3, preset=preset, rules_version=version)
    m = with_hands(m, {**HANDS, 0: (card,)}, "Y-4:0", "Y", stock=STOCK)
    return act(m, Play(0, card, called.get("color")))


def test_a_draw_two_that_goes_out_still_makes_the_next_player_draw_and_is_scored():
    m, events = _out_on("Y-draw_2:0")
    types = [e.type for e in events]
    assert types[:4] == ["CardPlayed", "CardDrawn", "RoundEnded", "HandsRevealed"]
    drawn = events[1]
    assert drawn.data == {"seat": 1, "count": 2, "reason": "penalty", "hand_size": 4}
    assert m.rnd.hands[1] == ("G-9:0", "R-1:0", "R-7:0", "wild:1")
    m, events = act(m, ScoreRound(m.round_no))
    scored = next(e for e in events if e.type == "RoundScored")
    assert scored.data["points"]["0"] == hand_points(("G-9:0", "R-1:0", "R-7:0", "wild:1", "B-5:0")) == 72


def test_a_wild_draw_four_that_goes_out_makes_the_next_player_in_play_draw_four():
    m = started(3, preset="uno")
    m = with_hands(m, {**HANDS, 0: ("wild_draw_4:0",)}, "Y-4:0", "Y", stock=STOCK, direction=-1)
    m, events = act(m, Play(0, "wild_draw_4:0", "G"))
    assert [e.type for e in events][:3] == ["CardPlayed", "CardDrawn", "RoundEnded"]
    assert events[1].data["seat"] == 2 and events[1].data["count"] == 4  # play goes the other way
    assert len(m.rnd.hands[2]) == 5


@pytest.mark.parametrize(("preset", "version"), [("uno-rlcard", 4), ("uno", 3)])
def test_going_out_on_a_draw_two_draws_nothing_for_rlcard_and_for_older_uno_histories(preset, version):
    m, events = _out_on("Y-draw_2:0", preset, version)
    assert [e.type for e in events][:2] == ["CardPlayed", "RoundEnded"]
    assert m.rnd.hands[1] == HANDS[1]


def _reshuffled(preset: str = "uno", version: int = 4):
    """Seat 0 has nothing to play on Y-4 with an empty stock: the draw reshuffles the played cards."""
    m = started(3, preset=preset, rules_version=version)
    m = with_hands(m, {0: ("R-9:0", "G-8:1"), 1: ("G-9:0",), 2: ("B-5:0",)}, "Y-4:0", "Y", stock=(),
                   discard=("Y-1:0", "Y-2:0", "Y-3:0", "Y-4:0"))
    return act(m, Draw(0))


def test_a_reshuffle_keeps_the_top_card_on_the_table():
    m, events = _reshuffled()
    shuffled = next(e for e in events if e.type == "StockReshuffled")
    assert shuffled.data == {"count": 3, "kept": "Y-4:0"}
    order = next(e for e in events if e.type == "ShuffleCommitted").secret["order"]
    assert sorted(order) == ["Y-1:0", "Y-2:0", "Y-3:0"]  # the card to match is not in the new stock
    assert m.rnd.discard == ("Y-4:0",) and m.rnd.target == "Y-4:0"
    assert "Y-4:0" not in m.rnd.stock and all("Y-4:0" not in h for h in m.rnd.hands.values())


@pytest.mark.parametrize(("preset", "version"), [("uno-rlcard", 4), ("uno", 3)])
def test_rlcard_and_older_uno_histories_reshuffle_the_top_card_too(preset, version):
    _m, events = _reshuffled(preset, version)
    assert next(e for e in events if e.type == "StockReshuffled").data == {"count": 4}
    order = next(e for e in events if e.type == "ShuffleCommitted").secret["order"]
    assert "Y-4:0" in order


def test_with_only_the_top_card_played_there_is_nothing_to_reshuffle():
    m = started(3, preset="uno")
    m = with_hands(m, {0: ("R-9:0",), 1: ("G-9:0",), 2: ("B-5:0",)}, "Y-4:0", "Y", stock=())
    m, events = act(m, Draw(0))
    assert [e.type for e in events][:2] == ["DrawShortfall", "TurnStarted"]
    assert m.rnd.discard == ("Y-4:0",)


def test_uno_seats_two_to_ten_and_uno_rlcard_two_to_four():
    opts, _ = resolve_options("uno", {"bot_seats": 9}, 10)
    assert opts["max_players"] == 10 and opts["bot_seats"] == 9
    for preset, seats, bots in (("uno", 11, 0), ("uno", 10, 10), ("uno-rlcard", 5, 0), ("uno-rlcard", 4, 4)):
        with pytest.raises(OptionError):
            resolve_options(preset, {"bot_seats": bots} if bots else {}, seats)
    entry = {e["name"]: e for e in catalogue()}
    ranges = {p: (entry[p]["min_players"], entry[p]["max_players"],
                  next(o["range"] for o in entry[p]["options"] if o["name"] == "bot_seats")) for p in ("uno", "uno-rlcard")}
    assert ranges == {"uno": (2, 10, [0, 9]), "uno-rlcard": (2, 4, [0, 3])}


def test_ten_seats_play_a_hand_to_its_end():
    m = started(10, preset="uno", tag="ten", uno_call=False)
    assert len(m.rnd.seats) == 10 and all(len(m.rnd.hands[s]) >= 7 for s in range(10))
    rng = random.Random(10)
    for _ in range(3000):
        if m.rnd.phase != "play":
            break
        seat = m.rnd.current
        a = rng.choice(legal_actions(m, seat, T0))
        cmd = Play(seat, a["card"], a.get("called_suit")) if a["type"] == "play" else \
            Pass(seat) if a["type"] == "pass" else Draw(seat)
        m, _ = act(m, cmd, tag=f"ten/{m.version}")
    assert m.rnd.phase == "scoring" and m.rnd.winner is not None
    with pytest.raises(RuleViolation):
        act(m, Draw(m.rnd.winner))
