"""Issue 26: a process never serves a version its store no longer holds. After a failover to a
replica that missed the last writes, a game's stream is shorter than a process's cached fold (or
grows again with other events under the same numbers): every read, every write and every job of
that process folds the store's stream again, as a fresh process would."""
from __future__ import annotations

import random
import time

from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

from .conftest import Clock, Table, auth
from .spec_check import SpecCheckingClient


def _table(store: MemoryEventStore, clock: Clock) -> Table:
    app = create_app(Settings(snapshot_every=0), store=store)
    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _truncate(store: MemoryEventStore, gid: str, version: int) -> None:
    """What a promoted replica that missed the last writes holds: the stream's first events."""
    with store._lock:
        del store._streams[gid][version:]


def _answers(table: Table, gid: str, tokens: list[str]) -> list[bytes]:
    c = table.client
    out = [c.get(f"/v1/games/{gid}", headers=auth(t)).data for t in [None, *tokens]]
    out += [c.get(f"/v1/games/{gid}/actions", headers=auth(t)).data for t in tokens]
    out.append(c.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[0])).data)
    return out


def test_a_stream_shorter_than_the_cache_is_folded_again(clock: Clock) -> None:
    store = MemoryEventStore()
    served = _table(store, clock)  # this process cached the game at its newest version
    g = served.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [served.join(gid, f"p{i}")["token"] for i in range(3)]
    served.start(gid, g["owner_token"])
    rng = random.Random(26)
    served.play_random(gid, tokens, 8, rng)
    cached = served.view(gid)["version"]
    lost = 4
    _truncate(store, gid, cached - lost)  # the failover lost the last writes

    fresh = _table(store, clock)  # a process that never saw the lost events
    assert _answers(served, gid, tokens) == _answers(fresh, gid, tokens)
    assert served.view(gid)["version"] == cached - lost
    events = served.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[0])).json
    assert events["version"] == cached - lost == events["events"][-1]["seq"]

    # play goes on from the store's version: the seat to move can move, under the same numbers
    played = served.play_random(gid, tokens, lost + 2, rng)
    assert played == lost + 2 and served.view(gid)["version"] > cached
    assert _answers(served, gid, tokens) == _answers(_table(store, clock), gid, tokens)


def test_a_stream_that_grew_apart_from_the_cache_is_folded_again(clock: Clock) -> None:
    store = MemoryEventStore()
    served = _table(store, clock)
    g = served.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [served.join(gid, f"p{i}")["token"] for i in range(3)]
    served.start(gid, g["owner_token"])
    served.play_random(gid, tokens, 6, random.Random(1))
    cached = served.view(gid)["version"]
    _truncate(store, gid, cached - 3)
    other = _table(store, clock)  # another process plays on from the shorter stream
    other.play_random(gid, tokens, 8, random.Random(2))
    assert other.view(gid)["version"] >= cached  # the same numbers (and more), other events

    assert _answers(served, gid, tokens) == _answers(other, gid, tokens)
    history = served.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[0])).json
    assert history["version"] == other.view(gid)["version"]


def test_a_job_works_from_the_store_not_from_the_cache(clock: Clock) -> None:
    """A bot's turn whose move was lost is open again: the job of that turn (its due entry comes
    back with the stream, the replica holding both) moves; a stale cache had the turn closed, so
    the job did nothing and the table stayed stuck."""
    store = MemoryEventStore()
    served = _table(store, clock)
    g = served.create(options={"match_end_mode": "single_round"})
    gid, owner = g["id"], g["owner_token"]
    me = served.join(gid, "ann")["token"]
    served.add_bot(gid, owner)
    served.start(gid, owner)
    served.drain()
    rng = random.Random(3)
    bot_jobs: dict[str, tuple[int, bytes]] = {}
    for _ in range(60):  # until one of ann's moves gives the bot its turn
        view = served.view(gid, me)
        assert view["status"] == "running" and view["you"]["legal_actions"], view
        assert served.act(gid, me, rng.choice(view["you"]["legal_actions"])).status_code == 200
        shard = gid[0]
        bot_jobs = {j: (store._due[shard][j], store._payloads[shard][j]) for j in store._due[shard]
                    if j.startswith("bot-")}
        if bot_jobs:
            break
        served.drain()
    assert bot_jobs, "the bot never got a turn"
    ann_moved = served.view(gid)["version"]
    served.drain()  # the bot moves; this process caches the game after the bot's move
    assert served.view(gid)["version"] > ann_moved
    _truncate(store, gid, ann_moved)  # the failover lost the bot's move ...
    with store._lock:  # ... and its finished job: the replica holds the due entry as it stood
        for job, (due, payload) in bot_jobs.items():
            store._due[gid[0]][job] = due
            store._payloads[gid[0]][job] = payload
    served.drain()
    assert store.version(gid) > ann_moved  # the bot moved again, from the store's state
    assert _answers(served, gid, [me]) == _answers(_table(store, clock), gid, [me])


def test_a_live_feed_whose_game_got_shorter_cuts_its_streams_off_and_follows_the_store(clock: Clock) -> None:
    """A process's live feed had handed out events the store lost: its streams are cut off (they
    resume with Last-Event-ID) and a new stream gets the events appended since, under the same
    numbers (a feed that kept its cursor skipped them until the game passed its old version)."""
    from service.app.auth import Caller
    from service.app.feeds import FeedHub

    store = MemoryEventStore()
    served = _table(store, clock)
    g = served.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [served.join(gid, f"p{i}")["token"] for i in range(2)]
    served.start(gid, g["owner_token"])
    hub = FeedHub(store, resync_s=0.05, block_ms=50, shards=(gid[0],))
    try:
        before = served.view(gid)["version"]
        sub = hub.subscribe(gid, Caller("spectator"), before)
        rng = random.Random(4)
        served.play_random(gid, tokens, 4, rng)
        cached = served.view(gid)["version"]
        assert [i.seq for i in sub.poll(5.0) if i.kind == "event"][-1] == cached  # handed out
        _truncate(store, gid, before)
        deadline = time.monotonic() + 10
        while not sub.ended and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sub.ended and sub.overflowed
        again = hub.subscribe(gid, Caller("spectator"), before)
        served.play_random(gid, tokens, 1, rng)
        got = [i.seq for i in again.poll(5.0) if i.kind == "event"]
        assert got and got[0] == before + 1, got
        again.close()
    finally:
        hub.stop()
