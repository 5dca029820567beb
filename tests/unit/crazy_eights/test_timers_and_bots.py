"""Crazy Eights turn timers (§2.7 defaults), absence, and the bots' choices."""
from __future__ import annotations

import random

import pytest

from service.games.crazy_eights.bots import easy, medium
from service.games.engine import legal_actions, outcome, pending_work, seat_view
from service.games.kernel.model import Context, FireTimer, RuleViolation, ScoreRound
from service.games.shedding.commands import Draw, Pass, Play
from tests.unit.crazy_eights.helpers import T0, run, seeds, started, table

STOCK = ["3C:0", "4C:0", "5C:0", "6C:0", "7C:0"]


def test_a_turn_timer_fires_at_its_deadline_and_plays_the_default():
    m = table(started(3, turn_timeout_s=10), {0: ["5H:0", "KH:0", "8S:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0",
              STOCK, deadline=T0 + 10_000)
    timer = next(d for d in pending_work(m) if d.kind == "timer")
    assert timer.due_at == T0 + 10_000
    with pytest.raises(RuleViolation) as e:
        run(m, FireTimer(timer.key), at=T0 + 9_999)
    assert e.value.code == "nothing_to_do"
    d = run(m, FireTimer(timer.key), at=T0 + 10_000)
    out = [(e.type, e.data.get("card"), e.data.get("auto")) for e in d.events[:2]]
    assert out == [("TimedOut", None, None), ("CardPlayed", "KH:0", True)]  # the costliest card, not the eight
    assert d.state.rnd.current == 1 and d.state.seats[0].timeouts == 1
    with pytest.raises(RuleViolation):  # the timer of a closed turn does nothing
        run(d.state, FireTimer(timer.key), at=T0 + 20_000)


def test_a_timed_out_seat_that_cannot_play_draws_to_the_limit_and_passes():
    m = table(started(3, turn_timeout_s=10, max_draw_cards=2), {0: ["KD:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0",
              ["3C:0", "4C:0", "5C:0"], deadline=T0 + 10_000)
    d = run(m, FireTimer(f"turn-1-{m.rnd.turn_id}"), at=T0 + 10_000)
    timed = d.events[0]
    assert timed.type == "TimedOut" and timed.data["chain"] == [{"type": "draw"}, {"type": "draw"}, {"type": "pass"}]
    assert d.state.rnd.current == 1 and len(d.state.rnd.hands[0]) == 3


def test_three_timeouts_mark_a_seat_absent_and_it_then_plays_at_once():
    m = started(2, turn_timeout_s=10, max_consecutive_timeouts=1)
    seat = m.rnd.current
    d = run(m, FireTimer(f"turn-1-{m.rnd.turn_id}"), at=m.rnd.deadline)
    assert d.state.seats[seat].absent
    assert any(w.kind == "timer" and w.key.startswith("absent-") for w in pending_work(d.state))


@pytest.mark.parametrize("bot", [easy.choose, medium.choose])
def test_bots_always_choose_a_legal_action_and_finish_hands(bot):
    for trial in range(30):
        rng = random.Random(trial)
        m = started(2 + trial % 4, tag=f"bot{trial}", use_special_cards=trial % 2 == 0)
        k = 0
        while m.rnd.phase == "play":
            seat = m.rnd.current
            a = bot(seat_view(m, seat, T0), rng)
            assert a in legal_actions(m, seat, T0)
            cmd = (Play(seat, a["card"], a.get("called_suit")) if a["type"] == "play"
                   else Draw(seat) if a["type"] == "draw" else Pass(seat))
            k += 1
            m = outcome(m, cmd, Context(T0, seeds(f"bot{trial}/{k}"))).state
        m = run(m, ScoreRound(1)).state
        assert m.status == "finished"


def test_medium_sheds_its_costliest_card_and_keeps_its_eight():
    m = table(started(3), {0: ["5H:0", "KH:0", "8S:0", "2S:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0", STOCK)
    assert medium.choose(seat_view(m, 0, T0), random.Random(1)) == {"type": "play", "card": "KH:0"}
    m = table(started(3), {0: ["8S:0", "2S:0", "3S:0", "KD:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0", STOCK)
    assert medium.choose(seat_view(m, 0, T0), random.Random(1)) == {"type": "play", "card": "8S:0", "called_suit": "S"}
