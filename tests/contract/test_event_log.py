"""The event log port (service/eventstore/ports/event_log.py) on every backend: appends all or
nothing at the expected version, reads, versions, long-poll waits, and a poison event named by its seq."""
from __future__ import annotations

import threading
import time
from types import MappingProxyType
from typing import Any

import orjson
import pytest

from service.eventstore.chain import GENESIS
from service.eventstore.codec import CorruptEvent, encode, encode_batch
from service.eventstore.contract import AppendRequest, AppendResult, FollowUp, IdemWrite, shard_of
from service.games.kernel.model import Event
from tests.contract.helpers import T0, append, ev, evs, new_gid, run_in_thread, store_raw


def test_unregistered_type_cannot_be_encoded() -> None:
    with pytest.raises(ValueError, match="NoSuchEvent"):
        encode(ev(1, type="NoSuchEvent"))
    assert encode(ev(1))  # a registered one can


class TestEventLog:
    """``EventLog``'s contract, run on every backend (tests/contract/backends.py)."""

    def test_append_to_new_game_assigns_ids_1_to_n_and_read_round_trips(self, store: Any) -> None:
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

    def test_read_stored_pages_the_events_as_stored_with_their_chain_and_command(self, store: Any) -> None:
        gid = new_gid()
        events = evs(1, 5)
        payloads = encode_batch(events, GENESIS, {"type": "play", "card": "7H"})
        res = store.append(AppendRequest(gid, 0, events, payloads=payloads, prev_hash=GENESIS))
        assert res == AppendResult("ok", 5)
        stored = store.read_stored(gid)
        assert [s.event for s in stored] == events
        assert [s.hash for s in stored] == [orjson.loads(p)["h"] for p in payloads]
        assert stored[0].command == {"type": "play", "card": "7H"} and stored[1].command is None
        assert [s.event.seq for s in store.read_stored(gid, after=1, count=2)] == [2, 3]
        assert [s.event.seq for s in store.read_stored(gid, after=3, count=10)] == [4, 5]
        assert store.read_stored(gid, after=5) == [] and store.read_stored(new_gid()) == []

    def test_unknown_game_has_version_0_and_no_events(self, store: Any) -> None:
        gid = new_gid()
        assert store.version(gid) == 0
        assert store.read(gid) == []
        assert store.read(gid, after=3) == []

    def test_read_after_returns_only_later_events(self, store: Any) -> None:
        gid = new_gid()
        events = evs(1, 6)
        assert append(store, gid, 0, events).ok
        assert store.read(gid, after=0) == events
        assert store.read(gid, after=2) == events[2:]
        assert [e.seq for e in store.read(gid, after=5)] == [6]
        assert store.read(gid, after=6) == []
        assert store.read(gid, after=99) == []

    def test_appends_continue_from_the_current_version(self, store: Any) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 2)) == AppendResult("ok", 2)
        assert append(store, gid, 2, evs(3, 3)) == AppendResult("ok", 5)
        assert append(store, gid, 5, evs(6, 1)) == AppendResult("ok", 6)
        assert store.version(gid) == 6
        assert store.read(gid) == evs(1, 6)

    def test_games_are_independent(self, store: Any) -> None:
        a, b = new_gid("3"), new_gid("3")
        assert append(store, a, 0, evs(1, 2)).ok
        assert append(store, b, 0, evs(1, 1, type="SeatJoined")).ok
        assert store.version(a) == 2 and store.version(b) == 1
        assert store.read(b) == evs(1, 1, type="SeatJoined")
        unknown = new_gid("3")
        assert store.versions([a, b, unknown]) == {a: 2, b: 1, unknown: 0}

    @pytest.mark.parametrize("wrong", [0, 1, 3, 7])
    def test_wrong_expected_version_writes_nothing_and_returns_current(self, store: Any, wrong: int) -> None:
        gid = new_gid()
        first = evs(1, 2)
        assert append(store, gid, 0, first).ok
        res = append(store, gid, wrong, evs(wrong + 1, 2))
        assert res.status == "conflict"
        assert not res.ok
        assert res.version == 2
        assert store.version(gid) == 2
        assert store.read(gid) == first

    def test_conflict_on_new_game_writes_nothing(self, store: Any) -> None:
        gid = new_gid()
        res = append(store, gid, 1, evs(2, 1))
        assert (res.status, res.version) == ("conflict", 0)
        assert store.version(gid) == 0
        assert store.read(gid) == []

    def test_conflicting_append_is_all_or_nothing(self, store: Any) -> None:
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

    def test_conflict_on_fresh_game_writes_no_lobby_entry(self, store: Any) -> None:
        gid = new_gid("b")
        res = append(store, gid, 4, evs(5, 1), lobby=b"summary", tokens={"t": b"r"})
        assert res.status == "conflict"
        assert gid not in store.lobby()
        assert store.token_get(gid, "t") is None

    def test_unregistered_type_writes_nothing_even_after_valid_events(self, store: Any) -> None:
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

    def test_concurrent_appends_with_the_same_version_exactly_one_wins(self, store: Any) -> None:
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

    def test_wait_returns_true_at_once_when_newer_events_exist(self, store: Any) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 3)).ok
        assert store.wait(gid, after=0, timeout_s=30) is True
        assert store.wait(gid, after=2, timeout_s=30) is True
        assert store.wait(gid, after=2, timeout_s=0) is True

    @pytest.mark.parametrize("timeout_s", [0, 0.0004, 0.2])
    def test_wait_returns_false_after_timeout_when_nothing_new(self, store: Any, timeout_s: float) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 2)).ok
        done, result = run_in_thread(lambda: store.wait(gid, after=2, timeout_s=timeout_s))
        assert done, f"wait(timeout_s={timeout_s}) did not return"
        assert result is False
        done, result = run_in_thread(lambda: store.wait(new_gid(), after=0, timeout_s=timeout_s))
        assert done and result is False

    def test_wait_wakes_when_another_thread_appends(self, store: Any) -> None:
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

    @pytest.mark.parametrize(
        "raw",
        [
            b"\x00not json at all",
            b'{"t": "NoSuchEvent", "v": 1, "at": 1, "r": 1, "s": null, "d": {}}',
            b'{"t": "CardPlayed", "v": 1}',
            b'{"t": "CardPlayed", "v": 0, "at": 1, "r": 1, "s": null, "d": {}}',  # no upcaster
        ],
    )
    def test_corrupt_stored_event_raises_corrupt_event_naming_the_seq(self, store: Any, raw: bytes) -> None:
        gid = new_gid()
        assert append(store, gid, 0, evs(1, 2)).ok
        store_raw(store, gid, 3, raw)
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
