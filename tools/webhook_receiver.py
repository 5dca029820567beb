"""A webhook receiver on loopback for the tests and the benches: it verifies each delivery's signature
(service/outbound/signing.py), keeps each delivery id once (a repeat is answered 200 and counted, as
an integrator's receiver would), and answers as scripted: ``fail_first`` deliveries of an id get
``fail_status`` first (500: the sender retries); ``delay_s``: each answer comes that long after the
request (a slow receiver; a sender that gives up first gets none, and ``holding()`` counts the
connections still held, their sender still there).
"""
from __future__ import annotations

import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

from service.outbound.signing import DELIVERY, verify


@dataclass
class Received:
    delivery_id: str
    headers: dict[str, str]
    body: bytes
    at: float  # time.time() when it arrived
    verified: bool
    noted: Any = None  # what the receiver's ``on_arrival`` answered when it arrived

    def json(self) -> Any:
        return orjson.loads(self.body)


@dataclass
class Script:
    fail_first: int = 0  # this many attempts of each delivery id are answered ``fail_status``
    fail_status: int = 500
    delay_s: float = 0.0  # each attempt is answered this long after it arrived (unless its sender hangs up)
    trickle_s: float = 0.0  # instead: the answer's status line is sent one byte every this many seconds


@dataclass
class _State:
    secret: str = ""
    script: Script = field(default_factory=Script)
    kept: dict[str, Received] = field(default_factory=dict)  # first accepted copy per delivery id
    attempts: Counter = field(default_factory=Counter)  # every POST per delivery id
    repeats: Counter = field(default_factory=Counter)  # accepted again after the first (dropped as seen)
    forged: int = 0
    held: set[socket.socket] = field(default_factory=set)  # connections waiting for their delayed answer
    lock: threading.Condition = field(default_factory=threading.Condition)


class Receiver:
    """``with Receiver() as r:`` serves on 127.0.0.1:<free port> until the block ends; ``r.url``."""

    def __init__(self, secret: str = "", script: Script | None = None, clock: Callable[[], float] = time.time,
                 on_arrival: Callable[[], Any] | None = None) -> None:
        self.state = _State(secret, script or Script())
        self.clock = clock
        state = self.state

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                arrived = time.time()
                noted = on_arrival() if on_arrival is not None else None
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = dict(self.headers.items())
                did = headers.get(DELIVERY, "")
                with state.lock:
                    state.attempts[did] += 1
                    n = state.attempts[did]
                    state.lock.notify_all()
                if state.script.delay_s > 0 and not self.hold(state.script.delay_s):
                    return  # its sender gave up: no answer
                if state.script.trickle_s > 0:
                    self.trickle(state.script.trickle_s)
                    return
                with state.lock:
                    ok = bool(state.secret) and verify(state.secret, body, headers, now=int(clock()))
                    if not ok:
                        state.forged += 1
                        status = 401
                    elif n <= state.script.fail_first:
                        status = state.script.fail_status
                    else:
                        status = 200
                        if did in state.kept:
                            state.repeats[did] += 1
                        else:
                            state.kept[did] = Received(did, headers, body, arrived, ok, noted)
                    state.lock.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def trickle(self, every_s: float) -> None:
                """Send a 500 one byte every ``every_s`` seconds, until its sender hangs up."""
                sock = self.connection
                with state.lock:
                    state.held.add(sock)
                try:
                    for byte in b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n":
                        sock.sendall(bytes([byte]))
                        if not _alive(sock, every_s):
                            return
                except OSError:
                    return  # its sender hung up
                finally:
                    with state.lock:
                        state.held.discard(sock)
                        state.lock.notify_all()

            def hold(self, seconds: float) -> bool:
                """Wait ``seconds`` before answering; False when the sender hung up meanwhile."""
                sock = self.connection
                with state.lock:
                    state.held.add(sock)
                try:
                    end = time.monotonic() + seconds
                    while (left := end - time.monotonic()) > 0:
                        if not _alive(sock, min(left, 0.05)):
                            return False
                    return True
                finally:
                    with state.lock:
                        state.held.discard(sock)
                        state.lock.notify_all()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def set_secret(self, secret: str) -> None:
        with self.state.lock:
            self.state.secret = secret

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def holding(self) -> int:
        """The connections held for a delayed answer whose sender is still there, right now."""
        with self.state.lock:
            held = list(self.state.held)
        return sum(_alive(sock, 0) for sock in held)

    def wait_attempts(self, n: int, timeout_s: float = 10.0) -> int:
        """Until ``n`` attempts (kept or not) arrived in all (AssertionError after ``timeout_s``)."""
        deadline = time.monotonic() + timeout_s
        with self.state.lock:
            while (got := sum(self.state.attempts.values())) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{got} attempts arrived, not {n}")
                self.state.lock.wait(min(left, 0.2))
            return got

    def kept(self) -> list[Received]:
        with self.state.lock:
            return list(self.state.kept.values())

    def wait_for(self, predicate: Callable[[list[Received]], bool], timeout_s: float = 10.0) -> list[Received]:
        """Until ``predicate(kept deliveries)`` holds (AssertionError after ``timeout_s``): an outcome, not a time."""
        deadline = time.monotonic() + timeout_s
        with self.state.lock:
            while not predicate(list(self.state.kept.values())):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the receiver did not get what was awaited: {len(self.state.kept)} kept, "
                                         f"{sum(self.state.attempts.values())} attempts, {self.state.forged} forged")
                self.state.lock.wait(min(left, 0.2))
            return list(self.state.kept.values())


def _alive(sock: socket.socket, wait_s: float) -> bool:
    """Whether the peer of ``sock`` is still there (it sent its whole request: readable means gone)."""
    try:
        readable, _, _ = select.select([sock], [], [], wait_s)
        return not readable or sock.recv(1, socket.MSG_PEEK) != b""
    except (OSError, ValueError):  # closed here meanwhile
        return False
