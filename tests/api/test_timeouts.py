"""RULES §2.7 through the API: turn timers as follow-ups, absence, removal with a revoked token."""
from __future__ import annotations

from .conftest import Table, auth


def _two_humans(table: Table, **options) -> tuple[str, str, dict[int, str]]:
    g = table.create("prsi", {"turn_timeout_s": 10, **options})
    a = table.join(g["id"], "ann")
    b = table.join(g["id"], "bob")
    table.start(g["id"], g["owner_token"])
    return g["id"], g["owner_token"], {a["seat"]: a["token"], b["seat"]: b["token"]}


def _timeouts(table: Table, gid: str, token: str) -> list[dict]:
    r = table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(token))
    assert r.status_code == 200, r.json
    return [e for e in r.json["events"] if e["type"] == "TimedOut"]


def test_a_turn_times_out_when_the_clock_passes_its_deadline(table: Table, clock):
    gid, owner, _tokens = _two_humans(table)
    view = table.view(gid)
    seat, deadline = view["turn"]["seat"], view["turn"]["deadline"]
    assert deadline == clock.now + 10_000
    clock.advance(9_999)
    table.drain()
    assert table.view(gid)["turn"]["seat"] == seat  # not yet
    clock.advance(1)
    table.drain()
    (out,) = _timeouts(table, gid, owner)
    assert out["data"]["seat"] == seat and out["data"]["guarded"] == "turn-1-1"
    view = table.view(gid)
    assert view["turn"]["seat"] != seat and view["turn"]["deadline"] == clock.now + 10_000


def test_absent_seat_is_removed_and_its_token_revoked(table: Table, clock):
    gid, _owner, tokens = _two_humans(table, max_consecutive_timeouts=1, absent_removal_s=60)
    view = table.view(gid)
    slow = view["turn"]["seat"]
    other = 1 - slow
    clock.advance(10_000)
    table.drain()
    view = table.view(gid)
    assert view["seats"][slow]["state"] == "absent"
    assert view["seats"][slow]["removal_deadline"] == clock.now + 60_000
    # the other seat plays; the absent seat's next turn is played by default at once
    r = table.act(gid, tokens[other], {"type": "draw"})
    assert r.status_code == 200, r.json
    table.drain()
    assert len(_timeouts(table, gid, tokens[other])) == 2
    assert table.view(gid)["turn"]["seat"] == other
    clock.advance(60_000)
    table.drain()
    view = table.view(gid)
    assert view["seats"][slow]["state"] == "left" and view["status"] == "finished"
    left = [e for e in _timeouts_or_all(table, gid, tokens[other]) if e["type"] == "SeatLeft"]
    assert left[0]["data"]["reason"] == "absent_removed"
    r = table.client.get(f"/v1/games/{gid}", headers=auth(tokens[slow]))
    assert r.status_code == 401


def _timeouts_or_all(table: Table, gid: str, token: str) -> list[dict]:
    r = table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(token))
    return r.json["events"]


def test_the_human_coming_back_closes_the_absence_and_the_timer_waits(table: Table, clock):
    gid, _owner, tokens = _two_humans(table, max_consecutive_timeouts=1, absent_removal_s=60)
    slow = table.view(gid)["turn"]["seat"]
    other = 1 - slow
    clock.advance(10_000)
    table.drain()
    r = table.act(gid, tokens[slow], {"type": "announce"})  # any accepted action of the human
    assert r.status_code == 200, r.json
    assert table.view(gid)["seats"][slow]["state"] == "active"
    r = table.act(gid, tokens[other], {"type": "draw"})
    assert r.status_code == 200, r.json
    table.drain()
    assert table.view(gid)["turn"]["seat"] == slow  # a full timeout again, no instant default
    clock.advance(60_000)  # past the old removal deadline and the turn deadline
    table.drain()
    view = table.view(gid)
    assert view["seats"][slow]["state"] == "absent" and view["status"] == "running"
    assert table.client.get(f"/v1/games/{gid}", headers=auth(tokens[slow])).status_code == 200


def test_an_early_timer_waits_for_its_due_time(table: Table, clock):
    gid, owner, tokens = _two_humans(table, max_consecutive_timeouts=1)
    slow = table.view(gid)["turn"]["seat"]
    other = 1 - slow
    clock.advance(10_000)
    table.drain()
    r = table.act(gid, tokens[other], {"type": "draw"})
    assert r.status_code == 200
    # the absent seat's instant timer is queued; the human announces first, then it fires early
    r = table.act(gid, tokens[slow], {"type": "announce"})
    assert r.status_code == 200
    table.drain()
    assert table.view(gid)["turn"]["seat"] == slow and len(_timeouts(table, gid, owner)) == 1
    clock.advance(10_000)
    table.drain()
    assert len(_timeouts(table, gid, owner)) == 2  # re-armed at the full deadline, then fired


def test_bot_autopilot_plays_the_absent_seat(table: Table, clock):
    gid, owner, tokens = _two_humans(table, max_consecutive_timeouts=1, absent_policy="bot_autopilot")
    slow = table.view(gid)["turn"]["seat"]
    other = 1 - slow
    clock.advance(10_000)
    table.drain()
    r = table.act(gid, tokens[other], {"type": "draw"})
    assert r.status_code == 200
    clock.advance(3_000)  # the easy bot's delay
    table.drain()
    events = _timeouts_or_all(table, gid, owner)
    mine = [e for e in events if e["seat"] == slow and e["type"] in ("CardPlayed", "CardDrawn", "TurnPassed")]
    assert mine and mine[-1]["data"].get("auto") is True
    assert len(_timeouts(table, gid, owner)) == 1  # the bot moved, no second timeout
    assert table.view(gid)["seats"][slow]["state"] == "absent"
