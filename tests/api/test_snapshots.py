"""Snapshots are a cache (issue 16): a cold load and ``state?at=N`` start from the nearest one, and
deleting them all, or stamping them with another fingerprint, changes no answer."""
from __future__ import annotations

import random

from service.api.app import create_app
from service.app import snapshots
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

from .conftest import Clock, Table, auth
from .spec_check import SpecCheckingClient

EVERY = 25


def _table(store: MemoryEventStore, clock: Clock, every: int = EVERY) -> Table:
    app = create_app(Settings(snapshot_every=every), store=store)
    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _play(table: Table, moves: int, seed: int) -> tuple[str, list[str]]:
    g = table.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [table.join(gid, f"p{i}")["token"] for i in range(3)]
    table.start(gid, g["owner_token"])
    table.play_random(gid, tokens, moves, random.Random(seed))
    return gid, tokens


def _answers(table: Table, gid: str, tokens: list[str]) -> list[bytes]:
    c = table.client
    version = c.get(f"/v1/games/{gid}").json["version"]
    out = [c.get(f"/v1/games/{gid}?include=record", headers=auth(t)).data for t in [None, *tokens]]
    for at in sorted({1, EVERY - 1, EVERY, EVERY + 1, 2 * EVERY + 3, version // 2, version - 1, version}):
        out.append(c.get(f"/v1/games/{gid}/state?at={at}&include=record", headers=auth(tokens[0])).data)
    out.append(c.get(f"/v1/games/{gid}/actions", headers=auth(tokens[1])).data)
    return out


def test_deleting_every_snapshot_changes_no_answer(clock: Clock) -> None:
    store = MemoryEventStore()
    gid, tokens = _play(_table(store, clock), 90, seed=1)
    held = store.snapshot_get(gid)
    assert held is not None and held[0] >= 3 * EVERY  # written as the game went
    reads: list[int] = []
    real = store.read_stored

    def counting(game_id, after=0, count=None):
        reads.append(after)
        return real(game_id, after, count)

    store.read_stored = counting  # type: ignore[method-assign]
    with_snapshots = _answers(_table(store, clock), gid, tokens)  # a new process: empty cache
    assert max(reads) >= 2 * EVERY  # the cold load and state?at started from snapshots
    assert store.snapshot_drop(gid) >= 3
    without = _answers(_table(store, clock), gid, tokens)  # every read folds from the first event
    assert with_snapshots == without


def test_a_snapshot_of_other_code_is_ignored(clock: Clock, monkeypatch) -> None:
    store = MemoryEventStore()
    gid, tokens = _play(_table(store, clock), 60, seed=2)
    truth = _answers(_table(store, clock, every=0), gid, tokens)
    version, blob = store.snapshot_get(gid)
    monkeypatch.setattr(snapshots, "_FINGERPRINT", ["0" * 64])  # the fold's code changed
    assert snapshots.decode(blob) is None
    assert _answers(_table(store, clock), gid, tokens) == truth
    monkeypatch.undo()
    stamp = snapshots.fingerprint().encode()
    store.snapshot_put(gid, version, stamp + b"\nnot a snapshot")  # unreadable: a miss, never an error
    assert _answers(_table(store, clock), gid, tokens) == truth
