"""RULES §5.10 edge cases P-1 … P-27 (those that concern the engine)."""
import pytest

from service.api.codes import status_of
from service.games.engine import decide, legal_actions, pending_work
from service.games.kernel.model import DealRound, JoinSeat, LeaveSeat, RuleViolation, ScoreRound, StartMatch
from service.games.shedding.cards import RANK
from service.games.shedding.commands import AcceptSkip, Announce, Draw, Pass, Play, TakePenalty

from .helpers import Game, crafted


def types(evs):
    return [e.type for e in evs]


def refused(g, cmd, code, status):
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx())
    assert (exc.value.code, status_of(exc.value.code)) == (code, status)
    return exc.value


def two(hands, starter="5H:0", **kw):
    return crafted(2, hands, starter, **kw)


def test_p01_special_starter_is_covered():
    special = {"7", "8", "9", "J", "A"}
    for i in range(200):
        g = Game(3, seed=f"p1-{i}")
        evs = g.start()
        covers = [e for e in evs if e.type == "StarterCovered"]
        if covers:
            break
    assert covers, "no seed produced a special starter"
    first = next(e for e in evs if e.type == "StarterTurned").data["card"]
    assert RANK[first] in special and covers[0].data["covered"] == first
    assert all(RANK[c.data["covered"]] in special for c in covers)
    top = g.m.rnd.discard[-1]
    assert RANK[top] not in special and top == covers[-1].data["card"]
    assert g.m.rnd.pending_draw == 0 and not g.m.rnd.pending_skip and not g.m.rnd.top_live


def test_p02_nine_two_players_no_effect():
    g = two([["9H:0", "2C:0", "3C:0"], ["4D:0", "4S:0"]])
    evs = g.do(Play(0, "9H"))
    assert types(evs) == ["CardPlayed", "DirectionReversed", "TurnStarted"]
    assert evs[-1].data["seat"] == 1


def test_p03_nine_three_players_previous_moves_next():
    g = crafted(3, [["9H:0", "2C:0", "3C:0"], ["4H:0", "4S:0"], ["6H:0", "6S:0"]], "5H:0")
    g.do(Play(0, "9H"))
    assert g.m.rnd.current == 2 and g.m.rnd.direction == -1
    g.do(Play(2, "6H"))
    assert g.m.rnd.current == 1  # the direction persists for the round


def test_p04_eight_two_players_same_player_new_turn():
    g = two([["8H:0", "2C:0", "3C:0"], ["4D:0", "4S:0"]])
    evs = g.do(Play(0, "8H"))
    assert types(evs) == ["CardPlayed", "TurnSkipped", "TurnStarted"]
    assert evs[-1].data == {"seat": 0, "turn_id": 2, "phase": "play", "deadline": g.now + 45_000}


def test_p05_ace_as_last_card_wins():
    g = two([["AH:0"], ["4D:0", "4S:0"]])
    evs = g.do(Play(0, "AH"))
    assert types(evs)[-1] == "RoundEnded" and evs[-1].data["winner"] == 0
    assert g.m.rnd.phase == "scoring"


def test_p06_ace_penultimate_without_mau_draws_two_and_does_not_go_out():
    g = two([["AH:0", "5H:1"], ["4D:0", "4S:0"]])
    g.do(Play(0, "AH"))
    assert g.m.rnd.phase == "ace_followup" and g.m.rnd.window.seat == 0
    evs = g.do(Play(0, "5H"))
    assert types(evs)[:3] == ["AnnouncementMissed", "CardDrawn", "CardPlayed"]
    assert evs[1].data["count"] == 2 and len(g.m.rnd.hands[0]) == 2
    assert g.m.rnd.phase == "play" and g.m.rnd.current == 1


@pytest.mark.parametrize("how", ["flag_on_ace", "separate", "flag_on_followup"])
def test_p06_ace_penultimate_with_mau_goes_out(how):
    g = two([["AH:0", "5H:1"], ["4D:0", "4S:0"]])
    g.do(Play(0, "AH", announce=how == "flag_on_ace"))
    if how == "separate":
        assert {"type": "announce"} in legal_actions(g.m, 0, g.now)
        g.do(Announce(0))
    evs = g.do(Play(0, "5H", announce=how == "flag_on_followup"))
    assert "AnnouncementMissed" not in types(evs) and evs[-1].type == "RoundEnded"


def test_p07_ace_without_follow_up_draws_one_and_turn_ends():
    g = two([["AH:0", "5S:0", "6C:0"], ["4D:0", "4S:0"]], stock=["KH:0", "2D:0"])
    g.do(Play(0, "AH"))
    assert legal_actions(g.m, 0, g.now) == [{"type": "draw"}]
    evs = g.do(Draw(0))
    assert types(evs) == ["CardDrawn", "TurnStarted"] and evs[-1].data["seat"] == 1
    assert "KH:0" in g.m.rnd.hands[0]  # drawn KH would fit but may not be played


def test_p08_ace_on_ace_followup_again():
    g = two([["AH:0", "AS:0", "5C:0"], ["4D:0", "4S:0"]])
    g.do(Play(0, "AH"))
    evs = g.do(Play(0, "AS"))
    assert types(evs) == ["CardPlayed"] and g.m.rnd.phase == "ace_followup"


@pytest.mark.parametrize("card,check", [
    ("7H", lambda m: m.rnd.phase == "respond_seven" and m.rnd.pending_draw == 2 and m.rnd.current == 1),
    ("8H", lambda m: m.rnd.current == 0 and m.rnd.turn_id == 2),
    ("9H", lambda m: m.rnd.direction == -1 and m.rnd.current == 1),
    ("JH", lambda m: m.rnd.called_suit == "C" and m.rnd.current == 1),
])
def test_p09_ace_then_effect_card(card, check):
    g = two([["AH:0", f"{card}:0", "5C:0", "6C:0"], ["4D:0", "4S:0"]])
    g.do(Play(0, "AH"))
    g.do(Play(0, card, called_suit="C"))
    assert check(g.m)


def test_p10_ace_blocked_followup_is_a_blocked_pass():
    g = two([["AH:0", "5S:0", "6C:0"], ["4D:0", "4S:0"]], stock=[], reshuffle_discard=False)
    g.do(Play(0, "AH"))
    assert legal_actions(g.m, 0, g.now) == [{"type": "pass"}]
    evs = g.do(Pass(0))
    assert evs[0].type == "TurnPassed" and evs[0].data["blocked"] is True


def test_p11_seven_chain_reshuffles_then_forfeits_shortfall():
    g = two([["7H:0", "7S:0", "2C:0", "3C:0"], ["7C:0", "4D:0", "4S:0"]], stock=["KD:0"],
            announce_grace_ms=0)
    g.do(Play(0, "7H"))
    g.do(Play(1, "7C"))
    g.do(Play(0, "7S"))
    assert g.m.rnd.pending_draw == 6
    evs = g.do(TakePenalty(1))
    assert types(evs) == ["PenaltyTaken", "CardDrawn", "StockReshuffled", "ShuffleCommitted",
                          "CardDrawn", "DrawShortfall", "TurnStarted"]
    assert evs[2].data["count"] == 3 and evs[5].data["missing"] == 2
    assert g.m.rnd.discard == ("7S:0",) and g.m.rnd.pending_draw == 0 and not g.m.rnd.top_live


def test_p12_last_card_seven_next_draws_two():
    g = two([["7H:0"], ["4D:0", "4S:0"]])
    evs = g.do(Play(0, "7H"))
    assert types(evs) == ["CardPlayed", "CardDrawn", "RoundEnded"]
    assert evs[1].seat == 1 and evs[1].data["count"] == 2 and evs[1].data["reason"] == "final_seven"


@pytest.mark.parametrize("amount,expected", [("fixed", 2), ("accumulated", 6)])
def test_p13_final_seven_answering_chain(amount, expected):
    g = crafted(3, [["7H:0", "2C:0"], ["7C:0", "2D:0"], ["7S:0"]], "5H:0", final_seven_amount=amount)
    g.do(Play(0, "7H", announce=True))
    g.do(Play(1, "7C", announce=True))
    evs = g.do(Play(2, "7S"))
    drawn = [e for e in evs if e.type == "CardDrawn"]
    assert drawn[0].seat == 0 and sum(e.data["count"] for e in drawn) == expected
    assert evs[-1].type == "RoundEnded" and evs[-1].data["winner"] == 2


def test_p14_jack_on_pending_seven_illegal():
    g = two([["7H:0", "2C:0", "3C:0"], ["JD:0", "4S:0"]])
    g.do(Play(0, "7H"))
    err = refused(g, Play(1, "JD", called_suit="S"), "illegal_card", 422)
    assert {"type": "take_penalty"} in err.extra["legal_actions"]


def test_p15_jack_on_jack_with_new_call():
    g = two([["JH:0", "2C:0", "3C:0"], ["JD:0", "4S:0", "6S:0"]])
    g.do(Play(0, "JH", called_suit="C"))
    acts = legal_actions(g.m, 1, g.now)
    assert sum(1 for a in acts if a.get("card") == "JD:0") == 4
    evs = g.do(Play(1, "JD", called_suit="H"))
    assert evs[1].type == "SuitCalled" and g.m.rnd.called_suit == "H"


def test_p16_jack_as_last_card_no_call_no_doubling():
    g = two([["JH:0"], ["4D:0", "4S:0"]])
    assert [a for a in legal_actions(g.m, 0, g.now) if a["type"] == "play"] == [{"type": "play", "card": "JH:0"}]
    evs = g.do(Play(0, "JH"))
    assert "SuitCalled" not in types(evs) and evs[-1].type == "RoundEnded"
    evs = g.do(ScoreRound(1))
    assert next(e for e in evs if e.type == "RoundScored").data["points"] == {"0": 0, "1": 8}


def test_p17_draw_in_respond_seven_is_wrong_phase():
    g = two([["7H:0", "2C:0", "3C:0"], ["4D:0", "4S:0"]])
    g.do(Play(0, "7H"))
    refused(g, Draw(1), "wrong_phase", 409)


def test_p18_early_or_repeated_mau_no_effect_no_penalty():
    g = two([["2H:0", "3C:0", "4C:0"], ["4D:0", "4S:0"]])
    evs = g.do(Announce(1))
    assert types(evs) == ["AnnouncementMade"] and evs[0].data["effect"] == "none"
    g.do(Play(0, "2H"))
    evs = g.do(Announce(0))
    assert evs[0].data["effect"] == "none"
    assert len(g.m.rnd.hands[1]) == 2 and len(g.m.rnd.hands[0]) == 2


def _end_round(players, hands, **kw):
    g = crafted(players, hands, "5H:0", **kw)
    g.do(Play(0, hands[0][0]))
    return g


def test_p19_several_eliminated_together_ranked_by_lower_total():
    g = _end_round(3, [["5H:1"], ["KS:0", "KC:0", "QD:0", "QS:0", "QC:0", "10D:0"],
                       ["KS:1", "KC:1", "QH:0", "QS:1", "10S:0", "5D:0"]], penalty_limit=50)
    evs = g.do(ScoreRound(1))
    assert types(evs) == ["HandsRevealed", "RoundScored", "SeatEliminated", "SeatEliminated",
                          "MatchEnded", "SeedsRevealed"]
    assert evs[1].data["intermission_deadline"] is None
    st = evs[4].data["standings"]
    assert [(x["seat"], x["rank"]) for x in st] == [(0, 1), (2, 2), (1, 3)]
    assert evs[4].data["reason"] == "last_standing"


def test_p20_exactly_at_limit_not_eliminated():
    g = _end_round(3, [["5H:1"], ["KS:0", "KC:0", "QD:0", "QS:0", "QC:0"],
                       ["KS:1", "KC:1", "QH:0", "QS:1", "QC:1", "AH:0"]], penalty_limit=50)
    evs = g.do(ScoreRound(1))
    elim = [e.data["seat"] for e in evs if e.type == "SeatEliminated"]
    assert elim == [2] and evs[1].data["totals"]["1"] == 50
    assert evs[1].data["intermission_deadline"] == g.now + 3000


def test_p21_join_mid_round_waits_full_rejected_finished_closed():
    g = Game(2)
    g.start()
    evs = g.do(JoinSeat("late"))
    assert types(evs) == ["SeatWaiting"] and g.m.seats[2].state == "waiting"
    assert legal_actions(g.m, 2, g.now) == []
    g.do(JoinSeat("l2"))
    g.do(JoinSeat("l3"))
    refused(g, JoinSeat("l4"), "game_full", 409)
    g2 = Game(2)
    g2.start()
    g2.do(LeaveSeat(1))
    refused(g2, JoinSeat("x"), "joining_closed", 409)


def test_p22_leaver_facing_pending_seven_cancelled():
    g = crafted(3, [["7H:0", "2C:0", "3C:0"], ["4D:0", "4S:0"], ["6D:0", "6S:0"]], "5H:0")
    g.do(Play(0, "7H"))
    assert g.m.rnd.current == 1 and g.m.rnd.pending_draw == 2
    evs = g.do(LeaveSeat(1))
    assert types(evs) == ["SeatLeft", "ShuffleCommitted", "TurnStarted"]
    assert evs[-1].data == {"seat": 2, "turn_id": 3, "phase": "play", "deadline": g.now + 45_000}
    assert g.m.rnd.pending_draw == 0 and g.m.rnd.stock[-2:] == tuple(evs[1].secret["order"])
    assert set(evs[1].secret["order"]) == {"4D:0", "4S:0"} and "hand" in evs[0].secret


def test_p23_everyone_but_one_leaves_walkover():
    g = crafted(3, [["2C:0", "3C:0"], ["4D:0", "4S:0"], ["6D:0", "6S:0"]], "5H:0")
    g.do(LeaveSeat(1))
    evs = g.do(LeaveSeat(2))
    assert types(evs)[-3:] == ["RoundEnded", "MatchEnded", "SeedsRevealed"]
    assert evs[-2].data["reason"] == "walkover" and evs[-2].data["winner"] == 0
    assert evs[-3].data["reason"] == "abandoned"
    assert [x["seat"] for x in evs[-2].data["standings"]] == [0]


def test_p25_dealing_to_five():
    g = Game(5)
    evs = g.start()
    covers = sum(1 for e in evs if e.type == "StarterCovered")
    assert len(g.m.rnd.stock) == 104 - 35 - 1 - covers
    assert all(len(g.m.rnd.hands[s]) == 7 for s in range(5))


def test_p26_declining_the_ace_follow_up_draws_one():
    """§5.5.7 [SEED-C] (default ace_followup_optional = false): no free pass while holding a follow-up."""
    g = two([["AH:0", "6H:0", "6C:0"], ["4D:0", "4S:0"]])
    g.do(Play(0, "AH"))
    assert {"type": "pass"} not in legal_actions(g.m, 0, g.now)
    assert {"type": "draw"} in legal_actions(g.m, 0, g.now)
    evs = g.do(Draw(0))
    assert types(evs)[:1] == ["CardDrawn"] and "TurnStarted" in types(evs)
    assert len(g.m.rnd.hands[0]) == 3 and g.m.rnd.current == 1


def test_p26_house_rule_ace_pass_while_holding_follow_up():
    g = two([["AH:0", "6H:0", "6C:0"], ["4D:0", "4S:0"]], ace_followup_optional=True)
    g.do(Play(0, "AH"))
    assert {"type": "pass"} in legal_actions(g.m, 0, g.now)
    assert {"type": "draw"} not in legal_actions(g.m, 0, g.now)
    evs = g.do(Pass(0))
    assert types(evs) == ["TurnPassed", "TurnStarted"] and evs[0].data["blocked"] is False
    assert len(g.m.rnd.hands[0]) == 2


def test_p27_eliminated_player_rejoins_as_newcomer():
    g = _end_round(3, [["5H:1"], ["KS:0", "KC:0", "QD:0", "QS:0", "QC:0", "10D:0"], ["2S:0"]],
                   penalty_limit=50)
    g.do(ScoreRound(1))
    assert g.m.seats[1].state == "eliminated" and g.m.status == "running"
    evs = g.do(JoinSeat("p1-again"))
    assert evs[0].type == "SeatWaiting" and evs[0].data["seat"] == 3
    evs = g.do(DealRound(2))
    act = next(e for e in evs if e.type == "SeatActivated")
    assert act.data == {"seat": 3, "total": 2}  # worst active total: seat 2 scored 2
    assert 1 not in next(e for e in evs if e.type == "RoundStarted").data["active_seats"]


def test_accept_skip_is_not_a_prsi_action():
    g = two([["2H:0", "3C:0"], ["4D:0", "4S:0"]])
    refused(g, AcceptSkip(0), "invalid_action", 422)


def test_start_requires_two_and_once():
    g = Game(1)
    refused(g, StartMatch(), "not_enough_players", 409)
    g.do(JoinSeat("b"))
    g.start()
    refused(g, StartMatch(), "already_started", 409)
    assert [d.kind for d in pending_work(g.m)] == ["timer"]  # the first turn's timeout (§2.7)
