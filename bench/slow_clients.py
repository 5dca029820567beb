"""Slow clients against the live stack: a victim's /healthz and move latency (p50, p95) while one
client holds N slow connections from one /24 (127.0.9.0/24; the victim is on 127.0.1.0/24), with
the guards off (no read timeouts, no connection caps: the server before issue 25) and on, against
gunicorn alone and through nginx (deploy/nginx/meow.conf, tools/nginx.py).

    python -m bench.slow_clients [--n 0,1000,5000] [--samples 20]
    python -m bench.slow_clients --makerun --n 0,1000 [--spread "one address,one /24,many /24s"]

``--makerun`` (issue 37): the API as `make run` serves it, alone, every guard at its default, the slow
connections (headers and bodies dribbled a byte a second, each re-opened as soon as it is cut)
from one address, one /24 or a thousand /24s (loopback's 127.x.y.z), the victim's p50/p95 printed.

Needs REDIS_URL (a real Redis: the stack runs a worker process) and nginx (python -m tools.nginx).
The API runs with MEOW_WEB_CONNECTIONS (default here 1000 per process, two processes), so N beyond
that exhausts an unguarded server. Prints figures; never passes or fails on time. The attacker
(``Attack``, tools/slow_clients.py) is also what tests/e2e/test_slow_clients.py runs.
"""
from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import selectors
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator

from tools.slow_clients import ATTACKER, BODY, HEADERS, Attack, Victim, hold, raise_fd_limit
from tools.stack import free_port, live_stack

GUARDS_OFF = {"MEOW_HEADER_TIMEOUT_S": "0", "MEOW_BODY_TIMEOUT_S": "0", "MEOW_MAX_CONNS_PER_ADDRESS": "0",
              "MEOW_MAX_CONNS_PER_PREFIX": "0"}


def _pct(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


SPREADS: dict[str, Callable[[int], str]] = {
    "one address": lambda i: f"{ATTACKER}.1",
    "one /24": lambda i: f"{ATTACKER}.{1 + (i // 4) % 250}",
    "many /24s": lambda i: f"127.{20 + i % 200}.{(i // 200) % 250}.1",  # each connection its own /24 up to 50,000
}


class Spread(Attack):
    """The tools' attacker, its connections from ``address(i)``: every header and body dribbled a
    byte every ``dribble_s``, and with ``reconnect`` each connection the server closes opened again
    at once (a real attacker keeps its N); it runs until ``stop`` is set."""

    def __init__(self, port: int, n: int, address: Callable[[int], str], reconnect: bool, dribble_s: float) -> None:
        super().__init__(port, n, dribble_s=dribble_s)
        self.address, self.reconnect, self.opened = address, reconnect, 0
        self.stop = threading.Event()

    def _add(self, sel: selectors.BaseSelector, socks: dict) -> None:
        i = self.opened
        self.opened += 1
        s = socket.socket()
        s.setblocking(False)
        s.bind((self.address(i), 0))
        with contextlib.suppress(BlockingIOError, OSError):
            s.connect(("127.0.0.1", self.port))
        socks[s] = [HEADERS if i % 2 == 0 else BODY, b"", False]
        sel.register(s, selectors.EVENT_WRITE | selectors.EVENT_READ)

    def run(self, until: float, started: threading.Event) -> None:
        self.opened_at = time.monotonic()
        sel = selectors.DefaultSelector()
        socks: dict = {}
        for _ in range(self.n):
            self._add(sel, socks)
        started.set()
        next_dribble = time.monotonic() + self.dribble_s
        while not self.stop.is_set() and time.monotonic() < until:
            for key, events in sel.select(timeout=0.1):
                s = key.fileobj
                state = socks.get(s)
                if state is None:
                    continue
                if events & selectors.EVENT_WRITE and not state[2]:
                    with contextlib.suppress(OSError):
                        s.send(state[0])  # type: ignore[union-attr]
                    state[2] = True
                    sel.modify(s, selectors.EVENT_READ)
                elif events & selectors.EVENT_READ:
                    before = len(socks)
                    self._read(sel, socks, s)
                    if self.reconnect and len(socks) < before:
                        self._add(sel, socks)
            if time.monotonic() >= next_dribble:
                next_dribble = time.monotonic() + self.dribble_s
                for s, state in list(socks.items()):
                    if state[2]:
                        with contextlib.suppress(OSError):
                            s.send(b"x" if state[0] is HEADERS else b"a")
        self.still_open = len(socks)
        for s in socks:
            s.close()
        sel.close()


@contextlib.contextmanager
def spread_hold(port: int, n: int, address: Callable[[int], str], reconnect: bool,
                dribble_s: float) -> Iterator[Spread]:
    attack = Spread(port, n, address, reconnect, dribble_s)
    started = threading.Event()
    thread = threading.Thread(target=attack.run, args=(time.monotonic() + 3600, started), daemon=True)
    if n:
        thread.start()
        started.wait(60)
    try:
        yield attack
    finally:
        attack.stop.set()
        if n:
            thread.join()


def _victim(port: int, samples: int, pause_s: float = 0.0) -> tuple[list[float], list[float], int]:
    """The victim's /healthz and move latencies (s) and its failures (timeouts, resets: 10 s each)."""
    from service.games import registry

    victim = Victim(port, timeout=10)
    gid, tokens = victim.table(registry.GAMES[0].variants[0])
    health: list[float] = []
    moves: list[float] = []
    failed = 0
    for _ in range(samples):
        try:
            status, _, took = victim.call("GET", "/healthz")
            health.append(took) if status == 200 else None
            status, took = victim.move(gid, tokens)
            if status == 0:
                gid, tokens = victim.table(registry.GAMES[0].variants[0])
            moves.append(took) if status == 200 else None
        except (OSError, http.client.HTTPException):
            failed += 1
        time.sleep(pause_s)
    return health, moves, failed


def makerun(counts: list[int], samples: int, reconnect: bool, dribble_s: float, spreads: list[str],
            env: dict[str, str]) -> None:
    """`make run`'s API alone (two gevent processes, the default guards: 10 s header and body
    timeouts, 128 connections per address and 512 per /24 per process), the slow connections from
    one address, one /24 or many /24s, held for the whole victim run (re-opened when cut)."""
    url = os.environ["REDIS_URL"]
    print(f"make run's API alone (gunicorn, 2 gevent processes; {env or 'default settings'}); victim latency in ms "
          f"(p50 p95) while N slow connections dribble a byte every {dribble_s} s"
          f"{', re-opened when cut' if reconnect else ''}; {samples} samples each")
    with live_stack(url, **env) as stack:
        port = int(stack.base.rsplit(":", 1)[1])
        for spread in spreads:
            print(f"\nfrom {spread}")
            print("    N |  healthz p50/p95 |    move p50/p95 | err | the slow connections' answers")
            for n in counts:
                with spread_hold(port, n, SPREADS[spread], reconnect, dribble_s) as attack:
                    time.sleep(2.0 if n else 0)
                    health, moves, failed = _victim(port, samples, 0.2)
                answers = ", ".join(f"{k}: {v}" for k, v in sorted(attack.answers.items(), key=str)) or "-"
                print(f"{n:>5} | {_pct(health, .5):7.1f} {_pct(health, .95):7.1f} | {_pct(moves, .5):7.1f} "
                      f"{_pct(moves, .95):7.1f} | {failed:>3} | {answers}; opened {attack.opened}, "
                      f"open at the end {attack.still_open}",
                      flush=True)


def _measure(port: int, n: int, samples: int, hold_s: float) -> str:
    from service.games import registry

    victim = Victim(port, timeout=10)
    gid, tokens = victim.table(registry.GAMES[0].variants[0])
    health: list[float] = []
    moves: list[float] = []
    failed = 0
    with hold(port, n, hold_s) as attack:
        time.sleep(1.0 if n else 0)  # the connections are open (or refused) before the victim starts
        for _ in range(samples):
            try:
                status, _, took = victim.call("GET", "/healthz")
                health.append(took) if status == 200 else None
                status, took = victim.move(gid, tokens)
                if status == 0:  # the match is over: another table
                    gid, tokens = victim.table(registry.GAMES[0].variants[0])
                moves.append(took) if status == 200 else None
            except (OSError, http.client.HTTPException):  # timed out: the server is not answering
                failed += 1
                if failed >= 2:
                    break
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(attack.answers.items(), key=str)) or "-"
    cut = statistics.median(attack.closed_after) if attack.closed_after else float("nan")
    return (f"{n:>5} | {_pct(health, .5):7.1f} {_pct(health, .95):7.1f} | {_pct(moves, .5):7.1f} "
            f"{_pct(moves, .95):7.1f} | {failed:>3} | {answers} (median close {cut:.1f} s; open at the end: "
            f"{attack.still_open})")


def main() -> None:
    from tools import nginx

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="0,1000,5000")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--connections", default="1000", help="MEOW_WEB_CONNECTIONS per API process")
    ap.add_argument("--timeout", default="5", help="header and body timeouts, in seconds, of the guarded runs")
    ap.add_argument("--makerun", action="store_true",
                    help="instead: make run's API alone with its default guards, the attack from one address, "
                         "one /24 and many /24s (--spread), dribbling headers and bodies, re-opened when cut")
    ap.add_argument("--spread", default=",".join(SPREADS), help=f"with --makerun: of {', '.join(SPREADS)}")
    ap.add_argument("--dribble", type=float, default=1.0, help="with --makerun: seconds between dribbled bytes")
    ap.add_argument("--no-reconnect", action="store_true", help="with --makerun: a connection cut stays closed")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="with --makerun: a setting of the API (repeatable), e.g. MEOW_HEADER_TIMEOUT_S=2")
    args = ap.parse_args()
    counts = [int(x) for x in args.n.split(",")]
    raise_fd_limit(max(counts) * 4 + 1024)
    if args.makerun:
        env = dict(item.split("=", 1) for item in args.env)
        makerun(counts, args.samples, not args.no_reconnect, args.dribble, args.spread.split(","), env)
        return
    url = os.environ["REDIS_URL"]
    t = args.timeout
    guards_on = {"MEOW_HEADER_TIMEOUT_S": t, "MEOW_BODY_TIMEOUT_S": t}
    print(f"victim latency in ms (p50 p95) while N slow connections from {ATTACKER}.0/24 are held; "
          f"MEOW_WEB_CONNECTIONS={args.connections} x 2 processes; {args.samples} samples each")
    for guarded in (False, True):
        env = {"MEOW_WEB_CONNECTIONS": args.connections, "MEOW_RATE_LIMITS": "off", "MEOW_TRUSTED_PROXIES": "127.0.0.1/32",
               **(guards_on if guarded else GUARDS_OFF)}
        with live_stack(url, **env) as stack:
            api_port = int(stack.base.rsplit(":", 1)[1])
            for shape in ("gunicorn", "nginx"):
                guards = (f"the API's guards on: timeouts {t} s, caps 128/address 512/prefix per process" if guarded
                          else "the API's guards off: no timeouts, no caps")
                front = "gunicorn alone" if shape == "gunicorn" else f"through nginx (its limits, timeouts {t} s)"
                print(f"\n{front}; {guards}")
                print("    N |  healthz p50/p95 |    move p50/p95 | err | the slow connections' answers")
                with contextlib.ExitStack() as ctx:
                    port = api_port
                    if shape == "nginx":
                        port = free_port()
                        ctx.enter_context(nginx.serve(f"127.0.0.1:{api_port}", port, connections=max(counts) * 2 + 512,
                                                      client_header_timeout=f"{t}s", client_body_timeout=f"{t}s"))
                    for n in counts:
                        print(_measure(port, n, args.samples, hold_s=float(t) + 25), flush=True)


if __name__ == "__main__":
    main()
