"""Compaction of finished games on a real Redis (issue 16): the job the finishing append schedules
turns the stream into its compact form after the grace period; every answer about the game —
view, history (JSON and NDJSON), verify, state?at, the events feed (JSON and SSE, resumed by
Last-Event-ID) and the lobby — is byte for byte the same, in a fresh process and in one that had
the game cached; and the game costs at least 5 times less Redis memory."""
from __future__ import annotations

import hashlib
import random

import pytest
import redis

from service.api.app import create_app
from service.eventstore.contract import SHARDS
from service.settings import Settings

from .conftest import Clock, Table, auth

GRACE_S = 7 * 86400
AUDIT = "audit-secret"


def _app(redis_url: str, prefix: str, clock: Clock) -> Table:
    settings = Settings(redis_url=redis_url, key_prefix=prefix, rate_limits="off", compact_after_s=GRACE_S,
                        audit_token_hashes=frozenset({hashlib.sha256(AUDIT.encode()).hexdigest()}))
    app = create_app(settings)
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _finish(table: Table, seed: int, seats: int) -> tuple[str, list[str], str]:
    rng = random.Random(seed)
    g = table.create(options={"match_end_mode": "single_round"}, max_players=seats)
    gid = g["id"]
    tokens = [table.join(gid, f"p{i}")["token"] for i in range(seats)]
    table.start(gid, g["owner_token"])
    while table.view(gid)["status"] != "finished":
        assert table.play_random(gid, tokens, 50, rng) or table.drain() or table.view(gid)["status"] == "finished"
    table.drain()  # everything due now (the compaction is not: it waits for the grace)
    return gid, tokens, g["owner_token"]


def _answers(table: Table, gid: str, tokens: list[str], owner: str) -> list[tuple[str, int, bytes]]:
    c = table.client
    version = table.view(gid)["version"]
    asks: list[tuple[str, dict[str, str]]] = [(f"/v1/games/{gid}", auth(t)) for t in [None, owner, *tokens]]
    asks += [(f"/v1/games/{gid}?include=record", auth(tokens[0])), (f"/v1/games/{gid}/actions", auth(tokens[1]))]
    for who in (tokens[0], owner, AUDIT):
        asks += [(f"/v1/games/{gid}/history", auth(who)),
                 (f"/v1/games/{gid}/history", {**auth(who), "Accept": "application/x-ndjson"})]
    asks += [(f"/v1/games/{gid}/verify", auth(tokens[1]))]
    for at in sorted({1, 2, 3, version // 3, version // 2, version - 1, version}):
        asks += [(f"/v1/games/{gid}/state?at={at}", auth(tokens[at % len(tokens)])),
                 (f"/v1/games/{gid}/state?at={at}&include=record", auth(None))]
    for after in (0, 1, version // 2, version - 1, version):
        asks += [(f"/v1/games/{gid}/events?after={after}", auth(tokens[0])),
                 (f"/v1/games/{gid}/events?after={after}", auth(None)),
                 (f"/v1/games/{gid}/events", {**auth(tokens[1]), "Accept": "text/event-stream",
                                               "Last-Event-ID": str(after)})]
    asks += [("/v1/games?status=finished", {}), ("/v1/games?limit=1", {}), ("/v1/games?variant=prsi&status=finished", {})]
    out = []
    for url, headers in asks:
        r = c.get(url, headers=headers)
        out.append((url, r.status_code, r.get_data()))
        r.close()  # (an event stream releases its lease)
    return out


def _memory(client: redis.Redis, gid: str) -> int:
    return sum(int(client.memory_usage(k) or 0) for k in client.scan_iter(match=f"*{gid}*", count=1000))


@pytest.fixture
def live(redis_url: str, key_prefix: str, clock: Clock):
    return _app(redis_url, key_prefix, clock)


def test_a_compacted_game_answers_byte_for_byte_as_before_and_costs_5x_less(
        live: Table, redis_url: str, key_prefix: str, clock: Clock) -> None:
    gid, tokens, owner = _finish(live, seed=7, seats=4)
    other, _, _ = _finish(live, seed=8, seats=2)
    store = live.service.store
    before = _answers(live, gid, tokens, owner)
    assert all(status == 200 for _, status, _ in before), [(u, s) for u, s, _ in before if s != 200]
    client = redis.Redis.from_url(redis_url)
    mem_before = _memory(client, gid)
    assert store.form(gid) == "stream"
    from service.app.compaction import finished_at

    ended = [finished_at(live.service, g, store.version(g)) for g in (gid, other)]
    clock.now = min(ended) + GRACE_S * 1000 - 1
    live.drain()
    assert store.form(gid) == store.form(other) == "stream"  # not before the grace is over
    clock.now = max(ended) + GRACE_S * 1000
    assert live.drain() >= 2  # the two games' compaction jobs
    assert store.form(gid) == "compact" and store.form(other) == "compact"
    mem_after = _memory(client, gid)
    client.close()
    assert mem_before >= 5 * mem_after, (mem_before, mem_after)
    assert _answers(live, gid, tokens, owner) == before  # the process that had the game cached
    assert _answers(_app(redis_url, key_prefix, clock), gid, tokens, owner) == before  # a fresh process
    # a write to a compacted game is refused as to any finished game, and changes nothing
    r = live.act(gid, tokens[0], {"type": "draw"})
    assert r.status_code == 409
    assert _answers(live, gid, tokens, owner) == before


def test_the_sweep_compacts_finished_games_without_a_job_and_is_idempotent(
        live: Table, redis_url: str, key_prefix: str, clock: Clock) -> None:
    from service.app import compaction

    gid, tokens, owner = _finish(live, seed=3, seats=2)
    store = live.service.store
    for shard in SHARDS:  # as if it had finished before compaction existed: no job
        for c in store.claim_due(shard, clock.now + 10**12, 60_000):
            store.finish_due(shard, c.job_id)
    before = _answers(live, gid, tokens, owner)
    assert compaction.sweep(live.service) == {}  # the grace is not over
    clock.advance(GRACE_S * 1000)
    assert compaction.sweep(live.service) == {"compacted": 1}
    assert compaction.sweep(live.service) == {}
    assert compaction.compact_finished(live.service, gid) == "already"
    assert store.form(gid) == "compact"
    assert _answers(_app(redis_url, key_prefix, clock), gid, tokens, owner) == before
