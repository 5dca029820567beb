"""Slow clients against the live stack: a victim's /healthz and move latency (p50, p95) while one
client holds N slow connections from one /24 (127.0.9.0/24; the victim is on 127.0.1.0/24), with
the guards off (no read timeouts, no connection caps: the server before issue 25) and on, against
gunicorn alone and through nginx (deploy/nginx/meow.conf, tools/nginx.py).

    python -m bench.slow_clients [--n 0,1000,5000] [--samples 20]

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
import statistics
import time

from tools.slow_clients import ATTACKER, Victim, hold, raise_fd_limit
from tools.stack import free_port, live_stack

GUARDS_OFF = {"MEOW_HEADER_TIMEOUT_S": "0", "MEOW_BODY_TIMEOUT_S": "0", "MEOW_MAX_CONNS_PER_ADDRESS": "0",
              "MEOW_MAX_CONNS_PER_PREFIX": "0"}


def _pct(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


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
    args = ap.parse_args()
    counts = [int(x) for x in args.n.split(",")]
    raise_fd_limit(max(counts) * 2 + 1024)
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
