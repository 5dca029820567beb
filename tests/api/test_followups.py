"""Follow-ups: bot delays as due times, idempotent jobs, scoring and the next deal."""
from __future__ import annotations

from datetime import datetime

from service.eventstore.contract import SHARDS, shard_of
from tests.api.conftest import Table, auth


def _bot_first(table: Table, delay: list[int]) -> tuple[str, str, dict]:
    """A human and a bot, retried until the bot has the first turn."""
    for _ in range(50):
        g = table.create(options={"bot_delay_ms": {"easy": delay}})
        me = table.join(g["id"], "ann", g["owner_token"])
        table.add_bot(g["id"], g["owner_token"])
        table.start(g["id"], g["owner_token"])
        if table.view(g["id"])["turn"]["seat"] == 1:
            return g["id"], g["owner_token"], me
    raise AssertionError("the bot never had the first turn")


def test_bot_delay_is_a_later_due_time(table: Table) -> None:
    gid, owner, me = _bot_first(table, [700, 700])
    store = table.service.store
    shard = shard_of(gid)
    started = table.clock.now
    assert store.claim_due(shard, started + 699, 60_000) == []
    claimed = store.claim_due(shard, started + 700, 60_000)
    assert [c.payload["kind"] for c in claimed] == ["bot"]
    assert claimed[0].job_id.startswith(f"bot-{gid}-1-")


def test_a_bot_job_moves_once_however_often_it_runs(table: Table) -> None:
    gid, owner, me = _bot_first(table, [0, 0])
    store = table.service.store
    claimed = [c for s in SHARDS for c in store.claim_due(s, 2**62, 60_000)
               if c.payload["game"] == gid and c.payload["kind"] == "bot"]
    version = table.view(gid)["version"]
    outcomes = [table.service.run_followup(dict(claimed[0].payload)) for _ in range(5)]
    assert outcomes[0] == "moved" and set(outcomes[1:]) == {"closed"}
    events = table.client.get(f"/v1/games/{gid}/events?after={version}").json["events"]
    assert [e["seat"] for e in events if e["type"] in ("CardPlayed", "CardDrawn") and e["data"].get("reason", "turn") == "turn"] == [1]


def test_a_stale_bot_job_does_nothing(table: Table) -> None:
    g = table.create()
    a = table.join(g["id"], "ann", g["owner_token"])
    b = table.join(g["id"], "bob")
    table.start(g["id"], g["owner_token"])
    version = table.view(g["id"])["version"]
    out = table.service.run_followup({"kind": "bot", "game": g["id"], "seat": 0, "opened_seq": 1, "key": "0-1"})
    assert out == "closed" and table.view(g["id"])["version"] == version
    assert table.service.run_followup({"kind": "score", "game": g["id"], "key": "1"}) == "closed"
    assert table.service.run_followup({"kind": "deal", "game": g["id"], "key": "2"}) == "closed"
    assert table.view(g["id"])["version"] == version


def test_a_round_is_scored_by_a_job_and_the_next_dealt_after_the_intermission(table: Table) -> None:
    g = table.create(options={"round_intermission_s": 5, "penalty_limit": 1000})
    gid = g["id"]
    table.add_bot(gid, g["owner_token"])
    table.add_bot(gid, g["owner_token"])
    table.start(gid, g["owner_token"])
    store, shard = table.service.store, shard_of(gid)
    seen_phases = set()
    for _ in range(3000):
        claimed = store.claim_due(shard, table.clock.now, 60_000)
        if not claimed:
            view = table.view(gid)
            seen_phases.add(view["phase"])
            if view["round"] >= 2 and view["phase"] == "play":
                break
            table.clock.advance(1000)
            continue
        for c in claimed:
            table.service.run_followup(dict(c.payload))
            store.finish_due(shard, c.job_id)
            seen_phases.add(table.view(gid)["phase"])
        if table.view(gid)["round"] >= 2:
            break
    view = table.view(gid)
    assert view["round"] == 2 and view["scores"] and "intermission" in seen_phases
    hist = table.client.get(f"/v1/games/{gid}/history", headers=auth("audit-secret")).json["events"]
    types = [e["type"] for e in hist]
    ended = types.index("RoundEnded")
    assert types[ended + 1: ended + 3] == ["HandsRevealed", "RoundScored"]
    scored = hist[ended + 2]
    started = next(e for e in hist if e["type"] == "RoundStarted" and e["round"] == 2)
    started_ms = datetime.fromisoformat(started["at"]).timestamp() * 1000
    scored_ms = datetime.fromisoformat(scored["at"]).timestamp() * 1000
    assert scored["data"]["intermission_deadline"] == scored_ms + 5000
    assert started_ms >= scored["data"]["intermission_deadline"]
    assert types.count("RoundStarted") == 2
