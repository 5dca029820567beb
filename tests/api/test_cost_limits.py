"""Cost-aware reads (issue 25, finding 3): a finished game's verify report is computed once and
kept for every reader and process, through compaction; the operations whose work grows with a
game (history, verify, state?at, events) spend a cost budget per token and per client network
beside the request counts; long events and history answers are streamed a page at a time, with
the very bytes of the one-piece answer."""
from __future__ import annotations

import gzip
import hashlib
from typing import Any

import orjson
import pytest

from service.api.app import create_app
from service.app import audit
from service.app.auth import SPECTATOR, Caller, caller_after
from service.app.redaction import Viewer, project_event
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

from .conftest import UNPACED, Clock, Table, auth

AUDIT = "audit-secret"


def _table(store: MemoryEventStore, **settings: Any) -> Table:
    """One API process on ``store`` (several share it as processes share Redis)."""
    cfg = Settings(audit_token_hashes=frozenset({hashlib.sha256(AUDIT.encode()).hexdigest()}), **{**UNPACED, **settings})
    app = create_app(cfg, store=store)
    clock = Clock()
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _finished(table: Table, penalty_limit: int = 50) -> tuple[str, str]:
    """A bots-only game played to its end: (game id, owner token)."""
    g = table.create(options={"penalty_limit": penalty_limit}, max_players=3)
    for _ in range(3):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(400):
        table.drain()
        if table.view(g["id"])["status"] == "finished":
            return g["id"], g["owner_token"]
        table.clock.advance(1000)
    raise AssertionError("the bots did not finish")


def test_a_finished_games_verify_is_computed_once_for_every_reader_and_process(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryEventStore()
    one, two = _table(store), _table(store)  # two API processes on one store
    gid, owner = _finished(one)
    computed: list[int] = []
    real = audit.verify
    monkeypatch.setattr(audit, "verify", lambda records: computed.append(len(records)) or real(records))
    url = f"/v1/games/{gid}/verify"
    first = one.client.get(url, headers=auth(AUDIT))
    assert first.status_code == 200 and first.json["ok"], first.json
    again = [t.client.get(url, headers=auth(who)) for t in (one, two) for who in (AUDIT, owner)]
    assert computed == [first.json["events"]]  # once, for every reader, in both processes
    assert {(r.status_code, r.get_data(), r.headers["ETag"]) for r in again} == \
        {(200, first.get_data(), first.headers["ETag"])}
    assert one.client.get(url).status_code == 401  # who may read it is still checked every time
    # compaction changes nothing the replay reads: the kept report is what a fresh computation says
    assert store.compact(gid, first.json["events"]) == "compacted"
    assert two.client.get(url, headers=auth(owner)).get_data() == first.get_data() and len(computed) == 1
    store._reports.clear()
    assert _table(store).client.get(url, headers=auth(AUDIT)).get_data() == first.get_data()
    assert len(computed) == 2


def test_the_cost_budget_refuses_a_verify_loop_while_cheap_reads_answer() -> None:
    table = _table(MemoryEventStore(), rate_cost_per_token="1/minute")
    (a, owner_a), (b, owner_b) = _finished(table), _finished(table)
    assert table.client.get(f"/v1/games/{a}/verify", headers=auth(AUDIT)).status_code == 200  # overdraws
    refused = table.client.get(f"/v1/games/{b}/verify", headers=auth(AUDIT))
    assert (refused.status_code, refused.json["code"]) == (429, "rate_limited")
    assert refused.headers["Content-Type"] == "application/problem+json" and "cost" in refused.json["detail"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert table.client.get(f"/v1/games/{b}", headers=auth(AUDIT)).status_code == 200  # a view costs no units
    # another token has its own budget; a read that touches few events is not charged
    version = table.view(b)["version"]
    for _ in range(3):
        assert table.client.get(f"/v1/games/{b}/events?after={version - 5}", headers=auth(owner_b)).status_code == 200
    assert table.client.get(f"/v1/games/{b}/verify", headers=auth(owner_b)).status_code == 200
    assert table.client.get(f"/v1/games/{b}/history", headers=auth(owner_b)).status_code == 429
    assert table.client.get(f"/v1/games/{a}/history", headers=auth(owner_a)).status_code == 200


def test_the_cost_budget_of_tokenless_reads_counts_per_client_network() -> None:
    table = _table(MemoryEventStore(), rate_cost_per_address="1/minute")
    gid, _owner = _finished(table)
    assert table.view(gid)["version"] >= 100  # events?after=0 costs a unit at least

    def events(addr: str) -> int:
        return table.client.get(f"/v1/games/{gid}/events?after=0", environ_base={"REMOTE_ADDR": addr}).status_code

    assert events("192.0.2.7") == 200
    assert events("192.0.2.99") == 429  # the same /24
    assert events("198.51.100.7") == 200


def _old_events(table: Table, gid: str, token: str | None, after: int) -> bytes:
    """GET /events as it was answered before streaming (the whole list, one store read)."""
    svc = table.service
    caller: Caller = svc.authenticate(gid, token)
    state, out = svc.load(gid), []
    for e in svc.store.read(gid, after=after):
        nxt = caller_after(caller, e)
        out.append(project_event(e, Viewer(seat=(nxt or SPECTATOR).seat)))
        if nxt is None:
            break
        caller = nxt
    return orjson.dumps({"version": state.version, "events": out}, option=orjson.OPT_NON_STR_KEYS)


def _old_history(table: Table, gid: str) -> bytes:
    state = table.service.load(gid)
    records = list(audit.history_records(table.service.store.read_stored(gid)))
    return orjson.dumps({"version": state.version, "status": state.status, "events": records},
                        option=orjson.OPT_NON_STR_KEYS)


def test_long_events_and_history_answers_stream_the_same_bytes_a_page_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryEventStore()
    streamed = _table(store, stream_answers_over=50)
    gid, owner = _finished(streamed, penalty_limit=200)
    version = streamed.view(gid)["version"]
    assert version > 500  # more than one page
    reads: list[int] = []  # the events of each store read
    real_read_stored = store.read_stored

    def read_stored(g: str, after: int = 0, count: int | None = None) -> Any:
        got = real_read_stored(g, after, count)
        reads.append(len(got))
        return got

    monkeypatch.setattr(store, "read_stored", read_stored)
    monkeypatch.setattr(store, "read", lambda *a, **k: pytest.fail("an unbounded read"))
    asks = [(f"/v1/games/{gid}/events?after={after}", token) for after in (0, 7) for token in (None, owner)]
    asks += [(f"/v1/games/{gid}/history", owner)]
    for url, token in asks:
        reads.clear()
        r = streamed.client.get(url, headers=auth(token))
        assert r.status_code == 200 and "Content-Length" not in r.headers, url  # streamed
        assert r.headers["ETag"] == f'"{version}"' and r.mimetype == "application/json"
        assert len(reads) > 1 and max(reads) <= 500, reads  # page by page
        monkeypatch.undo()  # (the oracle reads the whole game at once)
        after = int(url.rpartition("=")[2]) if "after=" in url else 0
        want = _old_events(streamed, gid, token, after) if "events" in url else _old_history(streamed, gid)
        assert r.get_data() == want, url
        zipped = streamed.client.get(url, headers={**auth(token), "Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
        assert gzip.decompress(zipped.get_data()) == want
        monkeypatch.setattr(store, "read_stored", read_stored)
    from service.api.http import json_pieces

    short = streamed.client.get(f"/v1/games/{gid}/events?after={version - 3}")
    assert "Content-Length" in short.headers and short.json["version"] == version  # short: one piece, as before
    events = orjson.loads(_old_events(streamed, gid, None, 0))["events"]
    pieces = list(json_pieces({"version": version}, "events", iter(events), piece_bytes=512))
    assert len(pieces) > 10 and max(map(len, pieces)) < 512 + max(len(orjson.dumps(e)) for e in events) + 16
    assert b"".join(pieces) == orjson.dumps({"version": version, "events": events})
