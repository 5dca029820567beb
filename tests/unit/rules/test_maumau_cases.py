"""RULES §4.9 edge cases C-1 … C-29 of `mau-mau-classic(-full)`, one test per row."""
import pytest

from service.api.codes import status_of
from service.games.engine import decide, legal_actions
from service.games.kernel.model import LeaveSeat, RuleViolation, ScoreRound
from service.games.registry import resolve_options
from service.games.shedding.actions import default_action
from service.games.shedding.commands import Draw, Pass, Play, TakePenalty
from service.games.shedding.options import OptionError
from service.games.shedding.state import AFTER_DRAW, PLAY, RESPOND_SEVEN, rep

from .helpers import crafted

CLASSIC = "mau-mau-classic"
FULL = "mau-mau-classic-full"


def types(evs):
    return [e.type for e in evs]


def plays(g, seat):
    return [a for a in legal_actions(g.m, seat, g.now) if a["type"] == "play"]


def kinds(g, seat):
    return [a["type"] for a in legal_actions(g.m, seat, g.now)]


def refused(g, cmd, code, status=422):
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx())
    assert (exc.value.code, status_of(exc.value.code)) == (code, status)
    return exc.value


def game(hands, starter, stock=None, variant=CLASSIC, **kw):
    return crafted(len(hands), hands, starter, stock, variant=variant, **kw)


def later(g, ms=2000):
    g.now += ms
    return g.now


def test_C_1_empty_stock_and_bank_blocked_pass_then_lowest_hand_wins():
    g = game([["8S:0", "9C:0"], ["10D:0", "KS:0"]], "7H:0", stock=[])
    assert legal_actions(g.m, 0, g.now) == [{"type": "pass"}]
    evs = g.do(Pass(0))
    assert evs[0].type == "TurnPassed" and evs[0].data["blocked"] is True
    evs = g.do(Pass(1))
    assert evs[-1].data == {"reason": "blocked", "cause": "stuck", "winner": None}
    scored = g.do(ScoreRound(1))
    assert scored[1].data["points"] == {"0": 17, "1": 0}  # 8+9 against 10+K(4): the lower hand wins


def test_C_2_penalty_beyond_available_cards_is_forfeited():
    g = game([["8H:0", "9H:0"], ["8S:0", "KS:0", "10S:0"]], "7H:0", stock=[])
    g.do(Play(0, "8H"))  # one card left, no announcement
    evs = g.do(Play(1, "8S"), now=later(g))
    assert types(evs) == ["AnnouncementMissed", "StockReshuffled", "ShuffleCommitted", "CardDrawn",
                          "DrawShortfall", "CardPlayed", "TurnStarted"]
    assert evs[3].data["count"] == 1 and evs[4].data == {"seat": 0, "missing": 1,
                                                         "reason": "missed_announcement"}
    assert len(g.m.rnd.hands[0]) == 2 and g.m.rnd.pending_draw == 0


def test_C_3_last_card_jack_is_legal_calls_nothing_and_doubles():
    g = game([["JC:0"], ["KS:0", "QS:0"]], "9H:0", variant=FULL)
    assert plays(g, 0) == [{"type": "play", "card": "JC:0"}]
    evs = g.do(Play(0, "JC"))
    assert "SuitCalled" not in types(evs) and evs[-1].data["winner"] == 0
    scored = g.do(ScoreRound(1))
    assert scored[1].data["points"] == {"0": 0, "1": 14}  # (K 4 + Q 3) x 2


def test_C_3_last_card_jack_not_on_a_live_queen():
    g = game([["JC:0"], ["QH:0", "8D:0"]], "9H:0", first=1, variant=FULL)
    g.do(Play(1, "QH", announce=True))
    assert plays(g, 0) == [] and kinds(g, 0) == ["draw"]
    refused(g, Play(0, "JC"), "illegal_card")


def test_C_4_jack_with_a_matching_card_only_as_natural_match():
    g = game([["JC:0", "10H:0", "8S:0"], ["KS:0", "QS:0"]], "9H:0")
    assert plays(g, 0) == [{"type": "play", "card": "10H:0"}]
    assert "draw" in kinds(g, 0)  # the voluntary draw stays available
    refused(g, Play(0, "JC", called_suit="S"), "illegal_card")
    g2 = game([["JH:0", "10H:0", "8S:0"], ["KS:0", "QS:0"]], "9H:0")
    assert {"type": "play", "card": "JH:0"} in plays(g2, 0)  # natural: same suit, no call


def test_C_5_jack_starter_counts_as_its_printed_suit():
    g = game([["9H:0", "JS:0", "8C:0"], ["KS:0", "QS:0"]], "JH:0")
    assert plays(g, 0) == [{"type": "play", "card": "9H:0"}, {"type": "play", "card": "JS:0"}]
    evs = g.do(Play(0, "JS", called_suit="C"))
    assert "SuitCalled" not in types(evs) and g.m.rnd.called_suit is None


@pytest.mark.parametrize("starter", ["7S:0", "8S:0", "QS:0"])
def test_C_6_special_starter_has_no_effect(starter):
    g = game([["9S:0", "KS:0", "10C:0"], ["AD:0", "9D:0"]], starter, variant=FULL)
    rnd = g.m.rnd
    assert (rnd.phase, rnd.current, rnd.pending_draw, rnd.pending_skip, rnd.top_live) == (PLAY, 0, 0, False, False)
    assert {"type": "play", "card": "9S:0"} in plays(g, 0)  # a queen starter does not lock


def test_C_7_called_suit_stays_after_the_next_player_draws():
    g = game([["JC:0", "8S:0", "7C:0"], ["10S:0", "KS:0"], ["9D:0", "AH:0", "10C:0"]], "9H:0",
             stock=["7S:0", "AS:0"])
    g.do(Play(0, "JC", called_suit="D"))
    g.do(Draw(1))
    g.do(Pass(1))
    assert g.m.rnd.called_suit == "D" and g.m.rnd.current == 2
    assert plays(g, 2) == [{"type": "play", "card": "9D:0"}]


def test_C_8_voluntary_draw_of_an_unplayable_card_keeps_the_move():
    g = game([["10H:0", "8S:0"], ["KS:0", "QS:0"]], "9H:0", stock=["7C:0", "AS:0"])
    evs = g.do(Draw(0))
    assert types(evs) == ["CardDrawn"] and g.m.rnd.phase == AFTER_DRAW and g.m.rnd.current == 0
    assert kinds(g, 0) == ["play", "pass"] and plays(g, 0) == [{"type": "play", "card": "10H:0"}]
    evs = g.do(Play(0, "10H"))
    assert evs[-1].type == "TurnStarted" and evs[-1].data["seat"] == 1


def test_C_9_one_card_draw_then_play_the_drawn_card_announces_again():
    g = game([["8S:0"], ["KS:0", "QS:0", "AD:0"]], "9H:0", stock=["10H:0", "AS:0"])
    g.do(Draw(0))
    acts = plays(g, 0)
    assert {"type": "play", "card": "10H:0", "announce": True} in acts
    assert {"type": "play", "card": "10H:0"} in acts
    g.do(Play(0, "10H", announce=True))
    assert g.m.rnd.window.seat == 0 and g.m.rnd.window.satisfied


def test_C_10_two_cards_draw_then_play_leaves_two_no_obligation():
    g = game([["8S:0", "7C:0"], ["KS:0", "QS:0", "AD:0"]], "9H:0", stock=["10H:0", "AS:0"])
    g.do(Draw(0))
    assert plays(g, 0) == [{"type": "play", "card": "10H:0"}]
    g.do(Play(0, "10H"))
    assert g.m.rnd.window is None


def test_C_11_window_survives_the_eight_skip_and_closes_at_the_next_real_action():
    g = game([["8H:0", "KS:0"], ["9S:0", "10S:0"], ["10H:0", "AD:0"]], "9H:0", variant=FULL)
    evs = g.do(Play(0, "8H"))
    assert types(evs) == ["CardPlayed", "TurnSkipped", "TurnStarted"] and evs[-1].data["seat"] == 2
    assert g.m.rnd.window.seat == 0 and not g.m.rnd.window.satisfied
    refused(g, Play(2, "10H"), "announce_grace", 409)
    evs = g.do(Play(2, "10H"), now=later(g))
    assert types(evs)[:3] == ["AnnouncementMissed", "CardDrawn", "CardPlayed"]
    assert evs[1].seat == 0 and evs[1].data["count"] == 2


@pytest.mark.parametrize("flag", [True, False])
def test_C_12_two_players_eight_own_next_action_closes_the_window(flag):
    g = game([["8H:0", "KH:0"], ["10S:0", "AS:0"]], "9H:0", variant=FULL)
    evs = g.do(Play(0, "8H"))
    assert types(evs) == ["CardPlayed", "TurnSkipped", "TurnStarted"] and evs[-1].data["seat"] == 0
    assert {"type": "announce"} in legal_actions(g.m, 0, g.now)
    evs = g.do(Play(0, "KH", announce=flag))
    if flag:
        assert types(evs) == ["AnnouncementMade", "CardPlayed", "RoundEnded"]
    else:
        assert types(evs)[:3] == ["AnnouncementMissed", "CardDrawn", "CardPlayed"]
        assert len(g.m.rnd.hands[0]) == 2 and g.m.rnd.current == 1


def test_C_13_seven_chain_transfers_one_card():
    g = game([["7H:0", "KS:0", "9C:0"], ["7S:0", "10D:0", "8D:0"], ["AD:0", "9D:0", "10C:0"]],
             "10H:0", variant=FULL)
    g.do(Play(0, "7H"))
    assert (g.m.rnd.phase, g.m.rnd.current, g.m.rnd.pending_draw) == (RESPOND_SEVEN, 1, 1)
    g.do(Play(1, "7S"))
    assert (g.m.rnd.phase, g.m.rnd.current, g.m.rnd.pending_draw) == (RESPOND_SEVEN, 2, 1)
    evs = g.do(TakePenalty(2))
    assert types(evs) == ["PenaltyTaken", "CardDrawn", "TurnStarted"] and evs[1].data["count"] == 1
    assert (g.m.rnd.phase, g.m.rnd.current, g.m.rnd.top_live) == (PLAY, 0, False)
    assert {"type": "play", "card": "KS:0"} in plays(g, 0)  # plays on the spent seven's suit


def test_C_14_jack_on_a_live_seven_is_illegal():
    g = game([["7H:0", "KS:0", "9C:0"], ["JD:0", "10S:0"]], "10H:0", variant=FULL)
    g.do(Play(0, "7H"))
    err = refused(g, Play(1, "JD", called_suit="S"), "illegal_card")
    assert err.extra["legal_actions"] == [{"type": "take_penalty"}]


def test_C_15_last_card_seven_next_seat_draws_one_without_answer():
    g = game([["7H:0"], ["7S:0", "KS:0"]], "10H:0", variant=FULL)
    evs = g.do(Play(0, "7H"))
    assert types(evs) == ["CardPlayed", "CardDrawn", "RoundEnded"]
    assert evs[1].seat == 1 and evs[1].data["count"] == 1 and evs[1].data["reason"] == "final_seven"
    scored = g.do(ScoreRound(1))
    assert len(scored[0].data["hands"]["1"]) == 3


def test_C_16_queen_lock_players_keep_drawing_until_the_king():
    g = game([["QH:0", "9S:0", "10C:0"], ["10S:0", "AC:0"]], "10H:0",
             stock=["9D:0", "KH:0", "AS:0"], variant=FULL)
    g.do(Play(0, "QH"))
    assert kinds(g, 1) == ["draw"]
    g.do(Draw(1))
    assert kinds(g, 1) == ["pass"]  # one draw per turn; the drawn 9D does not break the lock
    g.do(Pass(1))
    assert kinds(g, 0) == ["draw"]
    g.do(Draw(0))
    assert plays(g, 0) == [{"type": "play", "card": "KH:0"}]
    g.do(Play(0, "KH"))
    assert {"type": "play", "card": "10S:0"} not in plays(g, 1) and g.m.rnd.discard[-1] == "KH:0"
    assert "draw" in kinds(g, 1)


def test_C_17_king_holder_may_draw_instead():
    g = game([["QH:0", "9S:0", "10C:0"], ["KH:0", "10S:0", "9C:0"]], "10H:0",
             stock=["9D:0", "AS:0"], variant=FULL)
    g.do(Play(0, "QH"))
    assert kinds(g, 1) == ["play", "draw"]
    g.do(Draw(1))
    assert plays(g, 1) == [{"type": "play", "card": "KH:0"}] and "pass" in kinds(g, 1)


@pytest.mark.parametrize("allows", [False, True])
def test_C_18_jack_on_a_queen_only_with_queen_lock_allows_jack(allows):
    g = game([["QH:0", "9S:0", "10C:0"], ["JS:0", "10S:0", "9C:0"]], "10H:0", variant=FULL,
             queen_lock_allows_jack=allows)
    g.do(Play(0, "QH"))
    if not allows:
        refused(g, Play(1, "JS", called_suit="H"), "illegal_card")
        return
    assert {"type": "play", "card": "JS:0", "called_suit": "D"} in plays(g, 1)
    g.do(Play(1, "JS", called_suit="D"))
    assert g.m.rnd.called_suit == "D"


def test_C_19_queen_starter_does_not_lock():
    g = game([["9H:0", "QS:0", "10C:0"], ["AD:0", "9D:0"]], "QH:0", variant=FULL)
    assert plays(g, 0) == [{"type": "play", "card": "9H:0"}, {"type": "play", "card": "QS:0"}]


def test_C_20_eight_with_two_players_moves_again():
    g = game([["8H:0", "9H:0", "10C:0"], ["AD:0", "9D:0"]], "10H:0", variant=FULL)
    evs = g.do(Play(0, "8H"))
    assert evs[-1].data == {"seat": 0, "turn_id": 2, "phase": "play", "deadline": g.now + 45_000}
    g.do(Play(0, "9H", announce=True))
    assert g.m.rnd.window.satisfied and g.m.rnd.current == 1


def _limit_round(**kw):
    g = game([["9H:0"], ["AS:0", "AC:0", "10S:0", "10C:0", "9S:0"],
              ["AD:0", "AH:0", "10D:0", "10H:0", "9D:0"]], "8H:0", penalty_limit=50, **kw)
    g.do(Play(0, "9H"))
    return g


def test_C_21_several_reach_the_limit_lowest_wins_ties_share():
    g = _limit_round()
    evs = g.do(ScoreRound(1))
    assert types(evs) == ["HandsRevealed", "RoundScored", "MatchEnded", "SeedsRevealed"]
    end = evs[2].data
    assert end["reason"] == "limit_reached" and end["winner"] == 0
    assert [(r["seat"], r["rank"], r["total"]) for r in end["standings"]] == [(0, 1, 0), (1, 2, 51), (2, 2, 51)]


def test_C_21_tie_break_last_round_score():
    g = _limit_round(tie_break="last_round_score")
    m = g.m
    hands = list(m.rnd.hands)
    hands[1] = ("AS:0", "AC:0", "10S:0", "9S:0")  # 41 points this round, after 10 earlier
    g.state = rep(m, seats=(m.seats[0], rep(m.seats[1], total=10), m.seats[2]),
                  rnd=rep(m.rnd, hands=tuple(hands)))
    end = g.do(ScoreRound(1))[2].data
    assert [(r["seat"], r["rank"], r["total"]) for r in end["standings"]] == [(0, 1, 0), (1, 2, 51), (2, 3, 51)]


def test_C_22_final_seven_draw_can_reach_the_limit():
    g = game([["7H:0"], ["AS:0", "AC:0", "10S:0", "10C:0"]], "9H:0", stock=["AD:0", "8C:0"],
             variant=FULL, penalty_limit=50)
    g.do(Play(0, "7H"))
    evs = g.do(ScoreRound(1))
    assert evs[1].data["totals"] == {"0": 0, "1": 53} and evs[2].type == "MatchEnded"


def test_C_23_timeout_defaults():
    g = game([["AH:0", "10H:0", "9S:0"], ["KS:0", "QS:0"]], "9H:0", stock=["8C:0", "AS:0"])
    assert default_action(g.m, 0) == {"type": "draw"}  # PLAY: draw when drawing is legal
    g.do(Draw(0))
    assert default_action(g.m, 0) == {"type": "pass"}  # AFTER_DRAW: pass
    g2 = game([["AH:0", "10H:0", "9S:0"], ["KS:0", "QS:0"]], "9H:0", stock=[])
    assert default_action(g2.m, 0) == {"type": "play", "card": "AH:0"}  # most points, no flag
    g3 = game([["7H:0", "KS:0", "9C:0"], ["10S:0", "AS:0"]], "10H:0", variant=FULL)
    g3.do(Play(0, "7H"))
    assert default_action(g3.m, 1) == {"type": "take_penalty"}
    g4 = game([["8S:0", "9C:0"], ["10D:0", "KS:0"]], "7H:0", stock=[])
    assert default_action(g4.m, 0) == {"type": "pass"}  # blocked


def test_C_24_leaver_mid_round_pending_penalty_cancelled_then_walkover():
    g = game([["7H:0", "KS:0", "9C:0"], ["10S:0", "AS:0"], ["9D:0", "AD:0"]], "10H:0", variant=FULL)
    g.do(Play(0, "7H"))
    evs = g.do(LeaveSeat(1))
    assert types(evs) == ["SeatLeft", "ShuffleCommitted", "TurnStarted"]
    assert g.m.rnd.pending_draw == 0 and g.m.rnd.current == 2 and g.m.rnd.phase == PLAY
    assert set(g.m.rnd.stock[-2:]) == {"10S:0", "AS:0"}
    evs = g.do(LeaveSeat(2))
    assert evs[-2].data["reason"] == "walkover" and evs[-2].data["winner"] == 0


def test_C_25_hand_size_seven_with_five_players_rejected():
    with pytest.raises(OptionError) as exc:
        resolve_options(CLASSIC, {"hand_size": 7}, 5)
    assert [e["option"] for e in exc.value.errors] == ["hand_size"]
    resolved, _ = resolve_options(CLASSIC, {"hand_size": 7}, 4)
    assert resolved["hand_size"] == 7 and resolved["max_players"] == 4


def test_C_26_no_voluntary_draw_when_nothing_can_be_drawn():
    g = game([["10H:0", "8S:0", "7C:0"], ["KS:0", "QS:0"]], "9H:0", stock=[])
    assert legal_actions(g.m, 0, g.now) == [{"type": "play", "card": "10H:0"}]
    refused(g, Draw(0), "illegal_action")
    refused(g, Pass(0), "illegal_action")


def test_C_27_turn_limit_ends_the_round_blocked():
    g = game([["10H:0", "8S:0"], ["KS:0", "QS:0"]], "9H:0", max_turns_per_round=50)
    g.state = rep(g.m, rnd=rep(g.m.rnd, turn_id=50))
    g.do(Draw(0))
    evs = g.do(Pass(0))
    assert evs[-1].type == "RoundEnded" and evs[-1].data["cause"] == "turn_limit"


def test_C_27_leave_on_the_last_turn_ends_the_round_blocked():
    g = game([["10H:0", "8S:0"], ["KS:0", "QS:0"], ["9D:0", "AD:0"]], "9H:0", max_turns_per_round=50)
    g.state = rep(g.m, rnd=rep(g.m.rnd, turn_id=50))
    evs = g.do(LeaveSeat(0))
    assert evs[-1].type == "RoundEnded" and evs[-1].data["cause"] == "turn_limit"


def test_C_28_penalty_before_another_player_goes_out_counts():
    g = game([["9H:0", "KS:0"], ["9C:0"]], "10H:0")
    g.do(Play(0, "9H"))
    evs = g.do(Play(1, "9C"), now=later(g))
    assert types(evs) == ["AnnouncementMissed", "CardDrawn", "CardPlayed", "RoundEnded"]
    scored = g.do(ScoreRound(1))
    assert len(scored[0].data["hands"]["0"]) == 3


def test_C_29_natural_jack_calls_no_suit():
    g = game([["JH:0", "8C:0", "10S:0"], ["KS:0", "QS:0"]], "9H:0")
    assert plays(g, 0) == [{"type": "play", "card": "JH:0"}]
    evs = g.do(Play(0, "JH", called_suit="S"))
    assert "SuitCalled" not in types(evs) and g.m.rnd.called_suit is None
    assert plays(g, 1) == []  # hearts or a jack: neither KS nor QS


@pytest.mark.parametrize("version", [1, 2])
def test_an_empty_voluntary_draw_keeps_the_move_from_rules_version_2(version: int) -> None:
    """Issue 12 h (RULES §4.5.4, §3.6): seat 0 goes down to one card without announcing; after the
    grace seat 1, holding a playable 10S, draws voluntarily. The draw closes seat 0's window first:
    its 2-card penalty takes the only reshufflable card, and seat 1's draw finds nothing. Under
    version 1 (the behaviour old histories were played under) the turn passed to seat 0; from
    version 2 seat 1 keeps the move."""
    g = game([["10H:0", "KD:0"], ["10S:0", "2C:0", "3C:0"]], "9H:0", stock=[], rules_version=version)
    g.do(Play(0, "10H"))  # one card left, no announcement
    evs = g.do(Draw(1), now=later(g))
    assert types(evs)[:1] == ["AnnouncementMissed"] and "DrawShortfall" in types(evs)
    assert [e.data["reason"] for e in evs if e.type == "DrawShortfall"][-1] == "turn"
    assert len(g.m.rnd.hands[0]) == 2  # the penalty took the one card there was
    if version == 1:
        assert g.m.rnd.current == 0 and types(evs)[-1] == "TurnStarted"
        return
    assert g.m.rnd.current == 1 and g.m.rnd.phase == AFTER_DRAW and "TurnStarted" not in types(evs)
    assert {"type": "play", "card": "10S:0"} in legal_actions(g.m, 1, g.now)
    assert {"type": "pass"} in legal_actions(g.m, 1, g.now) and {"type": "draw"} not in legal_actions(g.m, 1, g.now)
    played = g.do(Play(1, "10S"))
    assert played[0].type == "CardPlayed" and g.m.rnd.current == 0


@pytest.mark.parametrize("version, points", [(1, 14), (2, 7)])
def test_the_jack_finish_doubles_only_a_wild_jack_from_rules_version_2(version: int, points: int) -> None:
    """Issue 12 i: with jack_wild off a jack is a plain card, and going out with it doubles nothing
    (version 1, the old behaviour, still doubled)."""
    g = game([["JH:0"], ["KS:0", "QS:0"]], "9H:0", variant=FULL, jack_wild=False, rules_version=version)
    evs = g.do(Play(0, "JH"))
    assert evs[-1].data["winner"] == 0
    assert g.do(ScoreRound(1))[1].data["points"] == {"0": 0, "1": points}  # K 4 + Q 3
