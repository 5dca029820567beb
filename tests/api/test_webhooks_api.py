"""Webhooks in-process (issue 30 item 3): the key's endpoints, and deliveries made by the follow-up
jobs (run by ``drain`` as a worker would) to a real receiver on loopback — signed, redacted as a
spectator sees the event, retried with backoff, logged, replayed, and a dead endpoint disabled."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import pairwise
from typing import Any

import pytest

from service import metrics
from service.api.app import create_app
from service.app import api_keys, webhook_jobs, webhooks as wh
from service.eventstore.contract import SHARDS
from service.eventstore.memory import MemoryEventStore
from service.outbound.signing import verify
from service.settings import Settings
from tools.webhook_receiver import Receiver, Script

from .conftest import UNPACED, Clock, Table, fast_options

HOOKS = dict(outbound_allow_private=True, webhook_retry_base_ms=1000, webhook_retry_for_s=60, webhook_disable_after=2,
             webhooks_per_key=3, webhook_timeout_s=5.0)


@pytest.fixture
def keyed(clock: Clock, random_bytes: Any) -> Iterator[tuple[Table, str, str]]:
    """The app on the in-memory store with webhooks to loopback allowed; a key (id, presented)."""
    app = create_app(Settings(**UNPACED, **HOOKS), store=MemoryEventStore())
    from .spec_check import SpecCheckingClient

    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    table = Table(app, clock, random_bytes)
    key, presented = api_keys.create(table.service.api_keys, "portal", now_ms=clock.now)
    yield table, key.id, presented


def hdr(key: str) -> dict[str, str]:
    return {"Meow-Key": key}


def subscribe(table: Table, key: str, url: str, events: list[str]) -> dict:
    r = table.client.post("/v1/webhooks", json={"url": url, "events": events}, headers=hdr(key))
    assert r.status_code == 201, r.json
    return r.json


def keyed_table(table: Table, key: str | None) -> dict:
    """A new two-seat one-round table, created with the API key ``key`` (its own) or anonymously."""
    body = {"variant": "prsi", "options": {**fast_options("prsi"), "match_end_mode": "single_round"}, "max_players": 2}
    r = table.client.post("/v1/games", json=body, headers=hdr(key) if key else {})
    assert r.status_code == 201, r.json
    return r.json


def bots_match(table: Table, key: str | None) -> str:
    """A bots-only one-round match of a table of the API key ``key`` (None: anonymous), played to its end."""
    g = keyed_table(table, key)
    for _ in range(2):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(200):
        if table.service.load(g["id"]).status == "finished":
            break
        if not table.drain():
            table.clock.advance(1000)
    assert table.service.load(g["id"]).status == "finished"
    table.drain()
    return g["id"]


def settle(table: Table, receiver: Receiver, *, until: Any, step_ms: int = 1000, rounds: int = 60) -> None:
    """Run due jobs and move the test clock on until ``until()``; the receiver answers in between."""
    for _ in range(rounds):
        table.drain()
        if until():
            return
        table.clock.advance(step_ms)
    raise AssertionError("the deliveries did not settle")


def test_endpoints_need_a_key_show_their_secret_once_and_are_capped(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    body = {"url": "http://127.0.0.1:9/hooks", "events": ["match.ended"]}
    assert table.client.post("/v1/webhooks", json=body).json["code"] == "key_required"
    assert table.client.get("/v1/webhooks", headers=hdr("meow_k0000000000_" + "x" * 43)).json["code"] == "key_invalid"
    made = subscribe(table, key, body["url"], ["match.ended", "seat.left"])
    assert made["secret"].startswith("whsec_") and made["enabled"] and made["events"] == ["match.ended", "seat.left"]
    listed = table.client.get("/v1/webhooks", headers=hdr(key)).json["webhooks"]
    assert [h["id"] for h in listed] == [made["id"]] and "secret" not in listed[0]
    rotated = table.client.post(f"/v1/webhooks/{made['id']}/rotate", headers=hdr(key)).json
    assert rotated["secret"] != made["secret"] and rotated["rotated_at"]
    for _ in range(2):
        subscribe(table, key, body["url"], ["match.ended"])
    over = table.client.post("/v1/webhooks", json=body, headers=hdr(key))
    assert (over.status_code, over.json["code"]) == (409, "webhook_limit")
    assert table.client.delete(f"/v1/webhooks/{made['id']}", headers=hdr(key)).json["id"] == made["id"]
    assert table.client.delete(f"/v1/webhooks/{made['id']}", headers=hdr(key)).status_code == 404
    # another key sees none of them
    _, other = api_keys.create(table.service.api_keys, "other", now_ms=table.clock.now)
    assert table.client.get("/v1/webhooks", headers=hdr(other)).json["webhooks"] == []
    assert table.client.post(f"/v1/webhooks/{listed[0]['id']}/rotate", headers=hdr(other)).status_code == 404


def test_a_url_inside_the_network_or_malformed_is_refused_unless_allowed(clock: Clock) -> None:
    app = create_app(Settings(outbound_allow_private=False), store=MemoryEventStore())
    svc = app.extensions["meow.service"]
    _, key = api_keys.create(svc.api_keys, "p", now_ms=clock.now)
    for url, reason in (("http://10.0.0.8/h", "address_refused"), ("http://[::1]/h", "address_refused"),
                        ("http://169.254.169.254/latest", "address_refused"), ("http://[fd00::1]/h", "address_refused"),
                        ("http://[::ffff:127.0.0.1]/h", "address_refused"), ("http://localhost:8000/h", "address_refused"),
                        ("ftp://x.example/", "bad_url"), ("http://user:pw@hooks.example/", "bad_url")):
        r = app.test_client().post("/v1/webhooks", json={"url": url, "events": ["match.ended"]}, headers=hdr(key))
        assert (r.status_code, r.json["code"], r.json["reason"]) == (422, "webhook_url_refused", reason), (url, r.json)
    assert app.test_client().get("/v1/webhooks", headers=hdr(key)).json["webhooks"] == []  # nothing changed


def test_a_finished_match_is_delivered_once_signed_and_as_a_spectator_sees_it(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        made = subscribe(table, key, receiver.url, ["match.started", "match.ended", "seat.joined"])
        receiver.set_secret(made["secret"])
        gid = bots_match(table, key)
        table.drain()
        kept = receiver.kept()
        types = sorted(r.json()["type"] for r in kept)
        assert types == ["match.ended", "match.started", "seat.joined", "seat.joined"], types
        assert all(r.verified for r in kept) and receiver.state.forged == 0
        assert sum(receiver.state.repeats.values()) == 0
        ended = next(r for r in kept if r.json()["type"] == "match.ended")
        body = ended.json()
        assert body["id"] == ended.delivery_id and body["game"]["id"] == gid
        # the event exactly as a spectator's feed shows it: nothing private, nothing secret
        feed = table.client.get(f"/v1/games/{gid}/events", query_string={"after": body["event"]["seq"] - 1}).json
        assert body["event"] == feed["events"][0]
        assert "private" not in body["event"] and "secret" not in body["event"]
        assert ended.headers["Meow-Event"] == "match.ended"
        assert not verify("whsec_forged", ended.body, ended.headers, now=table.clock.now // 1000)
        log = table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]
        assert {d["status"] for d in log} == {"delivered"} and len(log) == 4
        # an anonymous table's events go nowhere (and its fan-out job says why)
        bots_match(table, None)
        assert len(receiver.kept()) == 4


def test_a_receiver_that_fails_three_times_gets_the_delivery_with_backoff(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    with Receiver(script=Script(fail_first=3), clock=lambda: table.clock.now / 1000) as receiver:
        receiver.set_secret(subscribe(table, key, receiver.url, ["match.ended"])["secret"])
        bots_match(table, key)
        settle(table, receiver, until=lambda: bool(receiver.kept()))
        [got] = receiver.kept()
        assert receiver.state.attempts[got.delivery_id] == 4 and got.json()["type"] == "match.ended"
        [entry] = table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]
        assert entry["status"] == "delivered" and entry["attempts"] == 4
        assert [t["status"] for t in entry["tries"]] == [500, 500, 500, 200]
        at = [datetime.fromisoformat(t["at"].replace("Z", "+00:00")).timestamp() for t in entry["tries"]]
        assert all(round(b - a) >= w for a, b, w in zip(at[:-1], at[1:], (1, 2, 4), strict=True))  # exponential backoff
        [hook] = table.client.get("/v1/webhooks", headers=hdr(key)).json["webhooks"]
        assert hook["enabled"] and hook["failing_since"] is None  # a success forgets the failures


def test_a_dead_endpoint_is_backed_off_then_disabled_with_a_notice(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    with Receiver(script=Script(fail_first=10**6), clock=lambda: table.clock.now / 1000) as receiver:
        made = subscribe(table, key, receiver.url, ["match.ended"])
        receiver.set_secret(made["secret"])
        given_up = metrics.WEBHOOK_DELIVERIES.labels("given_up")._value.get()

        def statuses() -> list[str]:
            return [d["status"] for d in table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]]

        for _ in range(2):
            bots_match(table, key)
        settle(table, receiver, until=lambda: statuses() == ["failed", "failed"], step_ms=5000)
        [hook] = table.client.get("/v1/webhooks", headers=hdr(key)).json["webhooks"]
        assert not hook["enabled"] and hook["notice"]["code"] == "endpoint_disabled" and hook["failed_deliveries"] == 2
        assert metrics.WEBHOOK_DELIVERIES.labels("given_up")._value.get() == given_up + 2
        tried = sum(receiver.state.attempts.values())
        # attempts are bounded: each delivery backs off (1 s, 2 s, 4 s ... within 60 s: at most 6 each)
        assert 2 <= tried <= 12, tried
        bots_match(table, key)  # a disabled endpoint gets no new deliveries
        table.drain()
        assert len(statuses()) == 2
        back = table.client.post(f"/v1/webhooks/{made['id']}/enable", headers=hdr(key)).json
        assert back["enabled"] and back["notice"] is None and back["failed_deliveries"] == 0


def test_a_delivery_is_replayed_byte_for_byte_under_its_id(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        receiver.set_secret(subscribe(table, key, receiver.url, ["match.ended"])["secret"])
        bots_match(table, key)
        [first] = receiver.kept()
        r = table.client.post(f"/v1/webhooks/deliveries/{first.delivery_id}/replay", headers=hdr(key))
        assert r.status_code == 202 and r.json["status"] == "pending"
        table.drain()
        assert receiver.state.repeats[first.delivery_id] == 1  # the same id again: a receiver drops it
        assert table.client.post("/v1/webhooks/deliveries/dlv_000000000000000000000000/replay",
                                 headers=hdr(key)).status_code == 404


def test_a_rotated_secret_signs_beside_the_old_one_during_the_grace(keyed: tuple[Table, str, str]) -> None:
    table, _, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        made = subscribe(table, key, receiver.url, ["match.ended"])
        receiver.set_secret(made["secret"])  # the receiver still holds the old secret
        new = table.client.post(f"/v1/webhooks/{made['id']}/rotate", headers=hdr(key)).json["secret"]
        bots_match(table, key)
        [got] = receiver.kept()
        now = table.clock.now // 1000
        assert verify(made["secret"], got.body, got.headers, now=now) and verify(new, got.body, got.headers, now=now)


def test_the_fan_out_job_is_idempotent(keyed: tuple[Table, str, str]) -> None:
    """A fan-out job run twice (a worker that died before finishing it) makes no second delivery."""
    table, _, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        receiver.set_secret(subscribe(table, key, receiver.url, ["match.ended"])["secret"])
        gid = bots_match(table, key)
        ended = next(e for e in table.service.event_log.read(gid) if e.type == "MatchEnded")
        payload = dict(wh.fan_out_followup(table.service, gid, [ended])[0].payload)
        assert webhook_jobs.fan_out(table.service, payload) == "fanned"
        table.drain()
        assert len(receiver.kept()) == 1 and sum(receiver.state.attempts.values()) == 1



def test_the_fan_out_sends_nothing_itself(keyed: tuple[Table, str, str]) -> None:
    """Issue 37: the fan-out job made up to 8 first attempts inline, each allowed the whole webhook
    timeout, under one job timeout; now it reaches no receiver and leaves each delivery's first
    attempt due as a job of its own, whose job timeout is the attempt's deadline plus a margin."""
    table, key_id, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as one, Receiver(clock=lambda: table.clock.now / 1000) as two:
        gid = bots_match(table, key)  # played before anyone subscribed: its fan-outs found no endpoint
        for receiver in (one, two):
            made = subscribe(table, key, receiver.url, ["seat.joined", "match.started", "round.scored", "match.ended"])
            receiver.set_secret(made["secret"])
        events = table.service.event_log.read(gid)
        payload = dict(wh.fan_out_followup(table.service, gid, events)[0].payload)
        assert webhook_jobs.fan_out(table.service, payload) == "fanned"
        assert sum(one.state.attempts.values()) + sum(two.state.attempts.values()) == 0  # nothing sent by it
        due = [c.payload for s in SHARDS for c in table.service.store.claim_due(s, table.clock.now, 60_000)]
        assert len(due) == 10 and {p["kind"] for p in due} == {"hooksend"}  # 5 events x 2 endpoints
        assert {p["timeout_s"] for p in due} == {HOOKS["webhook_timeout_s"] + wh.JOB_MARGIN_S}
        # the hooks lane shares its threads by the key owning the endpoint (workers/hooks_lane.py)
        assert {webhook_jobs.owner_of_job(table.service, p) for p in [payload, *due]} == {key_id}
        assert [webhook_jobs.send(table.service, dict(p)) for p in due] == ["delivered"] * 10
        assert len(one.kept()) == len(two.kept()) == 5


LEASE = 10_000  # the workers' (Settings.lease_ms)


def work_as_run_due(table: Table, lease_ms: int = LEASE) -> int:
    """Run the due jobs as workers/tasks.run_due does: a job's entry is finished only once it
    returned; one that raised (its worker killed) stays claimed until its lease runs out."""
    store, ran = table.service.store, 0
    while True:
        batch = [(s, c) for s in SHARDS for c in store.claim_due(s, table.clock.now, lease_ms)]
        if not batch:
            return ran
        for shard, claimed in batch:
            try:
                table.service.run_followup(dict(claimed.payload))
            except SystemExit:
                continue
            store.finish_due(shard, claimed.job_id)
            ran += 1


def killed_after_sending(monkeypatch: pytest.MonkeyPatch, times: int = 10**6) -> list[str]:
    """The first ``times`` attempts reach the receiver, then their job is killed before the answer is
    recorded (as the job timeout kills one whose receiver trickles); the delivery ids, in order."""
    real, killed = webhook_jobs.post_json, []

    def post_then_die(url: str, body: bytes, headers: Any, **kw: Any) -> Any:
        reply = real(url, body, headers, **kw)
        if len(killed) < times:
            killed.append(headers["Meow-Delivery"])
            raise SystemExit("killed after sending, before recording")
        return reply

    monkeypatch.setattr(webhook_jobs, "post_json", post_then_die)
    return killed


def lease_runs_out(table: Table, lease_ms: int) -> None:
    table.clock.advance(lease_ms + 1)
    for shard in SHARDS:
        table.service.store.recover_expired(shard, table.clock.now)


def test_a_send_whose_worker_died_counts_as_failed_and_is_sent_again_under_the_same_id(
        keyed: tuple[Table, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """At least once: an attempt is recorded before it is sent, so a worker that sent it and died
    before recording its outcome (its due job never finished) leaves the attempt due again once its
    lease runs out; that run counts it as failed (``interrupted``) and retries after the backoff;
    the receiver drops the repeat by its id."""
    table, _, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        receiver.set_secret(subscribe(table, key, receiver.url, ["match.ended"])["secret"])
        died = killed_after_sending(monkeypatch, times=1)
        g = keyed_table(table, key)
        for _ in range(2):
            table.add_bot(g["id"], g["owner_token"])
        table.start(g["id"], g["owner_token"])
        for _ in range(200):
            if died:
                break
            if not work_as_run_due(table, LEASE):
                table.clock.advance(1000)
        assert died and len(receiver.kept()) == 1
        assert work_as_run_due(table, LEASE) == 0  # the attempt is held by the dead worker's lease
        [entry] = table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]
        assert (entry["status"], entry["attempts"], entry["tries"]) == ("pending", 1, [])  # under way
        lease_runs_out(table, LEASE)
        work_as_run_due(table, LEASE)
        [entry] = table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]
        assert (entry["status"], entry["attempts"]) == ("pending", 1) and entry["next_attempt_at"]
        assert [(t["status"], t["error"]) for t in entry["tries"]] == [(None, "interrupted")]
        table.clock.advance(1000)  # its backoff
        work_as_run_due(table, LEASE)
        [got] = receiver.kept()
        assert got.delivery_id == died[0] and receiver.state.repeats[got.delivery_id] == 1
        [entry] = table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]
        assert entry["status"] == "delivered" and [t["error"] for t in entry["tries"]] == ["interrupted", None]


def test_attempts_killed_before_their_outcome_are_counted_back_off_and_disable_the_endpoint(
        keyed: tuple[Table, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37: a trickling receiver had every attempt killed by the job timeout before it was
    recorded: 41 attempts reached it, its log said 0, it never backed off nor was disabled. Now every
    attempt that reached it is counted in the log, each delivery backs off and is given up within
    its retry window, and the endpoint is disabled after ``webhook_disable_after`` of them."""
    table, _, key = keyed
    lease = LEASE
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        made = subscribe(table, key, receiver.url, ["match.ended"])
        receiver.set_secret(made["secret"])
        killed_after_sending(monkeypatch)
        for _ in range(2):
            bots_match_as_run_due(table, key, lease)

        def log() -> list[dict]:
            return table.client.get("/v1/webhooks/deliveries", headers=hdr(key)).json["deliveries"]

        for _ in range(200):
            if [d["status"] for d in log()] == ["failed", "failed"]:
                break
            work_as_run_due(table, lease)
            lease_runs_out(table, lease)
        entries = log()
        assert [d["status"] for d in entries] == ["failed", "failed"]
        for d in entries:  # every attempt that reached the receiver is in the log, each one failed
            assert d["attempts"] == receiver.state.attempts[d["id"]] >= 2
            assert {t["error"] for t in d["tries"]} == {"interrupted"}
            at = [datetime.fromisoformat(t["at"].replace("Z", "+00:00")).timestamp() for t in d["tries"]]
            assert all(b - a > lease / 1000 for a, b in pairwise(at))  # backed off
        [hook] = table.client.get("/v1/webhooks", headers=hdr(key)).json["webhooks"]
        assert not hook["enabled"] and hook["notice"]["code"] == "endpoint_disabled" and hook["failed_deliveries"] == 2
        tried = sum(receiver.state.attempts.values())
        for _ in range(5):  # a disabled endpoint is knocked on no more
            lease_runs_out(table, lease)
            work_as_run_due(table, lease)
        assert sum(receiver.state.attempts.values()) == tried


def bots_match_as_run_due(table: Table, key: str, lease_ms: int) -> str:
    """``bots_match``, its jobs run by ``work_as_run_due`` (a killed one waits for its lease)."""
    g = keyed_table(table, key)
    for _ in range(2):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(200):
        if table.service.load(g["id"]).status == "finished":
            return str(g["id"])
        if not work_as_run_due(table, lease_ms):
            table.clock.advance(1000)
    raise AssertionError("the match did not end")


def test_a_revoked_keys_tables_send_nothing_more(keyed: tuple[Table, str, str]) -> None:
    table, key_id, key = keyed
    with Receiver(clock=lambda: table.clock.now / 1000) as receiver:
        receiver.set_secret(subscribe(table, key, receiver.url, ["seat.joined", "match.ended"])["secret"])
        g = keyed_table(table, key)
        table.add_bot(g["id"], g["owner_token"])
        table.drain()
        assert [r.json()["type"] for r in receiver.kept()] == ["seat.joined"]
        api_keys.revoke(table.service.api_keys, key_id, now_ms=table.clock.now)
        table.add_bot(g["id"], g["owner_token"])
        table.drain()
        assert len(receiver.kept()) == 1
