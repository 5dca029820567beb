"""Open streams cost memory, not threads; caps hold across API processes; searches never hold up
other tables' work. Real Redis, real gunicorn (gevent, as `meow run` serves) and real workers."""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests

from tools.stack import live_stack

SSE = {"Accept": "text/event-stream"}


@dataclass
class Fleet:
    bases: list[str]
    env: dict


@pytest.fixture(scope="module")
def fleet(redis_url: str) -> Iterator[Fleet]:
    """Two API processes (one gevent worker each) and the workers `meow run` starts: a fast one
    with the dispatcher and a search one."""
    with live_stack(redis_url, apis=2, api_workers=1, workers=[["--queues", "fast"], ["--queues", "search,fast",
                    "--no-dispatcher"]], tag="streams", full_speed_bots=False, MEOW_MAX_STREAMS_PER_TOKEN="2",
                    MEOW_MAX_STREAMS_PER_ADDRESS="150", MEOW_SSE_HEARTBEAT_S="1", MEOW_MAX_BOT_BUDGET_MS="2000",
                    MEOW_OPEN_GAME_TTL_S="4", MEOW_RATE_CREATES_PER_ADDRESS="20/minute") as stack:
        yield Fleet(stack.bases, stack.env)


def _session() -> requests.Session:
    s = requests.Session()
    s.trust_env = False
    return s


def _humans_table(base: str, s: requests.Session, **options: object) -> tuple[str, str, dict[int, str]]:
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": {
        "announce_grace_ms": 0, "round_intermission_s": 0, "turn_timeout_s": None, **options}}).json()
    owner = g["owner_token"]
    tokens = {}
    for i in range(2):
        seat = s.post(f"{base}/v1/games/{g['id']}/seats", json={"name": f"p{i}"},
                      headers={"Authorization": f"Bearer {owner}"} if i == 0 else {}).json()
        tokens[seat["seat"]] = seat["token"]
    assert s.post(f"{base}/v1/games/{g['id']}/start", headers={"Authorization": f"Bearer {owner}"}).status_code == 200
    return g["id"], owner, tokens


class Watcher(threading.Thread):
    """One SSE stream read in a thread: records every event id it receives."""

    def __init__(self, url: str, headers: dict | None = None) -> None:
        super().__init__(daemon=True)
        self.url, self.headers = url, {**SSE, **(headers or {})}
        self.ids: list[int] = []
        self.status = 0
        self.opened = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            with _session().get(self.url, headers=self.headers, stream=True, timeout=60) as r:
                self.status = r.status_code
                self.opened.set()
                if r.status_code != 200:
                    return
                for line in r.iter_lines():
                    if line.startswith(b"id: "):
                        self.ids.append(int(line[4:]))
                    if self.stop.is_set():
                        return
        except requests.RequestException:
            pass
        finally:
            self.opened.set()


def test_more_streams_than_threads_and_still_a_move_lands_everywhere(fleet: Fleet) -> None:
    base = fleet.bases[0]
    s = _session()
    gid, _owner, tokens = _humans_table(base, s)
    watchers = [Watcher(f"{fleet.bases[i % 2]}/v1/games/{gid}/events") for i in range(100)]
    for w in watchers:
        w.start()
    for w in watchers:
        assert w.opened.wait(30)
    assert [w.status for w in watchers] == [200] * 100
    started = time.monotonic()
    assert s.get(f"{base}/healthz", timeout=10).status_code == 200
    view = s.get(f"{base}/v1/games/{gid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    seat = view["turn"]["seat"]
    legal = s.get(f"{base}/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
    r = s.post(f"{base}/v1/games/{gid}/actions", json=legal["legal_actions"][0],
               headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    while time.monotonic() - started < 30 and not all(version in w.ids for w in watchers):
        time.sleep(0.1)
    assert all(version in w.ids for w in watchers), sum(version in w.ids for w in watchers)
    assert all(w.ids == list(range(1, len(w.ids) + 1)) for w in watchers)  # in order, none lost or doubled
    for w in watchers:
        w.stop.set()


def _raw_sse(base: str, path: str, source: str, token: str | None = None) -> tuple[socket.socket, int]:
    """Open an SSE request from a chosen loopback source address; (socket, HTTP status)."""
    host, port = base.split("//")[1].split(":")
    sock = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{auth}\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        head += sock.recv(1024)
    return sock, int(head.split(b" ")[1])


def _retry_after_close(base: str, path: str, source: str, token: str | None, seconds: float = 15) -> int:
    deadline = time.monotonic() + seconds
    while True:
        sock, status = _raw_sse(base, path, source, token)
        if status == 200 or time.monotonic() > deadline:
            return status
        sock.close()
        time.sleep(0.3)


def test_stream_caps_hold_across_two_api_processes_and_free_on_close(fleet: Fleet) -> None:
    a, b = fleet.bases
    s = _session()
    gid, _owner, tokens = _humans_table(a, s)
    path = f"/v1/games/{gid}/events"
    first, st1 = _raw_sse(a, path, "127.0.3.1", tokens[0])
    second, st2 = _raw_sse(b, path, "127.0.3.1", tokens[0])
    assert (st1, st2) == (200, 200)
    refused = s.get(f"{a}{path}", headers={**SSE, "Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert refused.status_code == 429 and refused.headers["Content-Type"].startswith("application/problem+json")
    assert refused.json()["code"] == "rate_limited" and int(refused.headers["Retry-After"]) > 0
    poll = s.get(f"{b}{path}?wait=1", headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert poll.status_code == 429  # a waiting long-poll is a stream too
    second.close()  # the server notices at its next heartbeat and frees the slot
    assert _retry_after_close(a, path, "127.0.3.1", tokens[0]) == 200
    first.close()
    # per address prefix (a /24): 150 streams from one source, spectators and seats alike
    held = [_raw_sse(b if i % 2 else a, path, "127.0.4.1") for i in range(150)]
    assert [st for _, st in held] == [200] * 150
    over, status = _raw_sse(a, path, "127.0.4.2")  # a neighbour in the same /24 shares the cap
    assert status == 429
    over.close()
    _, other = _raw_sse(a, path, "127.0.5.1")  # another /24 is not affected
    assert other == 200
    held[0][0].close()
    assert _retry_after_close(b, path, "127.0.4.2", None) == 200
    for sock, _ in held[1:]:
        sock.close()


def _bot_table(base: str, s: requests.Session, strength: str, budget: int | None, humans: int) -> dict:
    options = {"announce_grace_ms": 0, "round_intermission_s": 0, "turn_timeout_s": None,
               "bot_delay_ms": {"easy": [0, 0], "medium": [0, 0], "hard": [0, 0]}, "penalty_limit": 1000}
    if budget is not None:
        options["hard_bot_budget_ms"] = budget
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": options}).json()
    owner = {"Authorization": f"Bearer {g['owner_token']}"}
    tokens = [s.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "me"}, headers=owner).json()["token"]
              for _ in range(humans)]
    for _ in range(2 - humans):
        assert s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": strength}}, headers=owner).status_code == 201
    if humans:
        assert s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": strength}}, headers=owner).status_code == 201
    assert s.post(f"{base}/v1/games/{g['id']}/start", headers=owner).status_code == 200
    return {"id": g["id"], "token": tokens[0] if tokens else None, "created": g}


def _moves(base: str, s: requests.Session, gid: str) -> list[dict]:
    events = s.get(f"{base}/v1/games/{gid}/events?after=0").json()["events"]
    return [e for e in events if e["type"] in ("CardPlayed", "CardDrawn", "TurnPassed", "PenaltyTaken") and e["seat"] is not None]


def test_a_search_does_not_hold_up_another_tables_easy_bot(fleet: Fleet) -> None:
    """Right after a hard move lands, the next search (2 s: every hard move answers after its
    budget) has just begun on the search worker; an easy bot asked then must answer before it."""
    base = fleet.bases[0]
    s = _session()
    hard = _bot_table(base, s, "hard", 5000, humans=0)
    assert [w["option"] for w in hard["created"]["warnings"]] == ["hard_bot_budget_ms"]  # capped at 2000
    assert hard["created"]["game"]["options"]["hard_bot_budget_ms"] == 2000
    easy = _bot_table(base, s, "easy", None, humans=1)
    auth = {"Authorization": f"Bearer {easy['token']}"}
    checked = 0
    # a generous bound for three observations: on a loaded 2-core machine a 2 s search can take
    # several times its budget to land, and a turn may pass without an answer due (a draw, a round end)
    deadline = time.monotonic() + 240
    while checked < 3 and time.monotonic() < deadline:
        view = s.get(f"{base}/v1/games/{easy['id']}", headers=auth).json()
        legal = view.get("you", {}).get("legal_actions") or []
        if view["status"] != "running" or not legal or view["turn"] is None or view["turn"]["seat"] != 0:
            time.sleep(0.05)
            continue
        seen = len(_moves(base, s, hard["id"]))
        while len(_moves(base, s, hard["id"])) == seen and time.monotonic() < deadline:
            time.sleep(0.02)  # wait for a hard move: the next search starts now
        landed = len(_moves(base, s, hard["id"]))
        r = s.post(f"{base}/v1/games/{easy['id']}/actions", json=legal[0], headers=auth)
        turn = r.json().get("game", {}).get("turn") if r.status_code == 200 else None
        if turn is None or turn["seat"] != 1:
            continue  # still our turn (a draw, an announcement) or the round ended: no answer due
        mine = r.json()["version"]
        while time.monotonic() < deadline:  # the easy bot's answer, then the hard table's next move
            answers = [e for e in _moves(base, s, easy["id"]) if e["seq"] > mine and e["seat"] == 1]
            later = _moves(base, s, hard["id"])[landed:]
            if answers or later:
                assert answers and (not later or answers[0]["at"] < later[0]["at"]), \
                    "the easy bot waited behind a search"
                checked += 1
                break
            time.sleep(0.02)
    assert checked == 3, f"only {checked} of 3 observations within the bound"


def _post_from(base: str, source: str, path: str, body: dict) -> tuple[int, dict]:
    import http.client
    import json

    host, port = base.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def test_create_limits_and_open_table_expiry_hold_across_two_api_processes(fleet: Fleet) -> None:
    a, b = fleet.bases
    answers = [_post_from((a, b)[i % 2], "127.0.8.1", "/v1/games", {"variant": "prsi"}) for i in range(20)]
    answers.append(_post_from(b, "127.0.8.2", "/v1/games", {"variant": "prsi"}))  # a neighbour in the same /24
    assert [status for status, _ in answers[:20]] == [201] * 20
    assert answers[20][0] == 429 and answers[20][1]["code"] == "rate_limited"  # the 21st, whichever process
    assert _post_from(b, "127.0.9.1", "/v1/games", {"variant": "prsi"})[0] == 201  # another /24
    s = _session()
    gid = answers[0][1]["id"]
    assert s.get(f"{b}/v1/games/{gid}").status_code == 200  # now cached in b's process
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(s.get(f"{base}/v1/games/{gid}").status_code != 404 for base in (a, b)):
        time.sleep(0.3)
    assert [s.get(f"{base}/v1/games/{gid}").status_code for base in (a, b)] == [404, 404]
    assert gid not in {g["id"] for g in s.get(f"{a}/v1/games?limit=100").json()["games"]}
