"""What a security review found, each a regression test that failed before its fix (issue 12 a-e)."""
from __future__ import annotations

import random
import uuid

import pytest

from service.games import registry
from tests.api.conftest import Table, auth, declared_options, one_variant_per_game


@pytest.mark.parametrize("variant", one_variant_per_game())
def test_a_replayed_join_after_the_seat_left_shows_no_token_and_no_hand(table: Table, variant: str,
                                                                        rng: random.Random) -> None:
    g = table.create(variant, declared_options(variant, {"pass_timeout_s": 30, "leaver_policy": "replace_with_bot"}))
    gid, owner = g["id"], g["owner_token"]
    table.join(gid, "owner", owner)
    key = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    first = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": key})
    assert first.status_code == 201
    for i in range(2, registry.preset_defaults(variant)["min_players"]):  # the seats the game needs to start
        table.join(gid, f"p{i}")
    table.start(gid, owner)
    again = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": key})
    assert again.json["replayed"] and again.json["token"] == first.json["token"]  # still seated: same answer
    assert "you" in again.json["game"]
    assert table.client.delete(f"/v1/games/{gid}/seats/1", headers=auth(first.json["token"])).status_code == 200
    table.drain()
    late = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": key})
    assert late.status_code == 201 and late.json["replayed"]
    assert late.json["token"] is None and "you" not in late.json["game"]
    assert all("private" not in e for e in late.json["events"])


@pytest.mark.parametrize("key", ["create-1", "short", "a" * 21, "has space in it 0123456789", "ü" * 30])
def test_an_anonymous_create_or_join_needs_a_strong_idempotency_key(table: Table, key: str) -> None:
    r = table.client.post("/v1/games", json={"variant": "prsi"}, headers={"Idempotency-Key": key})
    assert (r.status_code, r.json["code"]) == (422, "weak_idempotency_key")
    gid = table.create()["id"]
    r = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": key})
    assert (r.status_code, r.json["code"]) == (422, "weak_idempotency_key")
    assert table.view(gid)["seats"] == []


# fixed UUIDs: a parameter is part of the test's id, which must be the same in every xdist worker
A_UUID = "8218dc42-9cd4-4bc8-b324-7089d30f5a82"


@pytest.mark.parametrize("key", [A_UUID, A_UUID.upper(), "A" * 22, "k_-" * 85])
def test_strong_keys_are_taken(table: Table, key: str) -> None:
    r = table.client.post("/v1/games", json={"variant": "prsi"}, headers={"Idempotency-Key": key})
    assert r.status_code == 201, r.json


@pytest.mark.parametrize("body", ["[" * 30000, "{\"a\":" * 5000 + "1" + "}" * 5000, "[" * 33 + "]" * 33,
                                  "{\"variant\": \"prsi\"", "\x00\x01"])
def test_deep_or_broken_json_is_invalid_json(table: Table, body: str) -> None:
    for path in ("/v1/games", f"/v1/games/{table.create()['id']}/seats"):
        r = table.client.post(path, data=body, content_type="application/json")
        assert (r.status_code, r.json["code"]) == (400, "invalid_json"), (path, r.json)
        assert r.headers["Content-Type"] == "application/problem+json"


def test_invented_methods_do_not_become_metric_labels(table: Table) -> None:
    for method in ("FOO", "BREW", "X" * 50):
        table.client.open("/v1/games", method=method)
    text = table.client.get("/metrics").get_data(as_text=True)
    assert 'method="FOO"' not in text and 'method="BREW"' not in text and "XXXXX" not in text
    assert 'method="other"' in text


@pytest.mark.parametrize("name", ["a\u202eb", "nul\x00", "cr\rlf\n", "\u2066iso", "zw\u200f", "", "   ",
                                  "x" * 41, "pua\ue000", "unassigned\U000e0fff", "line\u2028sep"])
def test_names_with_control_bidi_or_unassigned_characters_are_refused(table: Table, name: str) -> None:
    gid = table.create()["id"]
    r = table.client.post(f"/v1/games/{gid}/seats", json={"name": name})
    assert (r.status_code, r.json["code"]) == (422, "invalid_request"), name
    assert table.view(gid)["seats"] == []
    r = table.client.post("/v1/games", json={"variant": "prsi", "name": name + "\u202e"})
    assert r.status_code == 422


def test_names_are_nfc_normalised_and_trimmed(table: Table) -> None:
    gid = table.create()["id"]
    table.join(gid, "  Zdene\u030ck ")  # e + combining caron
    assert table.view(gid)["seats"][0]["name"] == "Zden\u011bk"  # one precomposed character


def test_a_game_id_must_match_in_full(table: Table) -> None:
    gid = table.create()["id"]
    assert table.client.get(f"/v1/games/{gid}").status_code == 200
    for bad in (gid + "%0A", gid.upper(), gid[:-1]):
        r = table.client.get(f"/v1/games/{bad}")
        assert (r.status_code, r.json["code"]) == (404, "not_found"), (bad, r.status_code, r.get_data())


def _limited_table(**limits: str) -> Table:
    from service.api.app import create_app
    from service.eventstore.memory import MemoryEventStore
    from service.settings import Settings
    from tests.api.conftest import Clock

    clock = Clock()
    app = create_app(Settings(**limits), store=MemoryEventStore())
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def test_creates_are_limited_per_address_with_ratelimit_headers() -> None:
    table = _limited_table(rate_creates_per_address="3/minute")
    answers = [table.client.post("/v1/games", json={"variant": "prsi"}) for _ in range(4)]
    assert [r.status_code for r in answers] == [201, 201, 201, 429]
    assert [r.headers["RateLimit-Remaining"] for r in answers[:3]] == ["2", "1", "0"]
    assert all("Retry-After" not in r.headers for r in answers[:3])
    refused = answers[3]
    assert refused.json["code"] == "rate_limited" and refused.headers["Content-Type"] == "application/problem+json"
    assert 0 < int(refused.headers["Retry-After"]) <= 60 and 0 <= int(refused.headers["RateLimit-Reset"]) <= 61
    other = table.client.post("/v1/games", json={"variant": "prsi"}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201  # another address has its own bucket
    assert table.client.get("/healthz").status_code == 200  # never limited


def test_writes_and_reads_are_limited_per_token_in_their_own_buckets() -> None:
    table = _limited_table(rate_writes_per_token="2/minute", rate_reads_per_token="3/minute")
    g = table.create()
    owner = auth(g["owner_token"])
    seats = [table.client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=owner)
             for _ in range(3)]
    assert [r.status_code for r in seats] == [201, 201, 429]
    reads = [table.client.get(f"/v1/games/{g['id']}", headers=owner) for _ in range(4)]
    assert [r.status_code for r in reads] == [200, 200, 200, 429]  # reads did not spend the writes' budget
    assert table.client.get(f"/v1/games/{g['id']}").status_code == 200  # without a token: the address's bucket
    assert table.client.post("/v1/games", json={"variant": "prsi"}).status_code == 201  # creates: their own
