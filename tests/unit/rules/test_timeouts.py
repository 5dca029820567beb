"""RULES §2.7, §3.4 (P-24), §3.8.6: turn timeouts, chained defaults, absent seats and their removal."""
from __future__ import annotations

import pytest

from service.games.engine import decide, pending_work, public_view
from service.games.kernel.model import Autopilot, FireTimer, RuleViolation
from service.games.registry import resolve_options
from service.games.shedding.commands import Announce, Draw, Play, TakePenalty
from service.games.shedding.options import OptionError
from service.games.shedding.state import rep

from .helpers import T0, Game, crafted

D = T0 + 10_000  # the deadline of a crafted first turn with turn_timeout_s = 10


def timer(g: Game, prefix: str = "turn-") -> object:
    (due,) = [d for d in pending_work(g.m) if d.kind == "timer" and d.key.startswith(prefix)]
    return due


def fire(g: Game, key: str | None = None, at: int | None = None) -> list:
    due = timer(g)
    key = key or due.key
    g.now = at if at is not None else max(g.now, due.due_at)
    return list(g.do(FireTimer(key)))


def refused(g: Game, cmd, now: int | None = None) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx(now))
    return exc.value


def types(evs) -> list[str]:
    return [e.type for e in evs]


def mark_absent(g: Game, seat: int, policy: str | None = None) -> None:
    seats = list(g.m.seats)
    seats[seat] = rep(seats[seat], absent=True, absences=1, timeouts=3, removal_deadline=T0 + 300_000)
    opts = dict(g.m.options)
    if policy:
        opts["absent_policy"] = policy
    g.state = rep(g.m, seats=tuple(seats), options=opts)


# ------------------------------------------------------------------ options (§8.3)

def test_turn_timeout_defaults_to_45_and_accepts_null_or_10_to_600():
    assert resolve_options("prsi", {}, 5)[0]["turn_timeout_s"] == 45
    assert resolve_options("mau-mau-classic", {"turn_timeout_s": None}, 5)[0]["turn_timeout_s"] is None
    assert resolve_options("prsi", {"turn_timeout_s": 600}, 5)[0]["turn_timeout_s"] == 600
    for bad in (9, 601, "45", True):
        with pytest.raises(OptionError) as exc:
            resolve_options("prsi", {"turn_timeout_s": bad}, 5)
        assert [e["option"] for e in exc.value.errors] == ["turn_timeout_s"]


def test_sakapuss_validates_the_absence_options():
    resolved, _ = resolve_options("sakapuss", {"absent_policy": "bot_autopilot"}, 5)
    assert resolved["max_consecutive_timeouts"] == 3 and resolved["absent_removal_s"] == 300
    with pytest.raises(OptionError) as exc:
        resolve_options("sakapuss", {"max_consecutive_timeouts": 0, "absent_removal_s": 59,
                                     "absent_policy": "nap"}, 5)
    assert {e["option"] for e in exc.value.errors} == {"max_consecutive_timeouts", "absent_removal_s",
                                                       "absent_policy"}


def test_turn_started_records_the_deadline_and_the_view_shows_it():
    g = Game(2, seed=3, turn_timeout_s=20)
    evs = g.start()
    started = [e for e in evs if e.type == "TurnStarted"][-1]
    assert started.data["deadline"] == g.now + 20_000
    view = public_view(g.m, g.now)
    assert view["turn"]["deadline"] == g.now + 20_000
    due = timer(g)
    assert (due.key, due.due_at, due.seat, due.opened_seq) == ("turn-1-1", g.now + 20_000, started.seat,
                                                                started.seq)


def test_no_timer_without_a_turn_timeout():
    g = Game(2, seed=3, turn_timeout_s=None)
    g.start()
    assert [d for d in pending_work(g.m) if d.kind == "timer"] == []
    assert refused(g, FireTimer("turn-1-1"), now=g.now + 10**9).code == "nothing_to_do"


# ------------------------------------------------------------------ P-24 defaults per phase

def test_play_defaults_to_a_draw_that_ends_the_turn():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", deadline=D, turn_timeout_s=10)
    evs = fire(g)
    assert types(evs) == ["TimedOut", "CardDrawn", "TurnStarted"]
    assert evs[0].data == {"seat": 0, "turn_id": 1, "guarded": "turn-1-1", "default_action": {"type": "draw"},
                           "chain": [{"type": "draw"}]}
    assert evs[1].data["auto"] is True and evs[1].data["reason"] == "turn"
    assert evs[2].data["deadline"] == D + 10_000 and g.m.seats[0].timeouts == 1


def test_play_defaults_to_the_best_points_play_when_drawing_is_impossible():
    g = crafted(2, [["5H:0", "KH:0", "2C:0"], ["4D:0", "5D:0"]], "9H:0", stock=[], deadline=D,
                turn_timeout_s=10)
    evs = fire(g)
    assert evs[0].data["chain"] == [{"type": "play", "card": "KH:0"}]
    assert types(evs)[:2] == ["TimedOut", "CardPlayed"] and evs[1].data["card"] == "KH:0"


def test_a_default_wild_jack_calls_the_suit_the_hand_holds_most():
    g = crafted(2, [["JC:0", "2S:0", "3S:0", "4D:0"], ["4H:0", "5H:0"]], "9H:0", stock=[], deadline=D,
                turn_timeout_s=10, jack_requires_no_match=True)
    evs = fire(g)
    assert evs[0].data["default_action"] == {"type": "play", "card": "JC:0", "called_suit": "S"}
    assert [e.data["suit"] for e in evs if e.type == "SuitCalled"] == ["S"]


def test_respond_seven_defaults_to_take_penalty():
    g = crafted(2, [["7H:0", "2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10)
    g.do(Play(0, "7H"))
    evs = fire(g)
    assert evs[0].data["chain"] == [{"type": "take_penalty"}]
    assert types(evs)[:3] == ["TimedOut", "PenaltyTaken", "CardDrawn"]


def test_ace_followup_draws_by_default_and_passes_under_the_house_rule():
    """P-24: ACE_FOLLOWUP → draw, or pass where ace_followup_optional allows it."""
    g = crafted(2, [["AH:0", "5H:0", "2C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10, deadline=D)
    g.do(Play(0, "AH"))
    assert g.m.rnd.phase == "ace_followup"
    assert fire(g)[0].data["chain"] == [{"type": "draw"}]
    g = crafted(2, [["AH:0", "5H:0", "2C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10, deadline=D,
                ace_followup_optional=True)
    g.do(Play(0, "AH"))
    evs = fire(g)
    assert evs[0].data == {"seat": 0, "turn_id": 1, "guarded": "turn-1-1", "default_action": {"type": "pass"},
                           "chain": [{"type": "pass"}]}
    g = crafted(2, [["AH:0", "2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10, deadline=D)
    g.do(Play(0, "AH"))
    assert fire(g)[0].data["chain"] == [{"type": "draw"}]


def test_after_draw_chains_draw_then_pass_in_one_timeout():
    g = crafted(2, [["2C:0", "3C:0", "4C:0"], ["KD:0", "QD:0"]], "9H:0", variant="mau-mau-classic",
                stock=["10S:0", "8S:0"], deadline=D, turn_timeout_s=10,
                deck_ranks=["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
                card_points={"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
                             "J": 2, "Q": 3, "K": 4, "A": 11})
    evs = fire(g)
    assert evs[0].data["chain"] == [{"type": "draw"}, {"type": "pass"}]
    assert types(evs) == ["TimedOut", "CardDrawn", "TurnPassed", "TurnStarted"]
    assert g.m.rnd.current == 1 and g.m.seats[0].timeouts == 1  # one timeout, not two


def test_after_draw_plays_the_drawn_card_when_passing_is_not_allowed():
    g = crafted(2, [["2C:0", "3C:0"], ["KD:0", "QD:0"]], "9H:0", stock=["5H:0", "8S:0"], deadline=D,
                turn_timeout_s=10, play_after_draw="drawn_card_only", must_play_drawn_if_legal=True)
    evs = fire(g)
    assert evs[0].data["chain"] == [{"type": "draw"}, {"type": "play", "card": "5H:0"}]


def test_the_chain_follows_an_ace_played_by_default():
    g = crafted(2, [["AH:0", "5H:0", "2C:0"], ["4D:0", "5D:0"]], "9H:0", stock=[], deadline=D,
                turn_timeout_s=10, ace_followup_optional=True)
    evs = fire(g)
    assert evs[0].data["chain"] == [{"type": "play", "card": "AH:0"}, {"type": "pass"}]
    assert g.m.rnd.current == 1 and g.m.rnd.turn_id == 2


def test_the_default_never_announces_and_an_owed_announcement_is_penalised():
    g = crafted(2, [["AH:0", "5H:0", "2C:0"], ["4D:0", "5D:0"]], "9H:0", deadline=D, turn_timeout_s=10)
    g.do(Play(0, "AH"))
    g.do(Play(0, "5H"))  # one card left, not announced: seat 0's window is open
    evs = fire(g, at=g.m.rnd.deadline)  # seat 1's timeout, past the grace
    assert types(evs)[:3] == ["TimedOut", "AnnouncementMissed", "CardDrawn"]
    assert not any(e.type == "AnnouncementMade" for e in evs)


# ------------------------------------------------------------------ keyed timers (§2.6(4))

def test_early_stale_and_repeated_timers_do_nothing():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", deadline=D, turn_timeout_s=10)
    assert refused(g, FireTimer("turn-1-1"), now=D - 1).code == "nothing_to_do"  # early: it waits
    fire(g)
    assert refused(g, FireTimer("turn-1-1"), now=D + 1).code == "nothing_to_do"  # fired twice / old turn
    assert refused(g, FireTimer("turn-2-2"), now=D + 10**7).code == "nothing_to_do"  # another round
    assert refused(g, FireTimer("absent-1-1"), now=D + 10**7).code == "nothing_to_do"  # no absence
    assert refused(g, FireTimer("nonsense"), now=D + 10**7).code == "nothing_to_do"


def test_an_action_before_the_deadline_closes_the_turn_timer():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", deadline=D, turn_timeout_s=10)
    g.do(Draw(0))
    assert refused(g, FireTimer("turn-1-1"), now=D + 1).code == "nothing_to_do"


def test_a_default_inside_another_seats_grace_is_deferred_to_the_grace_end():
    g = crafted(3, [["5H:0", "2C:0"], ["4D:0", "5D:0"], ["6D:0", "7S:0"]], "9H:0", turn_timeout_s=10)
    mark_absent(g, 1)
    g.now = T0 + 100
    g.do(Play(0, "5H"))  # seat 0 keeps one card, unannounced: its grace runs 1500 ms
    due = timer(g)
    assert due.key == "turn-1-2" and due.due_at == T0 + 100 + 1500
    assert refused(g, FireTimer(due.key), now=T0 + 100).code == "nothing_to_do"
    evs = fire(g, at=due.due_at)
    assert types(evs)[:3] == ["TimedOut", "AnnouncementMissed", "CardDrawn"]


# ------------------------------------------------------------------ absence (§2.7)

def _time_out_seat_one_twice(g: Game) -> list:
    """Seat 1 times out, seat 0 draws, seat 1 times out again."""
    assert g.m.rnd.current == 1
    fire(g)
    g.do(Draw(0))
    return fire(g)


def test_absent_after_max_consecutive_timeouts_with_a_removal_deadline():
    g = crafted(3, [["2C:0", "3C:0"], ["4D:0", "5D:0"], ["6D:0", "7S:0"]], "9H:0", first=1,
                turn_timeout_s=10, max_consecutive_timeouts=2, absent_removal_s=60, deadline=D)
    fire(g)  # seat 1
    g.do(Draw(2))
    g.do(Draw(0))
    evs = fire(g)
    assert evs[0].data["absent"] is True and evs[0].data["removal_deadline"] == g.now + 60_000
    seat = public_view(g.m, g.now)["seats"][1]
    assert seat["state"] == "absent" and seat["removal_deadline"] == g.now + 60_000
    removal = timer(g, "absent-")
    assert (removal.key, removal.due_at) == ("absent-1-1", g.now + 60_000)
    g.do(Draw(2))
    g.do(Draw(0))
    # absent under default_actions: the default is played at once, at the turn's start
    due = timer(g)
    assert due.seat == 1 and due.due_at == g.m.rnd.turn_at
    evs = fire(g)
    assert types(evs)[0] == "TimedOut" and "absent" not in evs[0].data  # already absent


def test_an_accepted_action_of_the_human_clears_the_absence_and_its_timer():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10)
    mark_absent(g, 0)
    assert timer(g, "absent-").key == "absent-0-1"
    g.do(Announce(0))  # any accepted action, even one with no effect
    assert not g.m.seats[0].absent and g.m.seats[0].timeouts == 0
    assert [d for d in pending_work(g.m) if d.key.startswith("absent-")] == []
    assert refused(g, FireTimer("absent-0-1"), now=T0 + 10**7).code == "nothing_to_do"


def test_a_human_draw_resets_the_consecutive_count():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", deadline=D, turn_timeout_s=10)
    fire(g)
    assert g.m.seats[0].timeouts == 1
    g.do(Draw(1))
    g.do(Draw(0))
    assert g.m.seats[0].timeouts == 0


def test_removal_makes_the_absent_seat_leave():
    g = crafted(3, [["2C:0", "3C:0"], ["4D:0", "5D:0"], ["6D:0", "7S:0"]], "9H:0", turn_timeout_s=10)
    mark_absent(g, 1)
    assert refused(g, FireTimer("absent-1-1"), now=T0 + 299_999).code == "nothing_to_do"  # early
    g.now = T0 + 300_000
    evs = g.do(FireTimer("absent-1-1"))
    assert evs[0].type == "SeatLeft" and evs[0].data["reason"] == "absent_removed"
    assert g.m.seats[1].state == "left" and not g.m.seats[1].absent
    assert 1 not in g.m.active_seats() and not g.m.rnd.hands[1]
    assert refused(g, FireTimer("absent-1-1"), now=T0 + 10**7).code == "nothing_to_do"  # twice


def test_removal_of_one_of_two_ends_the_match_by_walkover():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10)
    mark_absent(g, 1)
    g.now = T0 + 300_000
    evs = g.do(FireTimer("absent-1-1"))
    assert "MatchEnded" in types(evs) and g.m.status == "finished"


def test_autopilot_plays_an_absent_seat_without_clearing_the_absence():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10, deadline=D)
    assert refused(g, Autopilot(0, {"type": "draw"})).code == "nothing_to_do"  # not absent
    mark_absent(g, 0, "bot_autopilot")
    work = pending_work(g.m)
    assert [(d.kind, d.seat) for d in work if d.kind == "bot"] == [("bot", 0)]
    assert timer(g).due_at == D  # the full timeout stays as a safety net
    evs = g.do(Autopilot(0, {"type": "draw"}))
    assert evs[0].data["auto"] is True and g.m.seats[0].absent


def test_default_actions_policy_gives_no_bot_job():
    g = crafted(2, [["2C:0", "3C:0"], ["4D:0", "5D:0"]], "9H:0", turn_timeout_s=10)
    mark_absent(g, 0)
    assert [d.kind for d in pending_work(g.m)] == ["timer", "timer"]
    assert refused(g, TakePenalty(1)).code == "not_your_turn"
