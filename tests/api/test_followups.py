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
    gid, _owner, _me = _bot_first(table, [700, 700])
    store = table.service.store
    shard = shard_of(gid)
    started = table.clock.now
    assert store.claim_due(shard, started + 699, 60_000) == []
    claimed = store.claim_due(shard, started + 700, 60_000)
    assert [c.payload["kind"] for c in claimed] == ["bot"]
    assert claimed[0].job_id.startswith(f"bot-{gid}-1-")


def test_a_bot_job_moves_once_however_often_it_runs(table: Table) -> None:
    gid, _owner, _me = _bot_first(table, [0, 0])
    store = table.service.store
    claimed = [c for s in SHARDS for c in store.claim_due(s, 2**62, 60_000)
               if c.payload["game"] == gid and c.payload["kind"] == "bot"]
    version = table.view(gid)["version"]
    outcomes = [table.service.run_followup(dict(claimed[0].payload)) for _ in range(5)]
    assert outcomes[0] == "moved" and set(outcomes[1:]) == {"closed"}
    events = table.client.get(f"/v1/games/{gid}/events?after={version}").json["events"]
    moved = [e["seat"] for e in events if e["type"] in ("CardPlayed", "CardDrawn") and e["data"].get("reason", "turn") == "turn"]
    assert moved == [1]


def test_a_stale_bot_job_does_nothing(table: Table) -> None:
    g = table.create()
    table.join(g["id"], "ann", g["owner_token"])
    table.join(g["id"], "bob")
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


def _hard_table(table: Table, delay: list[int], budget: int) -> str:
    g = table.create(options={"bot_delay_ms": {"hard": delay}, "hard_bot_budget_ms": budget,
                              "hard_bot_iterations": 10, "penalty_limit": 1000})
    for _ in range(2):
        table.add_bot(g["id"], g["owner_token"], "hard")
    table.start(g["id"], g["owner_token"])
    return g["id"]


def _answer_gaps(table: Table, gid: str, moves: int) -> list[tuple[int, int]]:
    """Run the table's bot jobs at their due times; (legal action count, ms from the turn's
    opening to the move) per bot move. A worker never waits for a searching bot's answer time:
    the search job hands the move to a follow-up due then (a pause would fail the test)."""
    from service.games import engine

    def no_pause(seconds: float) -> None:
        raise AssertionError(f"a search job held its worker for {seconds} s")

    svc, store = table.service, table.service.store
    svc.pause = no_pause
    out: list[tuple[int, int]] = []
    choices: dict[tuple[int, int], int] = {}
    while len(out) < moves:
        due = store.next_due(shard_of(gid))
        assert due is not None, "the table stalled"
        table.clock.now = max(table.clock.now, due)
        for c in store.claim_due(shard_of(gid), table.clock.now, 60_000):
            payload = dict(c.payload)
            if payload["kind"] == "bot" and payload["game"] == gid:  # (an earlier table may share the shard)
                turn = (payload["seat"], payload["opened_seq"])
                state = svc.load(gid)
                if "chosen" not in payload:  # the search: on the search lane, done at once
                    assert payload["lane"] == "search"
                    choices[turn] = len(engine.legal_actions(state, payload["seat"], table.clock.now))
                else:
                    assert "lane" not in payload and table.clock.now >= payload["answer_at"]  # the fast lane, on time
                opened = next(e for e in store.read(gid, after=payload["opened_seq"] - 1)).at
                if svc.run_followup(payload) == "moved":
                    move = next(e for e in store.read(gid, after=state.version) if e.seat == payload["seat"])
                    out.append((choices[turn], move.at - opened))
            elif payload["game"] == gid:
                svc.run_followup(payload)
            # another table's work (an earlier table of the same shard: 1 in 16) is dropped, not run
            store.finish_due(shard_of(gid), c.job_id)
    return out


def test_a_hard_bot_answers_after_max_of_delay_and_budget_with_or_without_a_choice(table: Table) -> None:
    floor = table.service.settings.bots_only_min_delay_ms  # the table has bots only: its pace floor
    for delay, budget in (([120, 120], 50), ([0, 0], 60), ([0, 0], 140)):
        gaps = _answer_gaps(table, _hard_table(table, delay, budget), 120)  # (40 missed a forced move 1 run in 6)
        forced = [gap for n, gap in gaps if n == 1]
        searched = [gap for n, gap in gaps if n > 1]
        assert forced and searched, gaps  # both kinds of move happened
        assert set(forced) == set(searched) == {max(delay[0], floor, budget)}, gaps


def test_a_table_asking_for_more_than_the_servers_budget_cap_gets_the_cap(table: Table) -> None:
    g = table.create(options={"hard_bot_budget_ms": 10_000})
    assert g["game"]["options"]["hard_bot_budget_ms"] == table.service.settings.max_bot_budget_ms == 3000
    assert g["warnings"] == [{"option": "hard_bot_budget_ms",
                              "detail": "this server searches at most 3000 ms: 10000 was lowered to 3000"}]


def test_a_table_nobody_starts_expires_with_its_keys_and_a_started_one_stays(table: Table) -> None:
    ttl = table.service.settings.open_game_ttl_s * 1000
    idle, played = table.create(), table.create()
    ann = table.join(idle["id"], "ann")
    table.join(played["id"], "bob", played["owner_token"])
    table.add_bot(played["id"], played["owner_token"])
    table.start(played["id"], played["owner_token"])
    assert table.view(idle["id"])["status"] == "open"  # (cached in this process now)
    assert {g["id"] for g in table.client.get("/v1/games?status=open").json["games"]} >= {idle["id"]}
    table.clock.advance(ttl - 1)
    table.drain()
    assert table.view(idle["id"])["status"] == "open"  # not before its time
    table.clock.advance(1)
    table.drain()
    for token in (None, idle["owner_token"], ann["token"]):
        r = table.client.get(f"/v1/games/{idle['id']}", headers=auth(token))
        assert r.status_code in (401, 404) and r.json["code"] in ("not_found", "unauthorized")
    assert table.client.get(f"/v1/games/{idle['id']}").status_code == 404
    listed = {g["id"] for g in table.client.get("/v1/games").json["games"]}
    assert idle["id"] not in listed and played["id"] in listed
    store = table.service.store
    assert idle["id"] not in store.lobby() and store.version(idle["id"]) == 0
    assert table.view(played["id"])["status"] != "open"
    r = table.client.post(f"/v1/games/{idle['id']}/seats", json={"name": "late"})
    assert (r.status_code, r.json["code"]) == (404, "not_found")


def test_finished_games_leave_the_open_and_running_listings(table: Table) -> None:
    g = table.create()
    me = table.join(g["id"], "ann", g["owner_token"])
    other = table.join(g["id"], "bob")
    table.start(g["id"], g["owner_token"])
    assert g["id"] in {x["id"] for x in table.client.get("/v1/games?status=running").json["games"]}
    assert table.client.delete(f"/v1/games/{g['id']}/seats/1", headers=auth(other["token"])).status_code == 200
    assert table.view(g["id"], me["token"])["status"] == "finished"
    for status, present in (("open", False), ("running", False), ("finished", True)):
        ids = {x["id"] for x in table.client.get(f"/v1/games?status={status}").json["games"]}
        assert (g["id"] in ids) is present, status


def test_a_bots_only_table_s_bot_turn_is_marked_to_run_off_rq_and_a_human_table_s_is_not(table: Table) -> None:
    """Issue 39 item 3: the dispatcher runs a bots-only table's bot turns itself (workers/dispatcher.py)."""
    from service.app.followups import BOTS_ONLY

    marks: dict[str, set[bool]] = {}
    for humans in (0, 1):
        g = table.create(options={"bot_delay_ms": {"easy": [0, 0]}})
        if humans:
            table.join(g["id"], "ann", g["owner_token"])
        for _ in range(3 - humans):
            table.add_bot(g["id"], g["owner_token"])
        table.start(g["id"], g["owner_token"])
        claimed = table.service.store.claim_due(shard_of(g["id"]), table.clock.now + 10_000, 60_000)
        marks[f"{humans}"] = {bool(c.payload.get(BOTS_ONLY)) for c in claimed if c.payload["kind"] == "bot"}
    assert marks["0"] == {True} and True not in marks["1"]  # (the human may have the first turn: no bot's)
