"""The slow-client attacker and its victim (issue 25, finding 1), shared by tests/e2e/test_slow_clients.py
and bench/slow_clients.py: one client holding N slow connections from one /24 (127.0.9.0/24: headers
dribbled, bodies stalled) and another (127.0.1.7) timing its /healthz and moves."""
from __future__ import annotations

import contextlib
import http.client
import resource
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

ATTACKER = "127.0.9"  # the attacker's /24
VICTIM = "127.0.1.7"
HEADERS = b"GET /healthz HTTP/1.1\r\nHost: meow\r\nX-Slow: "  # never ends: one more byte now and then
BODY = (b"POST /v1/games HTTP/1.1\r\nHost: meow\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
        b'{"variant": "')  # 4 KB announced, a few bytes sent, then nothing


def raise_fd_limit(wanted: int) -> None:
    """The soft open-file limit up to ``wanted`` (at most the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@dataclass
class Attack:
    """``n`` slow connections to ``port`` from addresses of ATTACKER.0/24 (``per_address`` each), half
    dribbling their headers, half stalling in their body; run in a thread by ``hold``."""
    port: int
    n: int
    per_address: int = 4
    dribble_s: float = 0.5
    opened_at: float = 0.0
    answers: Counter = field(default_factory=Counter)  # status (or "none": closed without one)
    closed_after: list[float] = field(default_factory=list)  # seconds from opening to the server's close
    still_open: int = 0

    def _open(self) -> tuple[selectors.DefaultSelector, dict[socket.socket, list[Any]]]:
        sel = selectors.DefaultSelector()
        socks: dict[socket.socket, list[Any]] = {}
        for i in range(self.n):
            s = socket.socket()
            s.setblocking(False)
            s.bind((f"{ATTACKER}.{1 + (i // self.per_address) % 250}", 0))
            with contextlib.suppress(BlockingIOError):
                s.connect(("127.0.0.1", self.port))
            socks[s] = [HEADERS if i % 2 == 0 else BODY, b"", False]  # what to send, what came back, sent?
            sel.register(s, selectors.EVENT_WRITE | selectors.EVENT_READ)
        return sel, socks

    def run(self, until: float, started: threading.Event) -> None:
        self.opened_at = time.monotonic()
        sel, socks = self._open()
        started.set()
        next_dribble = time.monotonic() + self.dribble_s
        while socks and time.monotonic() < until:
            for key, events in sel.select(timeout=0.1):
                s = key.fileobj
                state = socks.get(s)  # type: ignore[call-overload]
                if state is None:
                    continue
                if events & selectors.EVENT_WRITE and not state[2]:
                    with contextlib.suppress(OSError):
                        s.send(state[0])  # type: ignore[union-attr]
                    state[2] = True
                    sel.modify(s, selectors.EVENT_READ)
                elif events & selectors.EVENT_READ:
                    self._read(sel, socks, s)
            if time.monotonic() >= next_dribble:
                next_dribble += self.dribble_s
                for s, state in list(socks.items()):
                    if state[2] and state[0] is HEADERS:
                        with contextlib.suppress(OSError):
                            s.send(b"x")
        self.still_open = len(socks)
        for s in socks:
            s.close()
        sel.close()

    def _read(self, sel: selectors.BaseSelector, socks: dict, s: Any) -> None:
        try:
            data = s.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            socks[s][1] += data
            return
        raw = socks.pop(s)[1]
        sel.unregister(s)
        s.close()
        self.closed_after.append(time.monotonic() - self.opened_at)
        self.answers[int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else "none"] += 1


@contextlib.contextmanager
def hold(port: int, n: int, seconds: float) -> Iterator[Attack]:
    """``n`` slow connections held (or cut by the server) for at most ``seconds``; the Attack's
    figures are complete when the block ends."""
    attack = Attack(port, n)
    started = threading.Event()
    thread = threading.Thread(target=attack.run, args=(time.monotonic() + seconds, started), daemon=True)
    if n:
        thread.start()
        started.wait(60)
    try:
        yield attack
    finally:
        if n:
            thread.join()


class Victim:
    """A client on another /24: plain HTTP/1.1 from VICTIM, one connection per request."""

    def __init__(self, port: int, timeout: float = 60) -> None:
        self.port, self.timeout = port, timeout

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout, source_address=(VICTIM, 0))
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        t0 = time.perf_counter()
        try:
            conn.request(method, path, body=orjson.dumps(body) if body is not None else None, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        finally:
            conn.close()
        return resp.status, orjson.loads(data) if data else None, time.perf_counter() - t0

    def table(self, variant: str) -> tuple[str, dict[int, str]]:
        """A started two-player table: its id and each seat's token."""
        status, g, _ = self.call("POST", "/v1/games", {"variant": variant})
        assert status == 201, g
        tokens = {}
        for name in ("ann", "bob"):
            status, seat, _ = self.call("POST", f"/v1/games/{g['id']}/seats", {"name": name},
                                        g["owner_token"] if name == "ann" else None)
            assert status == 201, seat
            tokens[seat["seat"]] = seat["token"]
        status, started, _ = self.call("POST", f"/v1/games/{g['id']}/start", None, g["owner_token"])
        assert status == 200, started
        return g["id"], tokens

    def move(self, gid: str, tokens: dict[int, str]) -> tuple[int, float]:
        """A seat with a legal action plays its first one: (status, seconds of the POST); (0, 0.0)
        when nobody can move (the match is over)."""
        for token in tokens.values():
            _, legal, _ = self.call("GET", f"/v1/games/{gid}/actions", token=token)
            if legal and legal.get("legal_actions"):
                status, _, took = self.call("POST", f"/v1/games/{gid}/actions", legal["legal_actions"][0], token)
                return status, took
        return 0, 0.0
