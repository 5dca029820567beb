"""The arenas' store port (service/eventstore/ports/arenas.py) on every backend of the contract
suite: the in-memory twin, and RedisArenas on fakeredis, a real Redis and a local Redis Cluster."""
from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import pytest
import redis

from service.eventstore.arenas import CANCELLED, FINISHED, RUNNING, RedisArenas
from service.eventstore.memory_arenas import MemoryArenas
from service.eventstore.ports.arenas import ArenaStore
from tests.contract.backends import BACKENDS


@contextlib.contextmanager
def _open(backend: str, fixture: Callable[[str], Any]) -> Iterator[ArenaStore]:
    if backend == "memory":
        yield MemoryArenas()
        return
    prefix = f"meowtest-{uuid.uuid4().hex[:12]}"
    if backend == "fakeredis":
        client: Any = fakeredis.FakeRedis()
    elif backend == "redis":
        client = redis.Redis.from_url(fixture("redis_url"))
    else:
        from service.redis_urls import cluster_client

        client = cluster_client(fixture("redis_cluster").url)
    try:
        yield RedisArenas(client, prefix)
    finally:
        if backend == "cluster":
            keys = list(client.scan_iter(match=f"*{prefix}*", count=1000, target_nodes=client.ALL_NODES))
        else:
            keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
        for key in keys:
            client.delete(key)
        client.close()


# Found by this contract (issue 38): RedisArenas's optimistic transactions (WATCH in a pipeline: a
# key's running cap, the leaderboard) are refused by redis-py's cluster client, so arenas do not run
# on a Redis Cluster yet. Strict: the day they do, this fails and the mark goes.
ON_CLUSTER = pytest.mark.xfail(reason="RedisArenas uses WATCH, which redis-py's cluster client refuses",
                               strict=True, raises=redis.exceptions.RedisClusterException)
PARAMS = [pytest.param(b, marks=ON_CLUSTER) if b == "cluster" else b for b in BACKENDS]


@pytest.fixture(params=PARAMS)
def arenas(request: pytest.FixtureRequest) -> Iterator[ArenaStore]:
    with _open(request.param, request.getfixturevalue) as opened:
        yield opened


def score(row: dict[str, Any]) -> float:
    return float(row["r"])


def test_a_key_runs_at_most_its_cap_and_keeps_its_newest(arenas: ArenaStore) -> None:
    assert arenas.create("a1", "k", {"spec": "{}"}, 10, cap=2, keep_per_key=2)
    assert arenas.create("a2", "k", {"spec": "{}"}, 20, cap=2, keep_per_key=2)
    assert not arenas.create("a3", "k", {"spec": "{}"}, 30, cap=2, keep_per_key=2)  # nothing written
    assert arenas.get("a3") is None and arenas.of_key("k", 10) == ["a2", "a1"]
    rec = arenas.get("a1")
    assert rec is not None and {k: rec[k] for k in ("spec", "key", "status", "next", "done", "created_at", "version")} == {
        "spec": "{}", "key": "k", "status": RUNNING, "next": "0", "done": "0", "created_at": "10", "version": "1"}
    assert arenas.end("a1", FINISHED, 40, {"games": 0}) and not arenas.end("a1", CANCELLED, 41)
    ended = arenas.get("a1")
    assert ended is not None and (ended["status"], ended["ended_at"], ended["version"]) == (FINISHED, "40", "2")
    assert arenas.create("a3", "k", {"spec": "{}"}, 50, cap=2, keep_per_key=2)  # a1 ended: room, and a1 goes
    assert arenas.of_key("k", 10) == ["a3", "a2"] and arenas.get("a1") is None
    assert arenas.status("a2") == RUNNING and arenas.of_key("other", 10) == []


def test_games_are_claimed_once_recorded_once_and_stale_claims_resumed(arenas: ArenaStore) -> None:
    arenas.create("a1", "k", {}, 0, 0, 0)
    assert [arenas.claim("a1", 3, 100 + i) for i in range(4)] == [0, 1, 2, None]
    assert arenas.record("a1", 1, {"rank": 1}) == 1 and arenas.record("a1", 1, {"rank": 2}) == 1
    assert arenas.results("a1") == {1: {"rank": 1}}
    assert arenas.oldest_open_claim("a1") == 100
    assert arenas.stale_claim("a1", 101, 500) == 0 and arenas.stale_claim("a1", 101, 500) is None
    assert arenas.oldest_open_claim("a1") == 102
    arenas.renew("a1", 2, 600)  # the job playing game 2 still does: its claim is no longer the oldest
    assert arenas.oldest_open_claim("a1") == 500 and arenas.stale_claim("a1", 500, 700) is None
    arenas.record("a1", 0, {}), arenas.record("a1", 2, {})
    assert arenas.oldest_open_claim("a1") is None and arenas.get("a1", )["done"] == "3"  # type: ignore[index]


def test_the_leaderboard_pages_best_first_and_forgets(arenas: ArenaStore) -> None:
    def put(rows: dict[str, float]) -> Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]]:
        return lambda now: {n: {"r": r, "seen": n in now} for n, r in rows.items()}

    arenas.update_leaderboard("v", ["b", "a", "c"], put({"a": 5.0, "b": 7.0, "c": 5.0}), score)
    page, total = arenas.leaderboard_page("v", 0, 2, score)
    assert total == 3 and [n for n, _ in page] == ["b", "a"]  # equal ratings by entrant
    assert [n for n, _ in arenas.leaderboard_page("v", 2, 5, score)[0]] == ["c"]
    arenas.update_leaderboard("v", ["a"], put({"a": 9.0}), score)
    page, _ = arenas.leaderboard_page("v", 0, 1, score)
    assert page == [("a", {"r": 9.0, "seen": True})]  # the change was given the row it replaces
    arenas.forget("a", ["v", "w"])
    assert [n for n, _ in arenas.leaderboard_page("v", 0, 10, score)[0]] == ["b", "c"]
    assert arenas.leaderboard_page("w", 0, 10, score) == ([], 0)


def test_both_stores_are_the_port() -> None:
    store: ArenaStore = MemoryArenas()
    redis_store: ArenaStore = RedisArenas(fakeredis.FakeRedis(), "t")
    assert store is not None and redis_store is not None
