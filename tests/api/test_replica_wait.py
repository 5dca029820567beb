"""Issue 26: MEOW_WAIT_REPLICAS makes a write answer only once that many replicas hold it (Redis
WAIT after the append, on the same connection). Not confirmed in time: 503 store_unavailable, the
write perhaps applied on the primary; a retry with the same Idempotency-Key never applies it twice,
is itself confirmed before it answers, and returns the stored answer once replicas hold it."""
from __future__ import annotations

from service.api.app import create_app
from service.settings import Settings

from .conftest import Clock, Table, auth
from .spec_check import SpecCheckingClient


def _table(redis_url: str, prefix: str, clock: Clock, waits: int) -> Table:
    app = create_app(Settings(redis_url=redis_url, key_prefix=prefix, rate_limits="off",
                              wait_replicas=waits, wait_timeout_ms=30))
    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def test_a_write_no_replica_confirms_is_503_and_its_keyed_retry_applies_once(redis_url: str, key_prefix: str) -> None:
    import redis

    replicas = redis.Redis.from_url(redis_url).info("replication")["connected_slaves"]
    clock = Clock()
    plain = _table(redis_url, key_prefix, clock, waits=0)
    waiting = _table(redis_url, key_prefix, clock, waits=replicas + 1)  # more than the server has
    g = plain.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [plain.join(gid, f"p{i}")["token"] for i in range(2)]
    plain.start(gid, g["owner_token"])
    mover = next(t for t in tokens if plain.view(gid, t)["you"]["legal_actions"])
    before = plain.view(gid)["version"]
    action = {**plain.view(gid, mover)["you"]["legal_actions"][0], "expected_version": before}
    key = {"Idempotency-Key": "move-1"}

    first = waiting.act(gid, mover, action, **key)
    assert first.status_code == 503 and first.json["code"] == "store_unavailable", first.json
    assert first.headers.get("Retry-After") == "1"
    applied = plain.view(gid)["version"]
    assert applied > before  # the primary took it: only the replicas' confirmation is missing
    again = waiting.act(gid, mover, action, **key)  # a replay is confirmed too before it answers
    assert again.status_code == 503 and again.json["code"] == "store_unavailable", again.json
    created = waiting.client.post("/v1/games", json={"variant": "prsi"})
    assert created.status_code == 503 and created.json["code"] == "store_unavailable"

    replayed = plain.act(gid, mover, action, **key)  # the operator lowered the setting
    assert replayed.status_code == 200 and replayed.json["replayed"] is True, replayed.json
    assert replayed.json["version"] == applied == plain.view(gid)["version"]  # applied once
    assert waiting.client.get(f"/v1/games/{gid}", headers=auth(mover)).status_code == 200  # reads never wait
