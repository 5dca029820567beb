"""UNO's call and catch (``uno_call``, kernel/catch.py): a next-to-last card played without the call
is caught for two by any seat of the hand before the next player begins; a called one is not; off,
the call and the catch are refused."""
from __future__ import annotations

import random

import pytest

from service.games import registry
from service.games.engine import legal_actions, outcome, pending_work
from service.games.kernel.catch import Challenge
from service.games.kernel.codes import KernelCode
from service.games.kernel.due import Kind
from service.games.kernel.model import Context, FireTimer, RuleViolation, ScoreRound
from service.games.shedding.commands import Play
from tests.unit.uno.helpers import T0, act, seeds, started, with_hands

HANDS = {0: ("R-5:0", "B-1:0"), 1: ("G-1:0", "G-2:0", "R-7:0"), 2: ("Y-1:0", "Y-2:0")}


def _table(call: bool = True):
    return with_hands(started(3, uno_call=call), dict(HANDS), "R-3:0", "R")


def test_the_call_is_offered_with_the_next_to_last_card():
    acts = legal_actions(_table(), 0, T0)
    assert {"type": "play", "card": "R-5:0", "announce": True} in acts
    assert {"type": "play", "card": "R-5:0"} in acts
    assert all("announce" not in a for a in legal_actions(_table(call=False), 0, T0))


def test_an_uncalled_last_card_is_caught_for_two_before_the_next_player_begins():
    m, _ = act(_table(), Play(0, "R-5:0"))
    assert m.rnd.window is not None and not m.rnd.window.satisfied
    assert {"type": "challenge", "target": 0} in legal_actions(m, 2, T0)  # not seat 2's turn: it may catch
    m, events = act(m, Challenge(2, 0))
    made = next(e for e in events if e.type == "ChallengeMade")
    assert made.data == {"challenger": 2, "target": 0, "outcome": "caught", "penalty": 2}
    drawn = next(e for e in events if e.type == "CardDrawn")
    assert drawn.data["reason"] == "missed_announcement" and len(m.rnd.hands[0]) == 3
    assert m.rnd.window is None and m.rnd.current == 1


def test_a_called_last_card_is_a_wrong_catch_that_costs_nothing():
    m, _ = act(_table(), Play(0, "R-5:0", announce=True))
    m, events = act(m, Challenge(1, 0))
    assert [e.data["outcome"] for e in events if e.type == "ChallengeMade"] == ["wrong"]
    assert not any(e.type == "CardDrawn" for e in events) and len(m.rnd.hands[1]) == 3
    with pytest.raises(RuleViolation) as again:
        act(m, Challenge(1, 0))
    assert again.value.code == KernelCode.ALREADY_CHALLENGED


def test_the_window_closes_when_the_next_player_begins():
    m, _ = act(_table(), Play(0, "R-5:0"))
    m, _ = act(m, Play(1, "R-7:0"))
    assert m.rnd.window is None
    with pytest.raises(RuleViolation) as late:
        act(m, Challenge(2, 0))
    assert late.value.code == KernelCode.WINDOW_CLOSED


def test_without_uno_call_the_call_and_the_catch_are_refused():
    with pytest.raises(RuleViolation) as call:
        act(_table(call=False), Play(0, "R-5:0", announce=True))
    m, _ = act(_table(call=False), Play(0, "R-5:0"))
    assert m.rnd.window is None
    with pytest.raises(RuleViolation) as catch:
        act(m, Challenge(2, 0))
    assert call.value.code == catch.value.code == KernelCode.INVALID_ACTION


def test_the_call_comes_only_with_the_next_to_last_card():
    m = with_hands(started(3, uno_call=True), {0: ("R-5:0", "B-1:0", "B-2:0"), 1: HANDS[1], 2: HANDS[2]}, "R-3:0", "R")
    with pytest.raises(RuleViolation):
        act(m, Play(0, "R-5:0", announce=True))


def _bots_play(m, rng):
    """Every due bot move and follow-up in due order (what the dispatcher and the workers do),
    until the match ends; the ChallengeMade events seen."""
    now, k, made = T0, 0, []
    while m.status == "running":
        k += 1
        d = min(pending_work(m), key=lambda d: (d.due_at, d.kind != Kind.BOT))
        now = max(now, d.due_at)
        if d.kind == Kind.BOT:
            game = registry.of(m)
            a = dict(game.bots[m.seats[d.seat].strength or "easy"](game.seat_view(m, d.seat, now), rng))
            cmd = registry.SEAT_ACTIONS[a.pop("type")](seat=d.seat, **a)
        else:
            cmd = ScoreRound(int(d.key)) if d.kind == Kind.SCORE else FireTimer(d.key)
        out = outcome(m, cmd, Context(now, seeds(f"bots/{k}")))
        made += [e.data for e in out.events if e.type == "ChallengeMade"]
        m = out.state
    return m, made


def test_bots_call_and_catch():
    caught = 0
    for i in range(12):
        m = started(3, tag=f"b{i}", bots=("easy", "easy", "medium"), uno_call=True, cards_dealt=3)
        m, made = _bots_play(m, random.Random(i))
        assert m.status == "finished"
        assert all(x["outcome"] == "caught" for x in made)  # a bot never catches a seat that called
        caught += len(made)
    assert caught > 0  # the easy bots forget the call now and then, and are caught
