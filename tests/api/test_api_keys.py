"""API keys and private tables through the API (in-memory store; the same on the real stack:
tests/e2e/test_keys_stack.py): the operator's endpoints, a keyed table and the key's lobby, a
private table that is no table for whoever holds none of its codes, and the key's usage metrics."""
from __future__ import annotations

from typing import Any

import orjson
import pytest

from service import metrics
from service.api.app import create_app
from service.app import compaction
from service.app.api_keys import table_key
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import ADMIN, FAST, Clock, Table, auth


def _key(table: Table, name: str = "portal", **quotas: int) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, **({"quotas": quotas} if quotas else {})}
    r = table.client.post("/v1/admin/keys", json=body, headers=auth(ADMIN))
    assert r.status_code == 201, r.json
    return r.json


def _k(secret: str, token: str | None = None) -> dict[str, str]:
    return {"Meow-Key": secret, **auth(token)}


def _private(table: Table, secret: str) -> dict[str, Any]:
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": FAST, "private": True}, headers=_k(secret))
    assert r.status_code == 201, r.json
    return r.json


def _lobby_ids(table: Table) -> set[str]:
    ids: set[str] = set()
    for status in (None, "open", "running", "finished"):
        q = {"limit": 100, **({"status": status} if status else {})}
        ids |= {g["id"] for g in table.client.get("/v1/games", query_string=q).json["games"]}
    return ids


# ------------------------------------------------------------------ the operator's keys
def test_admin_endpoints_are_an_unknown_path_without_an_admin_token() -> None:
    table = Table(create_app(Settings(), store=MemoryEventStore()), Clock())
    unknown = table.client.get("/v1/nothing-here")
    for method, path in (("GET", "/v1/admin/keys"), ("POST", "/v1/admin/keys"), ("POST", "/v1/admin/keys/k0123456789/rotate")):
        r = table.client.open(path, method=method, json={"bad": 1}, headers=auth(ADMIN))
        assert (r.status_code, r.json) == (404, unknown.json), (method, path)


def test_the_operator_creates_lists_rotates_and_revokes_a_key(table: Table) -> None:
    assert table.client.get("/v1/admin/keys").status_code == 401
    assert table.client.get("/v1/admin/keys", headers=auth("wrong")).json["code"] == "unauthorized"
    made = _key(table, creates_per_minute=5)
    key, secret = made["key"], made["secret"]
    assert key["quotas"]["creates_per_minute"] == 5 and key["limits"]["creates_per_minute"] == 5
    assert key["limits"]["reads_per_minute"] == Settings().key_reads_per_minute  # the default for keys
    listed = table.client.get("/v1/admin/keys", headers=auth(ADMIN))
    assert [k["id"] for k in listed.json["keys"]] == [key["id"]] and secret.encode() not in listed.get_data()
    assert table.client.get(f"/v1/admin/keys/{key['id']}", headers=auth(ADMIN)).json["name"] == "portal"
    me = table.client.get("/v1/keys/me", headers=_k(secret))
    assert me.status_code == 200 and me.json["id"] == key["id"] and secret.encode() not in me.get_data()

    rotated = table.client.post(f"/v1/admin/keys/{key['id']}/rotate", headers=auth(ADMIN)).json
    assert rotated["key"]["id"] == key["id"] and rotated["secret"] != secret
    for h in (_k(secret), _k(secret + "x"), _k("not a key")):  # the old secret, a wrong one, garbage
        r = table.client.get("/v1/variants", headers=h)
        assert (r.status_code, r.json["code"]) == (401, "key_invalid")
    assert table.client.get("/v1/keys/me", headers=_k(rotated["secret"])).status_code == 200

    revoked = table.client.post(f"/v1/admin/keys/{key['id']}/revoke", headers=auth(ADMIN)).json
    assert revoked["active"] is False and revoked["revoked_at"]
    assert table.client.get("/v1/keys/me", headers=_k(rotated["secret"])).json["code"] == "key_invalid"
    assert table.client.post(f"/v1/admin/keys/{key['id']}/rotate", headers=auth(ADMIN)).status_code == 404
    assert table.client.get("/v1/keys/me").json["code"] == "key_required"
    assert table.client.get("/v1/admin/keys/k0000000000", headers=auth(ADMIN)).status_code == 404


def test_the_cap_on_keys(clock: Clock) -> None:
    import hashlib

    table = Table(create_app(Settings(admin_token_hash=hashlib.sha256(ADMIN.encode()).hexdigest(), max_api_keys=1),
                             store=MemoryEventStore()), clock)
    _key(table)
    r = table.client.post("/v1/admin/keys", json={"name": "two"}, headers=auth(ADMIN))
    assert (r.status_code, r.json["code"]) == (409, "too_many_keys")


# ------------------------------------------------------------------ a key's tables
def test_a_keyed_table_is_the_keys_and_nobody_at_the_table_learns_which_key(table: Table) -> None:
    made = _key(table)
    kid, secret = made["key"]["id"], made["secret"]
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": FAST}, headers=_k(secret))
    assert r.status_code == 201 and r.json["private"] is False
    gid, owner = r.json["id"], r.json["owner_token"]
    assert table_key(table.service, gid) == kid
    assert table_key(table.service, table.create()["id"]) is None  # anonymous
    seat = table.join(gid, "bob")
    table.add_bot(gid, owner)
    table.start(gid, owner)
    table.drain()
    answers = [table.client.get(f"/v1/games/{gid}", headers=auth(t)).get_data() for t in (None, owner, seat["token"])]
    answers.append(table.client.get(f"/v1/games/{gid}/events", headers=auth(seat["token"])).get_data())
    answers.append(table.client.get("/v1/games").get_data())
    assert gid in answers[-1].decode()  # a keyed table that is not private is in the public lobby
    assert all(kid.encode() not in a and secret.encode() not in a for a in answers)
    mine = table.client.get("/v1/keys/me/games", headers=_k(secret)).json
    assert [g["id"] for g in mine["games"]] == [gid] and mine["games"][0]["private"] is False
    other = _key(table, "other")
    assert table.client.get("/v1/keys/me/games", headers=_k(other["secret"])).json["games"] == []


def test_the_keys_lobby_pages_newest_first(table: Table) -> None:
    secret = _key(table)["secret"]
    made = []
    for _ in range(5):
        made.append(table.client.post("/v1/games", json={"variant": "prsi"}, headers=_k(secret)).json["id"])
        table.clock.advance(1)
    seen, cursor = [], None
    while True:
        q = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = table.client.get("/v1/keys/me/games", query_string=q, headers=_k(secret)).json
        seen += [g["id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == made[::-1]


# ------------------------------------------------------------------ private tables
def test_a_private_table_is_no_table_without_its_codes(table: Table) -> None:
    secret = _key(table)["secret"]
    assert table.client.post("/v1/games", json={"variant": "prsi", "private": True}).json["code"] == "key_required"
    g = _private(table, secret)
    gid, owner, invite, watch = g["id"], g["owner_token"], g["invite_code"], g["spectator_token"]
    assert g["private"] is True and invite and watch
    unknown_id = "f" * 16 if gid != "f" * 16 else "e" * 16
    for path in ("", "/events", "/state?at=1"):
        mine, unknown = (table.client.get(f"/v1/games/{i}{path}") for i in (gid, unknown_id))
        assert (mine.status_code, mine.json) == (404, unknown.json), path  # the same answer, byte for byte
    assert gid not in _lobby_ids(table)

    def join(body: dict[str, Any], game: str = gid, token: str | None = None) -> Any:
        return table.client.post(f"/v1/games/{game}/seats", json=body, headers=auth(token))

    assert (join({"name": "eve"}).status_code, join({"name": "eve"}).json) == (404, join({"name": "eve"}, unknown_id).json)
    for game in (gid, unknown_id):  # a wrong code, and a code for no table, answer alike
        r = join({"name": "eve", "invite": "wrong-code"}, game)
        assert (r.status_code, r.json["code"]) == (404, "invite_invalid")
    assert join({"name": "eve"}, token=watch).status_code == 404  # watching is not sitting
    ann = join({"name": "ann", "invite": invite})
    assert ann.status_code == 201, ann.json

    # its spectator token watches: the view, the events, a past view; not the seats' hands
    view = table.client.get(f"/v1/games/{gid}", headers=auth(watch))
    assert view.status_code == 200 and "you" not in view.json
    assert table.client.get(f"/v1/games/{gid}/events", headers=auth(watch)).status_code == 200
    assert table.client.get(f"/v1/games/{gid}/state?at=1", headers=auth(watch)).status_code == 200

    # the owner rotates both: the old ones are refused from then on
    new_invite = table.client.post(f"/v1/games/{gid}/invite", headers=auth(owner)).json["invite_code"]
    new_watch = table.client.post(f"/v1/games/{gid}/spectator-token", headers=auth(owner)).json["spectator_token"]
    assert join({"name": "eve", "invite": invite}).json["code"] == "invite_invalid"
    assert table.client.get(f"/v1/games/{gid}", headers=auth(watch)).status_code == 401
    assert table.client.get(f"/v1/games/{gid}", headers=auth(new_watch)).status_code == 200
    assert join({"name": "bob", "invite": new_invite}).status_code == 201
    assert table.client.post(f"/v1/games/{gid}/invite", headers=auth(ann.json["token"])).status_code == 403
    public = table.create()
    r = table.client.post(f"/v1/games/{public['id']}/invite", headers=auth(public["owner_token"]))
    assert (r.status_code, r.json["code"]) == (409, "not_private")

    # played to its end, it is never listed; the key's lobby has it all along
    table.start(gid, owner)
    table.drain()
    assert gid not in _lobby_ids(table)
    mine = table.client.get("/v1/keys/me/games", headers=_k(secret)).json["games"]
    assert [(m["id"], m["private"], m["status"]) for m in mine] == [(gid, True, "running")]
    assert not [k for k in table.service.store.lobby() if k == gid]


def test_a_private_table_stays_unlisted_through_a_whole_match(table: Table) -> None:
    secret = _key(table)["secret"]
    g = _private(table, secret)
    for _ in range(2):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(300):
        table.drain()
        if table.view(g["id"], g["owner_token"])["status"] == "finished":
            break
        table.clock.advance(1000)
    assert table.view(g["id"], g["owner_token"])["status"] == "finished"
    assert g["id"] not in _lobby_ids(table)
    assert g["id"] in {row["id"] for row in compaction.finished_games(table.service)}  # the sweeps still find it
    assert table.client.get(f"/v1/games/{g['id']}/history").status_code == 401  # no token: as for any table
    assert table.client.get(f"/v1/games/{g['id']}/history", headers=auth(g["owner_token"])).status_code == 200
    assert table.client.get(f"/v1/games/{g['id']}/verify", headers=auth(g["spectator_token"])).status_code == 401
    assert table.client.get(f"/v1/games/{g['id']}/verify", headers=auth("audit-secret")).status_code == 200


def test_a_retried_private_create_shows_its_codes_again_and_only_to_its_key(table: Table) -> None:
    one, two = _key(table)["secret"], _key(table, "b")["secret"]
    body, idem = {"variant": "prsi", "private": True}, "retry-key-0123456789abcdefgh"
    first = table.client.post("/v1/games", json=body, headers={**_k(one), "Idempotency-Key": idem}).json
    again = table.client.post("/v1/games", json=body, headers={**_k(one), "Idempotency-Key": idem}).json
    assert again["id"] == first["id"] and again["invite_code"] == first["invite_code"] and again.get("replayed")
    other = table.client.post("/v1/games", json=body, headers={**_k(two), "Idempotency-Key": idem}).json
    anon = table.client.post("/v1/games", json={"variant": "prsi"}, headers={"Idempotency-Key": idem}).json
    assert len({first["id"], other["id"], anon["id"]}) == 3  # another key's twin is another game


# ------------------------------------------------------------------ usage in /metrics
def _samples(table: Table) -> dict[tuple[str, str, str], float]:
    out = {}
    for line in table.client.get("/metrics").get_data().decode().splitlines():
        if line.startswith("meow_key_requests_total{"):
            labels = dict(part.split("=", 1) for part in line[line.index("{") + 1:line.index("}")].split(","))
            out[(labels["key"].strip('"'), labels["kind"].strip('"'), labels["outcome"].strip('"'))] = float(line.split()[-1])
    return out


def test_a_keys_usage_is_in_metrics_under_a_bounded_label_set(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics, "_KEY_LABELS", set())
    table.app.extensions["meow.settings"] = Settings(**{**table.app.extensions["meow.settings"].__dict__,
                                                        "key_metrics_max": 1})
    one, two = _key(table), _key(table, "b")
    before = _samples(table)
    table.client.post("/v1/games", json={"variant": "prsi"}, headers=_k(one["secret"]))
    table.client.get("/v1/games", headers=_k(one["secret"]))
    table.client.get("/v1/games/0000000000000000", headers=_k(one["secret"]))
    table.client.get("/v1/games", headers=_k(two["secret"]))
    table.client.get("/v1/games", headers=_k("meow_k0123456789_" + "x" * 43))  # no such key: no label
    after = _samples(table)
    grew = {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}
    kid = one["key"]["id"]
    assert grew == {(kid, "creates", "ok"): 1, (kid, "reads", "ok"): 1, (kid, "reads", "refused"): 1,
                    ("other", "reads", "ok"): 1}
    assert "k0123456789" not in orjson.dumps(list(after)).decode()
