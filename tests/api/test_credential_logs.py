"""Credential records through the API (in-memory store; every answer checked against openapi.yaml):
their ``version`` and ETag, If-Match on their changes (412 ``version_conflict`` when stale, as for
games), revoke and delete final, and their audit logs — content (when, what, version, who; never a
secret), cap (the last 100), access (the admin token for keys, the owning key for bots and webhooks:
another key gets 404, as for an unknown id; a deleted bot's or webhook's log stays its owner's)."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from service.api.app import create_app
from service.app import credentials, webhooks as wh
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import ADMIN, UNPACED, Clock, Table, auth
from tests.api.spec_check import SpecCheckingClient


@pytest.fixture
def app_table(clock: Clock, random_bytes: Any) -> Iterator[Table]:
    settings = Settings(admin_token_hash=hashlib.sha256(ADMIN.encode()).hexdigest(), outbound_allow_private=True,
                        **UNPACED)
    app = create_app(settings, store=MemoryEventStore())
    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    yield Table(app, clock, random_bytes)


def admin(table: Table, method: str, path: str, **headers: str) -> Any:
    return table.client.open(f"/v1/admin/keys{path}", method=method, json={"name": "portal"} if path == "" else None,
                             headers={**auth(ADMIN), **headers})


def new_key(table: Table) -> tuple[str, str]:
    made = admin(table, "POST", "").json
    return made["key"]["id"], made["secret"]


def no_secrets(log: list[dict[str, Any]], *secrets: str) -> None:
    text = orjson.dumps(log).decode()
    assert all(s not in text for s in secrets) and "hash" not in text
    assert all(set(e) == {"at", "action", "version", "by"} for e in log)


def test_a_keys_versions_if_match_and_log(app_table: Table) -> None:
    table = app_table
    kid, first = new_key(table)
    r = admin(table, "GET", f"/{kid}")
    assert r.json["version"] == 1 and r.headers["ETag"] == '"1"'
    stale = admin(table, "POST", f"/{kid}/rotate", **{"If-Match": '"7"'})
    assert (stale.status_code, stale.json["code"], stale.json["version"]) == (412, "version_conflict", 1)
    assert stale.headers["ETag"] == '"1"'
    rotated = admin(table, "POST", f"/{kid}/rotate", **{"If-Match": '"1"'})
    assert rotated.status_code == 200 and rotated.json["key"]["version"] == 2 and rotated.headers["ETag"] == '"2"'
    revoked = admin(table, "POST", f"/{kid}/revoke")
    assert revoked.json["version"] == 3 and not revoked.json["active"]
    again = admin(table, "POST", f"/{kid}/rotate")
    assert (again.status_code, again.json["code"]) == (409, "key_revoked")
    assert admin(table, "POST", f"/{kid}/revoke").json["version"] == 3  # idempotent: nothing changes
    log = admin(table, "GET", f"/{kid}/log").json["entries"]
    assert [(e["action"], e["version"], e["by"]) for e in log] == [
        ("revoked", 3, "admin"), ("rotated", 2, "admin"), ("created", 1, "admin")]
    no_secrets(log, first, rotated.json["secret"])
    assert admin(table, "GET", "/k0000000000/log").status_code == 404
    assert table.client.get(f"/v1/admin/keys/{kid}/log").status_code == 401  # the admin token only


def test_a_log_keeps_the_last_hundred_changes(app_table: Table) -> None:
    table = app_table
    kid, _ = new_key(table)
    for _ in range(credentials.LOG_KEEP + 4):
        assert admin(table, "POST", f"/{kid}/rotate").status_code == 200
    log = admin(table, "GET", f"/{kid}/log").json["entries"]
    assert len(log) == credentials.LOG_KEEP == 100
    assert log[0]["version"] == credentials.LOG_KEEP + 5 and log[-1]["version"] == 6  # the oldest went


def test_a_bots_log_is_its_keys_and_outlives_its_delete(app_table: Table) -> None:
    table = app_table
    kid, key = new_key(table)
    _, other = new_key(table)
    mine, theirs = {"Meow-Key": key}, {"Meow-Key": other}
    made = table.client.post("/v1/bots", json={"name": "Felix", "url": "http://127.0.0.1:9/x", "games": ["prsi"]},
                             headers=mine)
    assert made.status_code == 201 and made.json["version"] == 1
    bid = made.json["id"]
    r = table.client.post(f"/v1/bots/{bid}/rotate", headers=mine)
    assert r.json["version"] == 2 and r.headers["ETag"] == '"2"'
    stale = table.client.delete(f"/v1/bots/{bid}", headers={**mine, "If-Match": '"1"'})
    assert (stale.status_code, stale.json["code"], stale.json["version"]) == (412, "version_conflict", 2)
    assert table.client.get(f"/v1/bots/{bid}/log", headers=theirs).status_code == 404
    assert table.client.delete(f"/v1/bots/{bid}", headers={**mine, "If-Match": '"2"'}).status_code == 204
    assert table.client.post(f"/v1/bots/{bid}/rotate", headers=mine).status_code == 404  # never back
    log = table.client.get(f"/v1/bots/{bid}/log", headers=mine).json["entries"]
    assert [(e["action"], e["version"], e["by"]) for e in log] == [("deleted", 3, kid), ("rotated", 2, kid),
                                                                   ("created", 1, kid)]
    no_secrets(log, made.json["secret"], r.json["secret"])
    assert table.client.get(f"/v1/bots/{bid}/log", headers=theirs).status_code == 404
    assert table.client.get("/v1/bots/bffffffffffff/log", headers=mine).status_code == 404


def test_a_webhooks_log_names_who_disabled_and_enabled_it(app_table: Table) -> None:
    table = app_table
    kid, key = new_key(table)
    _, other = new_key(table)
    mine, theirs = {"Meow-Key": key}, {"Meow-Key": other}
    made = table.client.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["match.ended"]},
                             headers=mine)
    hid = made.json["id"]
    assert made.json["version"] == 1
    ctx = table.service
    assert wh.disable(ctx, kid, hid, table.clock.now) and not wh.disable(ctx, kid, hid, table.clock.now)
    assert table.client.post(f"/v1/webhooks/{hid}/enable", headers=theirs).status_code == 404
    stale = table.client.post(f"/v1/webhooks/{hid}/enable", headers={**mine, "If-Match": '"1"'})
    assert (stale.status_code, stale.json["code"]) == (412, "version_conflict")
    on = table.client.post(f"/v1/webhooks/{hid}/enable", headers={**mine, "If-Match": '"2"'})
    assert on.json["enabled"] and on.json["version"] == 3 and on.headers["ETag"] == '"3"'
    rotated = table.client.post(f"/v1/webhooks/{hid}/rotate", headers=mine)
    assert rotated.json["version"] == 4
    assert table.client.delete(f"/v1/webhooks/{hid}", headers=mine).json["version"] == 4  # as it was
    assert table.client.post(f"/v1/webhooks/{hid}/rotate", headers=mine).status_code == 404
    assert table.client.get(f"/v1/webhooks/{hid}/log", headers=theirs).status_code == 404
    log = table.client.get(f"/v1/webhooks/{hid}/log", headers=mine).json["entries"]
    assert [(e["action"], e["version"], e["by"]) for e in log] == [
        ("deleted", 5, kid), ("rotated", 4, kid), ("enabled", 3, kid), ("disabled", 2, "deliveries"),
        ("created", 1, kid)]
    no_secrets(log, made.json["secret"], rotated.json["secret"])
