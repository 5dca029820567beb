"""Issue 39 item 1: the append that ends a turn takes that turn's timer out of the due set, so a game
played to its end leaves no due entry of its turns (only the work its end calls for: compaction, the
players' records), on the in-memory store and on the real Redis."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.api.app import create_app
from service.eventstore.contract import shard_of
from service.eventstore.memory import MemoryEventStore
from service.eventstore.redis_store import RedisEventStore
from service.games.kernel.due import Kind
from service.integrations.players.jobs import PlayersKind
from service.settings import Settings
from tests.api.conftest import UNPACED, Clock, Table

AFTER_THE_END = {Kind.COMPACT, PlayersKind.PLAYERS}


@pytest.fixture(params=["memory", "redis"])
def any_table(request: pytest.FixtureRequest, clock: Clock, random_bytes: Any) -> Iterator[Table]:
    if request.param == "memory":
        store: Any = MemoryEventStore()
    else:
        url, prefix = request.getfixturevalue("redis_url"), request.getfixturevalue("key_prefix")
        store = RedisEventStore(redis.Redis.from_url(url), prefix=prefix)
    app = create_app(Settings(**UNPACED), store=store)
    app.extensions["meow.service"].clock = clock
    yield Table(app, clock, random_bytes)


def test_a_finished_game_leaves_no_due_entry_of_its_turns(any_table: Table) -> None:
    table = any_table
    g = table.create(options={"turn_timeout_s": 45, "match_end_mode": "single_round"})
    tokens = [g["owner_token"], table.join(g["id"], "bob")["token"]]
    table.join(g["id"], "ann", g["owner_token"])
    table.start(g["id"], g["owner_token"])
    rng = random.Random(39)
    store, shard = table.service.store, shard_of(g["id"])
    assert table.play_random(g["id"], tokens, 6, rng) == 6
    soon = table.clock.now + 45_000  # every timer armed so far is due by then: only the open turn's is left
    timers = [c.job_id for c in store.claim_due(shard, soon, 1) if c.payload["kind"] == Kind.TIMER]
    assert len(timers) == 1, timers
    store.recover_expired(shard, soon + 1)  # (put back: its lease ran out)
    played = table.play_random(g["id"], tokens, 2000, rng)
    assert table.view(g["id"])["status"] == "finished" and played > 0
    left = store.claim_due(shard, 2**62, 60_000)
    kinds = sorted(c.payload["kind"] for c in left if c.payload.get("game") == g["id"])
    assert set(kinds) <= AFTER_THE_END, kinds
