"""Crazy Eights rules (OpenSpiel's crazy_eights.cc) case by case, through the event engine."""
from __future__ import annotations

import pytest

from service.games.crazy_eights.flow import DECK
from service.games.crazy_eights.rules import penalty
from service.games.engine import legal_actions, outcome, private_view, public_view
from service.games.kernel.model import Context, CreateMatch, JoinSeat, RuleViolation, ScoreRound, StartMatch
from service.games.kernel.state import rep
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Pass, Play
from tests.unit.crazy_eights.helpers import T0, run, seeds, started, table, types

STOCK = ["3C:0", "4C:0", "5C:0", "6C:0", "7C:0"]


def test_the_deal_gives_five_cards_each_and_seven_to_two_players():
    for n, k in ((2, 7), (3, 5), (5, 5)):
        m = started(n, tag=f"deal{n}")
        assert all(len(m.rnd.hands[s]) == k for s in range(n))
        assert len(m.rnd.stock) == 52 - n * k - 1
        assert m.rnd.discard[-1][0] != "8"


def _start(tag: str, players: int):
    """The events of StartMatch (the deal) and the dealt match."""
    opts, _ = resolve_options("crazy-eights", {}, 5)
    s = outcome(None, CreateMatch(tag, "crazy-eights", opts, 5, rules_version=2), Context(T0, seeds(tag))).state
    for i in range(players):
        s = outcome(s, JoinSeat(f"p{i}"), Context(T0, ())).state
    d = outcome(s, StartMatch(), Context(T0, seeds(tag + "/start")))
    return list(d.events), d.state


def test_the_first_card_goes_to_the_dealers_left_and_the_dealer_gets_the_last():
    events, m = _start("order", 3)
    d = m.dealer
    order = next(e for e in events if e.type == "ShuffleCommitted").secret["order"]
    assert sorted(order) == sorted(DECK)
    assert order[0] in m.rnd.hands[(d + 1) % 3] and order[1] in m.rnd.hands[(d + 2) % 3]
    assert order[14] in m.rnd.hands[d]
    assert m.rnd.current == (d + 1) % 3


def test_a_turned_up_eight_goes_back_into_the_stock():
    found = 0
    for i in range(200):
        events, m = _start(f"eight{i}", 2)
        returned = [e for e in events if e.type == "StarterReturned"]
        if returned:
            found += 1
            card = returned[0].data["card"]
            assert card[0] == "8"
            assert card in m.rnd.stock  # back in the stock, not under the starter
            assert m.rnd.discard[-1][0] != "8" and len(m.rnd.discard) == 1
            assert len(m.rnd.stock) == 52 - 14 - 1
    assert found  # 4 eights in 52: some of 200 deals turn one up


def test_follow_suit_or_rank_and_eights_are_wild_naming_a_suit():
    m = table(started(3), {0: ["5H:0", "9C:0", "8S:0", "KD:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0", STOCK)
    acts = types(m, 0)
    assert ("play", "5H:0", None) in acts and ("play", "9C:0", None) in acts
    assert ("play", "KD:0", None) not in acts
    assert [a for a in acts if a[1] == "8S:0"] == [("play", "8S:0", s) for s in "CDHS"]
    assert ("draw", None, None) in acts and ("pass", None, None) not in acts
    d = run(m, Play(0, "8S:0", "D"))
    assert [e.type for e in d.events][:2] == ["CardPlayed", "SuitCalled"]
    assert d.state.rnd.suit == "D" and d.state.rnd.current == 1
    assert public_view(d.state, T0)["table"]["called_suit"] == "D"


def test_refusals_name_a_stable_code_and_change_nothing():
    m = table(started(3), {0: ["5H:0", "8S:0", "KD:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0", STOCK)
    cases = [(Play(1, "2C:0"), "not_your_turn"), (Play(0, "KD:0"), "illegal_card"),
             (Play(0, "AS:0"), "card_not_in_hand"), (Play(0, "8S:0"), "must_choose_suit"),
             (Play(0, "8S:0", "X"), "invalid_suit"), (Play(0, "5H:0", "C"), "invalid_suit"),
             (Pass(0), "illegal_action"), (Draw(0, announce=True), "invalid_action")]
    for cmd, code in cases:
        with pytest.raises(RuleViolation) as e:
            run(m, cmd)
        assert e.value.code == code, cmd


def test_a_player_may_draw_up_to_the_limit_even_holding_a_playable_card_then_pass():
    m = table(started(3, max_draw_cards=2), {0: ["5H:0"], 1: ["2C:0"], 2: ["2D:0"]}, "9H:0", STOCK)
    m = run(m, Draw(0)).state
    assert m.rnd.current == 0 and ("pass", None, None) not in types(m, 0)
    m = run(m, Draw(0)).state
    acts = types(m, 0)
    assert ("draw", None, None) not in acts and ("pass", None, None) in acts and ("play", "5H:0", None) in acts
    m2 = run(m, Pass(0)).state
    assert m2.rnd.current == 1 and m2.rnd.drawn == 0
    m3 = run(m, Play(0, "5H:0")).state  # after a play no more draws: the turn moves on
    assert m3.rnd.current == 1


def test_an_empty_stock_allows_pass_and_players_plus_one_passes_end_the_hand():
    m = table(started(2), {0: ["5C:0", "KD:0"], 1: ["2C:0", "3D:0"]}, "9H:0", [])
    assert types(m, 0) == [("pass", None, None)]
    d = None
    for _k in range(3):
        d = run(m, Pass(m.rnd.current))
        m = d.state
    assert m.rnd.phase == "scoring" and m.rnd.end_reason == "blocked"
    assert "HandsRevealed" in [e.type for e in d.events]
    m = run(m, ScoreRound(1)).state
    assert m.status == "finished"
    assert dict(m.scores[0].points) == {0: -15, 1: -5}
    assert m.standings[0]["seat"] == 1


def test_special_cards_queen_skips_ace_reverses_two_makes_the_next_draw_two():
    base = started(4, use_special_cards=True)
    hands = {0: ["QH:0", "AH:0", "2H:0", "5S:0"], 1: ["3C:0", "2S:0"], 2: ["4C:0"], 3: ["6D:0"]}
    m = table(base, hands, "9H:0", STOCK)
    assert run(m, Play(0, "QH:0")).state.rnd.current == 2
    r = run(m, Play(0, "AH:0")).state
    assert r.rnd.current == 3 and r.rnd.direction == -1
    t = run(m, Play(0, "2H:0")).state
    assert t.rnd.current == 1 and t.rnd.owed == 2
    # seat 1 owes two: it may answer with a two (stacking) or draw them all, never another card
    assert types(t, 1) == [("play", "2S:0", None), ("draw", None, None)]
    s = run(t, Play(1, "2S:0")).state
    assert s.rnd.current == 2 and s.rnd.owed == 4
    d = run(s, Draw(2))
    drawn = [e for e in d.events if e.type == "CardDrawn"]
    assert [e.data["count"] for e in drawn] == [4] and d.state.rnd.current == 3 and d.state.rnd.owed == 0
    assert len(d.state.rnd.hands[2]) == 5


def test_without_special_cards_queens_aces_and_twos_are_plain():
    m = table(started(3), {0: ["QH:0", "5S:0"], 1: ["3C:0"], 2: ["4C:0"]}, "9H:0", STOCK)
    assert run(m, Play(0, "QH:0")).state.rnd.current == 1


def test_the_max_turns_th_play_ends_the_hand_and_an_eight_then_names_nothing():
    m = table(started(2, max_turns=5), {0: ["8S:0", "5S:0"], 1: ["3C:0"]}, "9H:0", STOCK, plays=4)
    assert [a for a in types(m, 0) if a[1] == "8S:0"] == [("play", "8S:0", None)]
    end = run(m, Play(0, "8S:0")).state
    assert end.rnd.phase == "scoring" and end.rnd.end_reason == "max_turns"


def test_the_last_card_wins_and_scores_face_value_for_the_rest():
    m = table(started(3), {0: ["5H:0"], 1: ["8C:0", "KD:0", "10S:0", "2H:0"], 2: ["4C:0"]}, "9H:0", STOCK)
    end = run(m, Play(0, "5H:0")).state
    assert end.rnd.end_reason == "hand_empty" and end.rnd.winner == 0
    done = run(end, ScoreRound(1)).state
    assert dict(done.scores[0].points) == {0: 0, 1: -(50 + 10 + 10 + 2), 2: -4}
    assert penalty(["8C:0", "KD:0", "10S:0", "2H:0"]) == 72
    assert done.standings[0]["seat"] == 0 and done.standings[0]["rank"] == 1


def test_reshuffle_turns_the_discard_into_the_stock_when_it_runs_out():
    m = table(started(3, reshuffle=True), {0: ["5H:0", "6H:0"], 1: ["3C:0"], 2: ["4C:0"]}, "9H:0", ["KS:0"])
    m = rep(m, rnd=rep(m.rnd, discard=("2H:0", "3H:0", "9H:0")))
    d = run(m, Draw(0))
    assert [e.type for e in d.events][:3] == ["CardDrawn", "StockReshuffled", "ShuffleCommitted"]
    assert sorted(d.state.rnd.stock) == ["2H:0", "3H:0"] and d.state.rnd.discard == ("9H:0",)


def test_joining_after_the_deal_and_a_hard_bot_are_refused():
    m = started(2)
    with pytest.raises(RuleViolation) as e:
        run(m, JoinSeat("late"))
    assert e.value.code == "joining_closed"
    opts, _ = resolve_options("crazy-eights", {}, 5)
    s = outcome(None, CreateMatch("h", "crazy-eights", opts, 5, rules_version=2), Context(T0, (b"x" * 32,))).state
    with pytest.raises(RuleViolation) as e:
        outcome(s, JoinSeat("b", "bot", "hard"), Context(T0, ()))
    assert e.value.code == "invalid_option"


def test_the_public_view_shows_counts_never_cards_and_the_seat_sees_its_own():
    m = started(3)
    pub = public_view(m, T0)
    text = str(pub)
    for s in range(3):
        assert all(c not in text for c in m.rnd.hands[s] if c != m.rnd.discard[-1])
    assert [s["hand_count"] for s in pub["seats"]] == [5, 5, 5]
    assert pub["table"]["stock_count"] == len(m.rnd.stock) and pub["turn"]["seat"] == m.rnd.current
    you = private_view(m, m.rnd.current, T0)
    assert sorted(you["hand"]) == sorted(m.rnd.hands[m.rnd.current])
    assert you["legal_actions"] == legal_actions(m, m.rnd.current, T0)
