"""§3 mechanics prsi uses: announcement window, grace, arming; reshuffle; exhaustion; limits."""
import json

import pytest

from service.api.codes import status_of
from service.games.engine import decide, legal_actions, pending_work, private_view, public_view, replay, seat_view
from service.games.kernel import randomness
from service.games.kernel.model import Context, DealRound, JoinSeat, LeaveSeat, RuleViolation, ScoreRound
from service.games.shedding.commands import Announce, Draw, Pass, Play
from service.games.shedding.state import rep

from .helpers import Game, crafted, seeds


def types(evs):
    return [e.type for e in evs]


def opened_window():
    g = crafted(2, [["6H:0", "2H:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0")
    g.do(Play(0, "6H"))
    assert g.m.rnd.window.seat == 0 and not g.m.rnd.window.satisfied
    return g


def test_grace_refuses_other_seats_closing_actions():
    g = opened_window()
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, Play(1, "9H"), Context(g.now + 1000, seeds("x")))
    assert exc.value.code == "announce_grace" and status_of(exc.value.code) == 409
    assert exc.value.extra["legal_actions"] == []
    assert legal_actions(g.m, 0, g.now + 1000) == [{"type": "announce"}]


def test_window_closes_with_penalty_after_grace():
    g = opened_window()
    evs = g.do(Play(1, "9H"), now=g.now + 1500)
    assert types(evs)[:3] == ["AnnouncementMissed", "CardDrawn", "CardPlayed"]
    assert evs[1].seat == 0 and evs[1].data["count"] == 2 and 0 in evs[1].to_seat
    assert len(g.m.rnd.hands[0]) == 3


def test_separate_announce_satisfies_and_lifts_grace():
    g = opened_window()
    evs = g.do(Announce(0), now=g.now + 100)
    assert evs[0].data["effect"] == "satisfied"
    assert legal_actions(g.m, 0, g.now + 100) == []
    evs = g.do(Play(1, "9H"), now=g.now + 200)
    assert "AnnouncementMissed" not in types(evs)


def test_flag_on_play_satisfies():
    g = crafted(2, [["6H:0", "2H:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0")
    acts = legal_actions(g.m, 0, g.now)
    assert {"type": "play", "card": "6H:0", "announce": True} in acts
    assert {"type": "play", "card": "6H:0"} in acts
    g.do(Play(0, "6H", announce=True))
    assert g.m.rnd.window.satisfied
    assert "AnnouncementMissed" not in types(g.do(Play(1, "9H")))


def test_arming_with_two_cards_in_own_turn():
    g = crafted(2, [["6H:0", "2H:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0")
    assert {"type": "announce"} in legal_actions(g.m, 0, g.now)
    evs = g.do(Announce(0))
    assert types(evs) == ["AnnouncementArmed"]
    g.do(Play(0, "6H"))
    assert g.m.rnd.window.satisfied


def test_arming_lapses_at_end_of_turn():
    g = crafted(2, [["6C:0", "2C:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0", stock=["3D:0", "4D:0"])
    g.do(Announce(0))
    g.do(Draw(0))
    assert g.m.rnd.armed is None


def test_own_window_other_seat_penalty_when_out():
    g = crafted(2, [["6H:0", "2H:0"], ["9H:0"]], "5H:0")
    g.do(Play(0, "6H"))
    evs = g.do(Play(1, "9H"), now=g.now + 2000)
    assert types(evs) == ["AnnouncementMissed", "CardDrawn", "CardPlayed", "RoundEnded"]
    evs = g.do(ScoreRound(1))
    assert evs[0].data["hands"]["0"] and len(evs[0].data["hands"]["0"]) == 3


def test_grace_zero_means_no_grace():
    g = crafted(2, [["6H:0", "2H:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0", announce_grace_ms=0)
    g.do(Play(0, "6H"))
    assert {"type": "play", "card": "9H:0"} in legal_actions(g.m, 1, g.now)


def test_on_demand_reshuffle_consumes_a_seed():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "4S:0"]], "5H:0", stock=[])
    g.state = rep(g.m, rnd=rep(g.m.rnd, discard=("KS:0", "QS:0", "5H:0")))
    ctx = Context(g.now, seeds("reshuffle"))
    evs = decide(g.state, Draw(0), ctx)
    assert types(evs) == ["StockReshuffled", "ShuffleCommitted", "CardDrawn", "TurnStarted"]
    sc = evs[1]
    assert sc.data["commitment"] == randomness.commitment(ctx.seeds[0])
    assert sc.data["count"] == 2 and sc.secret["seed"] == ctx.seeds[0].hex()
    assert sc.secret["order"] == list(randomness.shuffled(ctx.seeds[0], ("KS:0", "QS:0")))
    assert evs[2].to_seat[0]["cards"] == [sc.secret["order"][0]]


def test_need_more_seeds():
    from service.games.kernel.model import NeedMoreSeeds
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "4S:0"]], "5H:0", stock=[])
    g.state = rep(g.m, rnd=rep(g.m.rnd, discard=("KS:0", "5H:0")))
    with pytest.raises(NeedMoreSeeds):
        decide(g.state, Draw(0), Context(g.now, ()))


def test_blocked_round_lowest_hand_wins():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "KS:0"]], "5H:0", stock=[], reshuffle_discard=False)
    assert legal_actions(g.m, 0, g.now) == [{"type": "pass"}]
    g.do(Pass(0))
    evs = g.do(Pass(1))
    assert evs[-1].type == "RoundEnded" and evs[-1].data == {"reason": "blocked", "cause": "stuck", "winner": None}
    evs = g.do(ScoreRound(1))
    assert evs[1].data["points"] == {"0": 0, "1": 14}


def test_turn_limit_ends_round_blocked():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "KS:0"]], "5H:0", max_turns_per_round=50)
    g.state = rep(g.m, rnd=rep(g.m.rnd, turn_id=50))
    evs = g.do(Draw(0))
    assert evs[-1].type == "RoundEnded" and evs[-1].data["cause"] == "turn_limit"
    assert pending_work(g.m)[0].kind == "score"


def test_leave_while_current_in_ace_followup_passes_turn():
    g = crafted(3, [["AH:0", "2C:0", "3C:0"], ["4D:0", "4S:0"], ["6D:0", "6S:0"]], "5H:0")
    g.do(Play(0, "AH"))
    evs = g.do(LeaveSeat(0))
    assert types(evs) == ["SeatLeft", "ShuffleCommitted", "TurnStarted"]
    assert g.m.rnd.current == 1 and g.m.rnd.phase == "play"


def test_joiner_gets_worst_active_total_and_leaver_struck():
    g = crafted(3, [["5H:1"], ["KS:0"], ["2S:0"]], "5H:0", round_intermission_s=0)
    g.do(Play(0, "5H:1"))
    g.do(ScoreRound(1))
    g.do(JoinSeat("new"))
    g.do(LeaveSeat(2))
    evs = g.do(DealRound(2))
    assert evs[0].type == "SeatActivated" and evs[0].data == {"seat": 3, "total": 10}
    assert next(e for e in evs if e.type == "RoundStarted").data["active_seats"] == [0, 1, 3]


def test_score_and_deal_refuse_wrong_phase():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "KS:0"]], "5H:0")
    for cmd in (ScoreRound(1), DealRound(2)):
        with pytest.raises(RuleViolation) as exc:
            decide(g.state, cmd, g.ctx())
        assert exc.value.code == "nothing_to_do" and status_of(exc.value.code) == 409


def test_pending_work_bot_key_stable_across_announce():
    g = crafted(2, [["6H:0", "2H:0"], ["5D:0", "9H:0", "KD:0"]], "5H:0")
    g.state = rep(g.m, seats=(g.m.seats[0], rep(g.m.seats[1], kind="bot", strength="easy")))
    g.do(Play(0, "6H"))
    (due,) = [d for d in pending_work(g.m) if d.kind == "bot"]
    assert due.kind == "bot" and due.seat == 1 and due.due_at == g.now + 1500
    g.do(Announce(0), now=g.now + 10)
    (due2,) = [d for d in pending_work(g.m) if d.kind == "bot"]
    assert due2.key == due.key and due2.opened_seq == due.opened_seq and due2.due_at == g.now


def test_pending_work_score_then_deal():
    g = crafted(2, [["5H:1"], ["KS:0"]], "5H:0")
    g.do(Play(0, "5H:1"))
    (due,) = pending_work(g.m)
    assert (due.kind, due.key) == ("score", "1")
    g.do(ScoreRound(1), now=g.now + 5)
    (due,) = pending_work(g.m)
    assert (due.kind, due.key, due.due_at) == ("deal", "2", g.now + 5 + 3000)


def test_views_redact_and_are_json():
    g = Game(3, seed="views")
    g.start()
    pub = public_view(g.m, g.now, True)
    text = json.dumps(pub)
    for s in range(3):
        for c in g.m.rnd.hands[s]:
            assert c not in text or c in pub["record"]["discard"]
    assert pub["status"] == "running" and pub["phase"] == "play" and pub["turn"]["seat"] == g.m.rnd.current
    assert pub["table"]["stock_count"] == len(g.m.rnd.stock)
    me = private_view(g.m, g.m.rnd.current, g.now)
    assert sorted(me["hand"]) == sorted(g.m.rnd.hands[g.m.rnd.current]) and me["legal_actions"]
    sv = seat_view(g.m, 1, g.now)
    assert not hasattr(sv, "state") and "stock" not in json.dumps(dict(sv.public)).replace("stock_count", "")
    json.dumps([e.data for e in g.events])


def test_replay_equals_incremental():
    g = Game(4, seed="replay")
    g.start()
    assert replay(g.events) == g.m
