"""Audit endpoints: history (JSON and NDJSON), verify, state?at=N, chain head, poison events, upcasters."""
from __future__ import annotations

import itertools
import json

import pytest

from service.eventstore import codec
from tests.api.conftest import Table, auth

AUDIT = "audit-secret"


def _finished(table: Table) -> tuple[str, str]:
    g = table.create(options={"penalty_limit": 50})
    for _ in range(2):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(200):
        table.drain()
        if table.view(g["id"])["status"] == "finished":
            return g["id"], g["owner_token"]
        table.clock.advance(1000)
    raise AssertionError("the bots did not finish")


def _running(table: Table) -> tuple[str, str, str, str]:
    g = table.create()
    a = table.join(g["id"], "ann", g["owner_token"])
    b = table.join(g["id"], "bob")
    table.start(g["id"], g["owner_token"])
    return g["id"], g["owner_token"], a["token"], b["token"]


def test_verify_reports_a_finished_game_intact(table: Table) -> None:
    gid, _owner = _finished(table)
    r = table.client.get(f"/v1/games/{gid}/verify", headers=auth(AUDIT))
    assert r.status_code == 200, r.json
    assert r.json["ok"] and r.json["chain"]["ok"] and r.json["replay"]["ok"]
    assert r.json["commitments"]["shuffles"] >= 1
    assert r.json["final"]["standings"] == table.view(gid)["standings"]
    assert table.client.get(f"/v1/games/{gid}/verify").status_code == 401


def test_verify_and_history_of_a_running_game_reveal_nothing(table: Table) -> None:
    gid, _owner, ta, _tb = _running(table)
    r = table.client.get(f"/v1/games/{gid}/verify", headers=auth(AUDIT))
    assert (r.status_code, r.json["code"]) == (409, "game_running")
    assert table.client.get(f"/v1/games/{gid}/history", headers=auth(ta)).json["code"] == "forbidden"
    hist = table.client.get(f"/v1/games/{gid}/history", headers=auth(AUDIT)).json["events"]
    text = json.dumps(hist)
    assert '"secret"' not in text and '"private"' not in text and '"nonce"' not in text
    hand = table.view(gid, ta)["you"]["hand"]
    assert not any(card in text for card in hand)


def test_history_streams_ndjson_with_chain_links(table: Table) -> None:
    gid, owner = _finished(table)
    r = table.client.get(f"/v1/games/{gid}/history", headers={**auth(owner), "Accept": "application/x-ndjson"})
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    lines = [json.loads(x) for x in r.get_data(as_text=True).splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, len(lines) + 1))
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(lines))
    as_json = table.client.get(f"/v1/games/{gid}/history", headers=auth(owner)).json["events"]
    assert as_json == lines
    assert lines[-1]["type"] == "SeedsRevealed" and "command" in lines[0]


def test_the_view_shows_the_chain_head(table: Table) -> None:
    gid, owner = _finished(table)
    hist = table.client.get(f"/v1/games/{gid}/history", headers=auth(owner)).json["events"]
    assert table.view(gid)["chain_head"] == hist[-1]["hash"]
    at = table.client.get(f"/v1/games/{gid}/state?at=10").json
    assert at["chain_head"] == hist[9]["hash"] and at["version"] == 10


def test_state_at_has_the_live_redaction(table: Table) -> None:
    gid, _owner, ta, _tb = _running(table)
    version = table.view(gid)["version"]
    hand_a = table.view(gid, ta)["you"]["hand"]
    past_a = table.client.get(f"/v1/games/{gid}/state?at={version}", headers=auth(ta)).json
    past_s = table.client.get(f"/v1/games/{gid}/state?at={version}").json
    assert past_a["you"]["hand"] == hand_a and "you" not in past_s
    assert not any(c in json.dumps(past_s) for c in hand_a)
    early = table.client.get(f"/v1/games/{gid}/state?at=2", headers=auth(ta)).json
    assert early["status"] == "open"
    r = table.client.get(f"/v1/games/{gid}/state?at=0")
    assert (r.status_code, r.json["code"]) == (422, "invalid_request")  # not a version at all
    r = table.client.get(f"/v1/games/{gid}/state?at={version + 1}")
    assert (r.status_code, r.json["code"]) == (404, "not_found")  # a version the game has not reached


def test_a_poison_event_fails_only_its_game(table: Table) -> None:
    gid, _owner, _ta, _tb = _running(table)
    other, *_ = _running(table)
    store = table.service.store
    with store._lock:  # the in-memory twin: write a garbage entry the way a broken writer would
        store._streams[gid].append(b'{"t": "CardPlayed", "v": 1')
    table.service.cache.drop(gid)
    r = table.client.get(f"/v1/games/{gid}")
    assert (r.status_code, r.json["code"]) == (500, "game_corrupted")
    assert "Traceback" not in r.get_data(as_text=True)
    assert r.json["seq"] == len(store._streams[gid])
    assert table.client.get(f"/v1/games/{other}").status_code == 200


def test_an_old_schema_version_is_upcast_on_read(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored TurnPassed of (pretend) version 0 named its seat 'who'; the shedding games' upcaster
    renames it. Upcasters are keyed by (game, type, version): another game's never applies."""
    from service.games.kernel.model import Event

    codec._registry()  # the games' own upcasters are loaded first; the test adds one
    monkeypatch.setitem(codec.UPCASTERS, ("shedding", "TurnPassed", 0), lambda b: {**b, "v": 1, "d": {
        **{k: v for k, v in b["d"].items() if k != "who"}, "seat": b["d"]["who"]}})
    monkeypatch.setitem(codec.UPCASTERS, ("sakapuss", "CardsDealt", 0), lambda b: {**b, "v": 1, "d": {"upcast": True}})
    raw = codec.to_json({"t": "TurnPassed", "v": 0, "at": 1, "r": 1, "s": 2, "d": {"who": 2, "turn_id": 4, "blocked": False}})
    event = codec.decode(7, raw, lambda: "shedding")
    assert event == Event(7, "TurnPassed", 1, 1, 2, {"seat": 2, "turn_id": 4, "blocked": False})
    dealt = codec.to_json({"t": "CardsDealt", "v": 0, "at": 1, "r": 1, "s": None, "d": {"hand_sizes": {}}})
    assert codec.decode(3, dealt, lambda: "sakapuss").data == {"upcast": True}
    with pytest.raises(codec.CorruptEvent):  # the shedding games have no CardsDealt v0 upcaster
        codec.decode(3, dealt, lambda: "shedding")
    with pytest.raises(codec.CorruptEvent):  # an old version with no game to name its upcaster
        codec.decode(7, raw)


def test_a_stores_reads_upcast_with_the_streams_own_game(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading through the store names the game from the stream's MatchCreated."""
    gid, _owner = _finished(table)
    store = table.service.store
    codec._registry()
    seen: list[str] = []

    def lift(b):
        seen.append(b["t"])
        return {**b, "v": 1}

    monkeypatch.setitem(codec.UPCASTERS, ("shedding", "TurnStarted", 0), lift)
    raws = store._streams[gid]
    i = next(i for i, raw in enumerate(raws) if b'"TurnStarted"' in raw)
    original = raws[i]
    raws[i] = original.replace(b'"v":1', b'"v":0', 1)
    try:
        events = store.read(gid)
    finally:
        raws[i] = original
    assert seen == ["TurnStarted"] and events[i].type == "TurnStarted"


def test_server_sent_events_stream_and_resume(table: Table) -> None:
    gid, _owner = _finished(table)
    r = table.client.get(f"/v1/games/{gid}/events", headers={"Accept": "text/event-stream"})
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    frames = [f for f in r.get_data(as_text=True).split("\n\n") if f.startswith("id: ")]
    ids = [int(f.split("\n")[0][4:]) for f in frames]
    assert ids == list(range(1, table.view(gid)["version"] + 1))
    first = json.loads(frames[0].split("\n")[2][6:])
    assert first["type"] == "MatchCreated" and "secret" not in first
    r = table.client.get(f"/v1/games/{gid}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "40"})
    resumed = [f for f in r.get_data(as_text=True).split("\n\n") if f.startswith("id: ")]
    assert int(resumed[0].split("\n")[0][4:]) == 41


def test_verify_reports_an_unreadable_command_as_a_failed_replay(table: Table) -> None:
    """A stored command under a name no table lists (or a newer version) fails closed: `verify`
    answers 200 with ok false and the event named, never a 500 (tests/test_recorded_commands.py)."""
    gid, _owner = _finished(table)
    raws = table.service.store._streams[gid]
    i = next(i for i, raw in enumerate(raws) if b'"type":"JoinSeat"' in raw)
    original = raws[i]
    for forged, reason in ((b'"type":"SitDown"', "unknown command"), (b'"type":"JoinSeat","v":9', "newer")):
        raws[i] = original.replace(b'"type":"JoinSeat","v":1', forged, 1)
        assert raws[i] != original
        table.service.store._reports.clear()  # the kept report is a cache of the stream changed underneath
        try:
            r = table.client.get(f"/v1/games/{gid}/verify", headers=auth(AUDIT))
        finally:
            raws[i] = original
        assert r.status_code == 200, r.json
        assert not r.json["ok"] and not r.json["replay"]["ok"] and r.json["first_bad_seq"] == i + 1
        replay = [p for p in r.json["problems"] if p["check"] == "replay"]
        assert replay[0]["seq"] == i + 1 and reason in replay[0]["detail"], replay
    table.service.store._reports.clear()
    assert table.client.get(f"/v1/games/{gid}/verify", headers=auth(AUDIT)).json["ok"]
