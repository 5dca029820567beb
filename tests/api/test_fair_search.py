"""Fair search and bots-only tables (docs/reliability.md): the search lane shared between tables
and owners, a searching bot that never holds its worker until its answer time, the caps on
bots-only tables, and their pace floor. The search lane is simulated on the test clock (one search
worker, searches taking exactly the time they are given): outcomes are orders and due times, never
wall-clock speed."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest

from service.api.app import create_app
from service.eventstore.contract import shard_of
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import Clock, Table, auth
from tests.api.spec_check import SpecCheckingClient
from tools.search_lane import SearchLane

AUDIT = hashlib.sha256(b"audit-secret").hexdigest()


def _table(clock: Clock, random_bytes: Any, **settings: Any) -> Table:
    app = create_app(Settings(audit_token_hashes=frozenset({AUDIT}), **settings), store=MemoryEventStore())
    app.test_client_class = SpecCheckingClient
    app.extensions["meow.service"].clock = clock
    return Table(app, clock, random_bytes)


@pytest.fixture
def fair(clock: Clock, random_bytes: Any) -> Iterator[Table]:
    yield _table(clock, random_bytes, bots_only_per_owner=0, bots_only_per_address=0)


def _bots_table(table: Table, address: str, strength: str = "hard", options: dict | None = None,
                human: bool = False) -> dict:
    """A table created from ``address``, two bots of ``strength`` (and a human first if asked),
    started; the create answer (with ``status`` of the start)."""
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": {"penalty_limit": 1000, **(options or {})}},
                          environ_base={"REMOTE_ADDR": address})
    assert r.status_code == 201, r.json
    g = r.json
    if human:
        table.join(g["id"], "ann", g["owner_token"])
    for _ in range(1 if human else 2):
        table.add_bot(g["id"], g["owner_token"], strength)
    started = table.client.post(f"/v1/games/{g['id']}/start", headers=auth(g["owner_token"]))
    return {**g, "start": started}


def _lane(table: Table, monkeypatch: pytest.MonkeyPatch) -> SearchLane:
    """The search lane (tools/search_lane.py) of ``table``'s service, on the test clock."""
    lane = SearchLane(table.service, table.clock, table.clock.advance)
    monkeypatch.setattr("service.app.bots.choose_for", lane.choose_for)
    return lane


def test_a_hard_bot_keeps_its_budget_beside_ten_max_budget_tables_of_another_owner(
        fair: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    cap = fair.service.settings.max_bot_budget_ms
    flood = [_bots_table(fair, "10.1.1.1", options={"hard_bot_budget_ms": cap, "bot_delay_ms": {"hard": [0, 0]}})["id"]
             for _ in range(10)]
    victim = _bots_table(fair, "10.2.2.2", options={"hard_bot_budget_ms": 200, "bot_delay_ms": {"hard": [0, 0]}})["id"]
    lane = _lane(fair, monkeypatch)
    lane.run_until(lambda: len(lane.gaps.get(victim, ())) >= 12)
    s = fair.service.settings
    bound = 200 + 2 * s.search_slice_ms + 2 * s.search_min_ms  # its own budget plus a small bound
    gaps = lane.gaps[victim]
    assert max(gaps) <= bound, gaps  # (before: each of its moves waited for ten 3-s searches)
    assert min(gaps) >= 200, gaps  # and never before its answer time (RULES §7.1(4))
    flooded = [g for gid in flood for g in lane.given.get(gid, [])]
    assert flooded and max(flooded) <= s.search_slice_ms, flooded  # the flood's searches were cut to a slice
    view = fair.view(flood[0])
    assert [n["code"] for n in view.get("notices", [])] == ["search_budget_reduced"], view.get("notices")
    assert view["notices"][0]["detail"] == f"search budget reduced to {view['notices'][0]['budget_ms']} ms: " \
                                           "the server's search lane is busy"


def test_the_view_notice_appears_only_while_the_search_lane_is_saturated(
        fair: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = _bots_table(fair, "10.3.3.3", options={"hard_bot_budget_ms": 400, "bot_delay_ms": {"hard": [0, 0]}})["id"]
    lane = _lane(fair, monkeypatch)
    seen: list[Any] = []
    lane.run_until(lambda: seen.append(fair.view(gid).get("notices")) or len(lane.gaps.get(gid, ())) >= 6)
    assert set(lane.given[gid]) == {400} and seen == [None] * len(seen)  # alone: its whole budget, no notice
    assert set(lane.gaps[gid]) == {400}
    cap = fair.service.settings.max_bot_budget_ms
    for _ in range(5):  # another owner's five max-budget tables arrive: the lane is saturated
        _bots_table(fair, "10.6.6.6", options={"hard_bot_budget_ms": cap, "bot_delay_ms": {"hard": [0, 0]}})
    lane.run_until(lambda: (fair.view(gid).get("notices") or [{}])[0].get("code") == "search_budget_reduced")
    notice = fair.view(gid)["notices"][0]
    assert notice["budget_ms"] < 400 and lane.given[gid][-1] == notice["budget_ms"]
    assert set(notice) == {"code", "budget_ms", "detail"}  # a number of ms and its sentence: nothing else


def test_the_fair_line_takes_owners_in_turn_and_one_job_per_table() -> None:
    from workers.fair import FairLine

    line = FairLine(lambda game: game.split("/")[0])
    for n in range(6):
        line.put("0", f"a{n}", {"game": f"A/{n % 3}", "budget_ms": 3000, "answer_at": 10_000}, 0)
    line.put("0", "b0", {"game": "B/0", "budget_ms": 200, "answer_at": 10_000}, 0)
    order = []
    while (w := line.take(0)) is not None:
        order.append((w.job_id, w.payload["granted_ms"]))
    assert [j for j, _ in order] == ["a0", "b0", "a1", "a2", "a3", "a4", "a5"]  # B is second, not seventh
    assert all(g <= 250 for _, g in order[:-1]) and order[1][1] <= 200


def test_a_search_job_never_moves_twice_and_its_answer_closes_with_the_turn(fair: Table) -> None:
    gid = _bots_table(fair, "10.4.4.4", options={"hard_bot_budget_ms": 80,
                                                  "bot_delay_ms": {"hard": [0, 0]}})["id"]
    svc, store, shard = fair.service, fair.service.store, shard_of(gid)
    svc.pause = lambda s: (_ for _ in ()).throw(AssertionError("a search job held its worker"))
    search = [c for c in store.claim_due(shard, fair.clock.now + 1000, 60_000) if c.payload.get("game") == gid]
    assert [c.payload["lane"] for c in search] == ["search"]
    fair.clock.now = search[0].payload["answer_at"] - 80  # when its search starts
    before = svc.load(gid).version
    assert [svc.run_followup(dict(search[0].payload)) for _ in range(2)] == ["searched", "searched"]  # a re-run
    assert svc.load(gid).version == before  # nothing written before the answer time
    answer_at = search[0].payload["answer_at"]
    assert store.claim_due(shard, answer_at - 1, 60_000) == []
    moves = [c for c in store.claim_due(shard, answer_at, 60_000) if c.payload.get("game") == gid]
    assert len(moves) == 1 and "lane" not in moves[0].payload  # one answer, on the fast lane
    fair.clock.now = answer_at
    assert [svc.run_followup(dict(moves[0].payload)) for _ in range(2)] == ["moved", "closed"]
    events = store.read(gid, after=before)
    seat = search[0].payload["seat"]
    assert [e.at for e in events if e.seat == seat and e.type != "TurnStarted"][:1] == [answer_at]
    assert sum(1 for e in events if e.seat == seat and e.type in ("CardPlayed", "CardDrawn", "TurnPassed")) == 1


def test_bots_only_tables_are_capped_per_address_and_per_network(clock: Clock, random_bytes: Any) -> None:
    table = _table(clock, random_bytes, bots_only_per_owner=2, bots_only_per_address=1)
    first = _bots_table(table, "10.9.9.1", "easy")
    assert first["start"].status_code == 200
    again = _bots_table(table, "10.9.9.1", "easy")
    assert (again["start"].status_code, again["start"].json["code"], again["start"].json["limit"]) == \
        (429, "bots_only_limit", 1)
    assert "Retry-After" not in again["start"].headers  # no delay is true for it (codes.NO_RETRY_AFTER)
    assert again["start"].headers.get("Cache-Control") == "no-store"
    assert table.view(again["id"])["status"] == "open"  # nothing changed on refusal
    assert _bots_table(table, "10.9.9.2", "easy")["start"].status_code == 200  # the same /24, its own address
    third = _bots_table(table, "10.9.9.3", "easy")["start"]
    assert (third.status_code, third.json["code"], third.json["limit"]) == (429, "bots_only_limit", 2)  # the /24's cap
    assert _bots_table(table, "10.9.9.1", "easy", human=True)["start"].status_code == 200  # a human plays: no cap
    r = table.client.delete(f"/v1/games/{first['id']}/seats/1", headers=auth(first["owner_token"]))
    assert r.status_code == 200 and table.view(first["id"])["status"] == "finished"
    retry = table.client.post(f"/v1/games/{again['id']}/start", headers=auth(again["owner_token"]))
    assert retry.status_code == 200  # the finished table's slot came back
    # the origin is store-side only: no answer about a game carries it
    secrets = [table.service.store.token_get(first["id"], f"meta:{k}") for k in ("owner", "addr")]
    assert all(secrets)
    answers = [table.client.get(f"/v1/games/{first['id']}{p}", headers=auth(t)).data
               for p, t in (("", None), ("/events?after=0", None), ("/history", "audit-secret"),
                            ("/verify", "audit-secret"))]
    for blob in answers:
        assert not any(s in blob for s in secrets) and b"10.9.9" not in blob


def test_a_bots_only_table_keeps_a_pace_floor_and_a_table_with_a_human_does_not(fair: Table) -> None:
    floor, store = fair.service.settings.bots_only_min_delay_ms, fair.service.store
    assert floor > 0

    def bot_jobs(gid: str, at: int) -> list[str]:
        return [c.payload["kind"] for c in store.claim_due(shard_of(gid), at, 60_000) if c.payload.get("game") == gid]

    opened = fair.clock.now  # (the test clock stands still: every event is at this time)
    gid = _bots_table(fair, "10.5.5.5", "easy", options={"bot_delay_ms": {"easy": [0, 0]}})["id"]
    assert bot_jobs(gid, opened + floor - 1) == []
    assert bot_jobs(gid, opened + floor) == ["bot"]
    for _ in range(30):
        g = _bots_table(fair, "10.5.5.5", "easy", options={"bot_delay_ms": {"easy": [0, 0]}}, human=True)
        if fair.view(g["id"])["turn"]["seat"] == 1:
            assert bot_jobs(g["id"], opened) == ["bot"]  # a human at the table: the bot's own delay (0)
            return
    raise AssertionError("the bot never had the first turn")
