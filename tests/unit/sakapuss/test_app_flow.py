"""Sakapuss through the real app (Flask + in-memory store): timers, bots, redaction, errors."""
from __future__ import annotations

from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import Clock, Table, auth


def _table() -> Table:
    clock = Clock()
    app = create_app(Settings(), store=MemoryEventStore())
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def test_a_match_with_bots_runs_to_the_end_on_timers_and_bot_jobs():
    t = _table()
    r = t.client.post("/v1/games", json={"variant": "sakapuss", "options": {
        "rounds": 2, "pass_timeout_s": 5, "max_pass_steps_per_round": 20, "round_intermission_s": 0}})
    assert r.status_code == 201, r.json
    gid, owner = r.json["id"], r.json["owner_token"]
    me = t.join(gid, "ann", owner)
    t.add_bot(gid, owner)
    t.add_bot(gid, owner)
    fourth = t.client.post(f"/v1/games/{gid}/seats", json={"name": "bob"})
    t.start(gid, owner)
    assert t.client.post(f"/v1/games/{gid}/seats", json={"name": "late"}).json["code"] == "joining_closed"
    view = t.view(gid, me["token"])
    assert view["phase"] == "passing" and view["turn"]["seat"] is None and len(view["you"]["hand"]) == 4
    bad = t.act(gid, me["token"], {"type": "play", "card": "7H"})
    assert bad.status_code == 422 and bad.json["code"] == "invalid_action"
    step = view["table"]["step"]
    kind = view["you"]["hand"][0].split(":")[1]
    ok = t.act(gid, me["token"], {"type": "pass_card", "kind": kind, "step": step})
    assert ok.status_code == 200, ok.json
    assert t.act(gid, me["token"], {"type": "pass_card", "kind": kind, "step": step + 1}).json["code"] == "wrong_step"
    spectator = t.client.get(f"/v1/games/{gid}/events?after=0").json["events"]
    assert all("private" not in e for e in spectator)
    for _ in range(400):
        t.clock.advance(500)
        t.drain()
        if t.view(gid)["status"] == "finished":
            break
    final = t.view(gid)
    assert final["status"] == "finished" and len(final["scores"]) == 2
    history = t.client.get(f"/v1/games/{gid}/history", headers=auth(owner))
    assert history.status_code == 200
    types = [e["type"] for e in history.json["events"]]
    assert types[-2:] == ["MatchEnded", "SeedsRevealed"] and "PassesResolved" in types
    assert fourth.status_code == 201
    verify = t.client.get(f"/v1/games/{gid}/verify", headers=auth(owner))
    assert verify.status_code == 200, verify.json
    assert verify.json.get("ok", True) is not False, verify.json
