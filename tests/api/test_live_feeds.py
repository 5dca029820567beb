"""Live feeds: a seat that leaves, is removed or is removed as absent loses its open streams.

Every case opens a server-sent-event stream and a long-poll with the seat's token, makes the
seat go, plays on, and checks that the stream sent that ``SeatLeft`` and ``event: revoked`` and
closed (or, for an owner, went on seatless), and that no frame after that point carries the old
seat's private fields — in Prší with ``replace_with_bot`` and in Sakapuss, where a bot takes the
seat over and so the seat's private fields go on existing.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tests.api.conftest import Table, auth, declared_options, one_variant_per_game


class SSE:
    """Reads a server-sent-event response of the Flask test client in a thread."""

    def __init__(self, table: Table, gid: str, token: str | None, after: int = 0) -> None:
        headers = {**auth(token), "Accept": "text/event-stream", "Last-Event-ID": str(after)}
        self.resp = table.app.test_client().get(f"/v1/games/{gid}/events", headers=headers, buffered=False)
        assert self.resp.status_code == 200, self.resp.get_data()
        self.frames: list[dict[str, Any]] = []
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buf = b""
        try:
            for chunk in self.resp.response:
                buf += chunk
                while b"\n\n" in buf:
                    raw, buf = buf.split(b"\n\n", 1)
                    frame: dict[str, Any] = {}
                    for line in raw.decode().split("\n"):
                        key, _, value = line.partition(": ")
                        if key in ("id", "event", "data"):
                            frame[key] = json.loads(value) if key == "data" else value
                    if "event" in frame:
                        self.frames.append(frame)
        finally:
            self.closed.set()

    def wait_for(self, pred: Any, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not any(pred(f) for f in self.frames):
            assert time.monotonic() < deadline, f"no such frame in {[f['event'] for f in self.frames]}"
            time.sleep(0.02)


def _waiters(table: Table, gid: str) -> int:
    """Open subscriptions to the game in the app's feed hub (streams and waiting long-polls)."""
    hub = table.app.extensions.get("meow.feeds")
    watch = hub._watches.get(gid) if hub is not None else None
    return len(watch.subs) if watch is not None else 0


class LongPoll:
    def __init__(self, table: Table, gid: str, token: str, after: int) -> None:
        self.result: dict[str, Any] = {}
        client = table.app.test_client()

        def run() -> None:
            r = client.get(f"/v1/games/{gid}/events?after={after}&wait=20", headers=auth(token))
            self.result.update(status=r.status_code, body=r.json)

        before = _waiters(table, gid)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20  # it waits (subscribed to the game's feed): an outcome, not a pause
        while _waiters(table, gid) <= before and self.thread.is_alive():
            assert time.monotonic() < deadline, "the long-poll never started waiting"
            time.sleep(0.01)

    def join(self) -> dict[str, Any]:
        self.thread.join(25)
        assert self.result, "the long-poll never answered"
        return self.result


def _game(table: Table, variant: str, humans: int, **options: Any) -> tuple[str, str, dict[int, str]]:
    extra = declared_options(variant, {"pass_timeout_s": 30, "leaver_policy": "replace_with_bot"})
    g = table.create(variant, {**extra, **options})
    tokens = {}
    for i in range(humans):
        seat = table.join(g["id"], f"p{i}", g["owner_token"] if i == 0 else None)
        tokens[seat["seat"]] = seat["token"]
    table.start(g["id"], g["owner_token"])
    return g["id"], g["owner_token"], tokens


def _play(table: Table, gid: str, tokens: dict[int, str], rounds: int = 6) -> None:
    """Everyone still seated makes a legal move, the bots and jobs follow; a few times over."""
    for _ in range(rounds):
        for token in tokens.values():
            r = table.client.get(f"/v1/games/{gid}/actions", headers=auth(token))
            if r.status_code == 200 and r.json["legal_actions"]:
                table.act(gid, token, r.json["legal_actions"][0])
        table.clock.advance(3000)  # bots answer after their reaction delays
        table.drain()
        if table.view(gid)["status"] == "finished":
            return


def _after(frames: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The frames from the SeatLeft of ``seat`` on."""
    at = next(i for i, f in enumerate(frames) if f["event"] == "SeatLeft" and f["data"]["data"]["seat"] == seat)
    return frames[at:]


@pytest.mark.parametrize("variant", one_variant_per_game())
def test_a_seat_that_leaves_is_revoked_on_its_stream_and_long_poll(table: Table, variant: str) -> None:
    gid, _owner, tokens = _game(table, variant, 4)
    _play(table, gid, tokens, 1)
    leaver = tokens[1]
    stream = SSE(table, gid, leaver)
    stream.wait_for(lambda f: f["event"] == "TurnStarted" or f["event"] == "StepOpened" or "private" in f["data"])
    assert any("private" in f["data"] for f in stream.frames)  # it did see its own cards
    poll = LongPoll(table, gid, leaver, table.view(gid)["version"])
    assert table.client.delete(f"/v1/games/{gid}/seats/1", headers=auth(leaver)).status_code == 200
    others = {s: t for s, t in tokens.items() if s != 1}
    _play(table, gid, others)  # a bot plays the seat on: its private fields exist
    assert stream.closed.wait(20), "the leaver's stream stayed open"
    tail = _after(stream.frames, 1)
    assert tail[-1]["event"] == "revoked" and tail[-1]["data"]["code"] == "revoked"
    assert [f["event"] for f in tail] == ["SeatLeft", "revoked"]
    assert all("private" not in f["data"] for f in tail)
    answer = poll.join()
    assert answer["status"] == 200
    assert answer["body"]["events"][-1]["type"] == "SeatLeft" and "private" not in answer["body"]["events"][-1]
    assert table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(leaver)).status_code == 401


@pytest.mark.parametrize("variant", one_variant_per_game())
def test_an_owner_whose_seat_goes_streams_on_seatless(table: Table, variant: str) -> None:
    gid, owner, tokens = _game(table, variant, 4)
    stream = SSE(table, gid, owner)
    stream.wait_for(lambda f: "private" in f["data"])
    poll = LongPoll(table, gid, owner, table.view(gid)["version"])
    assert table.client.delete(f"/v1/games/{gid}/seats/0", headers=auth(owner)).status_code == 200
    answer = poll.join()
    assert answer["status"] == 200 and answer["body"]["events"], answer
    seat_left = [e for e in answer["body"]["events"] if e["type"] == "SeatLeft"]
    assert seat_left and all("private" not in e for e in answer["body"]["events"][answer["body"]["events"].index(seat_left[0]):])
    others = {s: t for s, t in tokens.items() if s != 0}
    before = len(stream.frames)
    _play(table, gid, others)
    stream.wait_for(lambda f: stream.frames.index(f) > before + 2)
    tail = _after(stream.frames, 0)
    assert len(tail) > 2 and "revoked" not in [f["event"] for f in tail]  # downgraded, not ended
    assert all("private" not in f["data"] for f in tail)
    assert not stream.closed.is_set() or table.view(gid)["status"] == "finished"
    assert table.client.get(f"/v1/games/{gid}", headers=auth(owner)).json.get("you") is None


def test_a_seat_the_owner_removes_is_revoked(table: Table) -> None:
    gid, owner, tokens = _game(table, "prsi", 3)
    stream = SSE(table, gid, tokens[2])
    stream.wait_for(lambda f: "private" in f["data"])
    assert table.client.delete(f"/v1/games/{gid}/seats/2", headers=auth(owner)).status_code == 200
    _play(table, gid, {0: tokens[0], 1: tokens[1]})
    assert stream.closed.wait(20)
    assert [f["event"] for f in _after(stream.frames, 2)] == ["SeatLeft", "revoked"]


def test_an_absent_seat_removed_is_revoked(table: Table) -> None:
    g = table.create("prsi", {"turn_timeout_s": 10, "max_consecutive_timeouts": 1, "absent_removal_s": 60,
                              "penalty_limit": 1000, "bot_delay_ms": {"easy": [3000, 3000]}})
    gid = g["id"]
    table.add_bot(gid, g["owner_token"])  # seat 0 plays at once
    token = table.join(gid, "away")["token"]  # seat 1 never plays: timed out, absent, removed
    table.start(gid, g["owner_token"])
    stream = SSE(table, gid, token)
    stream.wait_for(lambda f: "private" in f["data"])
    poll = None
    for _ in range(200):
        view = table.view(gid)
        if view["seats"][1]["state"] == "left" or view["status"] == "finished":
            break
        due = view["seats"][1].get("removal_deadline")
        if poll is None and due is not None and due <= table.clock.now + 3_000:
            poll = LongPoll(table, gid, token, view["version"])  # waiting when the removal comes
        table.clock.advance(3_000)
        table.drain()
    assert table.view(gid)["seats"][1]["state"] == "left", table.view(gid)
    stream.wait_for(lambda f: f["event"] == "SeatLeft")
    left = [f for f in stream.frames if f["event"] == "SeatLeft"]
    assert left and left[0]["data"]["data"]["reason"] == "absent_removed", left
    assert stream.closed.wait(20)
    assert [f["event"] for f in _after(stream.frames, 1)] == ["SeatLeft", "revoked"]
    assert poll is not None
    types = [e["type"] for e in poll.join()["body"]["events"]]  # (it may have woken at a bot's move before)
    assert "SeatLeft" not in types or types.index("SeatLeft") == len(types) - 1
