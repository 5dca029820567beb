"""Issue 26: MEOW_WAIT_REPLICAS makes a write answer only once that many replicas hold it (Redis
WAIT after the append, on the same connection). Not confirmed in time: 503 store_unavailable, the
write perhaps applied on the primary; a retry with the same Idempotency-Key never applies it twice,
is itself confirmed before it answers, and returns the stored answer once replicas hold it."""
from __future__ import annotations

from service.api.app import create_app
from service.settings import Settings

from .conftest import Clock, Table, auth
from .spec_check import SpecCheckingClient


def _table(redis_url: str, prefix: str, clock: Clock, waits: int, alone: str = "refuse") -> Table:
    app = create_app(Settings(redis_url=redis_url, key_prefix=prefix, rate_limits="off",
                              wait_replicas=waits, wait_timeout_ms=30, wait_without_replica=alone))
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


def test_a_primary_with_no_replica_at_all_answers_without_waiting_and_counts_it(redis_url: str, key_prefix: str) -> None:
    """Issue 39 item 6: MEOW_WAIT_WITHOUT_REPLICA=answer (the default): a write whose primary has no
    replica connected is answered (not refused until a replica comes back), counted in
    meow_writes_unreplicated_total; its keyed retry answers the same."""
    import redis
    from prometheus_client import REGISTRY

    if redis.Redis.from_url(redis_url).info("replication")["connected_slaves"]:
        import pytest

        pytest.skip("this Redis has a replica")
    counted = REGISTRY.get_sample_value("meow_writes_unreplicated_total") or 0.0
    clock = Clock()
    table = _table(redis_url, key_prefix, clock, waits=1, alone="answer")
    g = table.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [table.join(gid, f"p{i}")["token"] for i in range(2)]
    table.start(gid, g["owner_token"])
    mover = next(t for t in tokens if table.view(gid, t)["you"]["legal_actions"])
    before = table.view(gid)["version"]
    action = {**table.view(gid, mover)["you"]["legal_actions"][0], "expected_version": before}
    first = table.act(gid, mover, action, **{"Idempotency-Key": "move-1"})
    assert first.status_code == 200, first.json
    again = table.act(gid, mover, action, **{"Idempotency-Key": "move-1"})
    assert again.status_code == 200 and again.json["replayed"] is True
    assert table.view(gid)["version"] == first.json["version"] > before
    assert (REGISTRY.get_sample_value("meow_writes_unreplicated_total") or 0.0) > counted


def test_unset_the_wait_follows_the_store(redis_url: str) -> None:
    """MEOW_WAIT_REPLICAS unset: 1 when every primary has a replica, else 0 (read once at start)."""
    import redis

    from service.replicas import wait_replicas

    client = redis.Redis.from_url(redis_url)
    has = client.info("replication")["connected_slaves"] > 0
    unset = Settings.from_env({"REDIS_URL": redis_url})
    assert unset.wait_replicas == -1
    assert wait_replicas(unset, client) == (1 if has else 0)
    assert wait_replicas(Settings.from_env({"REDIS_URL": redis_url, "MEOW_WAIT_REPLICAS": "2"}), client) == 2


def test_a_wait_refused_by_a_node_turned_replica_is_not_confirmed_never_a_500(redis_url: str, key_prefix: str) -> None:
    """During a failover the client's slot map can still name the old primary, back as a replica, for
    the WAIT that follows an append: Redis answers "ERR WAIT cannot be used with replica instances".
    That write is not confirmed (NotReplicated: 503 and a keyed retry), not a ResponseError (a 500)."""
    import pytest
    import redis
    import redis.exceptions as rx

    from service.eventstore.contract import NotReplicated
    from service.eventstore.redis_store import RedisEventStore

    store = RedisEventStore(redis.Redis.from_url(redis_url), key_prefix, wait_replicas=1)
    refused = rx.ResponseError("WAIT cannot be used with replica instances. Please also note that since Redis 4.0 ...")
    with pytest.raises(NotReplicated):
        store._check(refused, "g:any")
    with pytest.raises(rx.ResponseError):  # any other error stays what it is
        store._check(rx.ResponseError("ERR something else"), "g:any")
