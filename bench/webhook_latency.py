"""Webhook delivery at a slow receiver (issue 37): the latency from an event (its time in the stream)
to its delivery's arrival at a receiver that answers each attempt after ``--delay`` seconds, the
deliveries that arrived twice or more (duplicates), and those still missing after ``--bound`` seconds.

Starts its own stack per delay (tools/stack.py: gunicorn, one tables worker with the dispatcher, and
``--hook-workers`` workers on the hooks lane only, as `meow run` starts them) on REDIS_URL (or an
embedded Redis), with the service's webhook settings at their defaults (an attempt allowed 5 s), makes
an API key with one webhook on every table event type (five deliveries a one-round bots-only Prší
table: two seats joined, the match started, its round scored, the match ended), starts ``--tables``
tables of that key at once and waits for every delivery (or the bound). Prints the figures; never
fails on timing.

    .venv/bin/python bench/webhook_latency.py [--delays 1.5,3] [--tables 12] [--bound 180] [--hook-workers 1] [--hook-threads 8]

``--beside-hanging`` measures instead another key's deliveries beside a key whose receiver never
answers (``--trickle S``: sends its answer a byte every S seconds) (``--tables`` tables each, at once):
key B's latency, and how many of the attempts that reached key A's receiver key A's log counts.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from service.app import api_keys  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.wiring import build_store  # noqa: E402
from tools.stack import live_stack  # noqa: E402
from tools.webhook_receiver import Receiver, Script  # noqa: E402

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
           "match_end_mode": "single_round"}
EVENTS = ["seat.joined", "match.started", "round.scored", "match.ended"]
PER_TABLE = 5  # two seat.joined, match.started, round.scored, match.ended


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def start_table(base: str, key: str) -> str:
    s = requests.Session()
    s.trust_env = False
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": OPTIONS, "max_players": 2},
               headers={"Meow-Key": key}, timeout=30).json()
    gid, owner = g["id"], {"Authorization": f"Bearer {g['owner_token']}"}
    for _ in range(2):
        s.post(f"{base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers=owner, timeout=30)
    s.post(f"{base}/v1/games/{gid}/start", headers=owner, timeout=30)
    return str(gid)


def run(url: str, delay_s: float, tables: int, bound_s: float, hook_workers: int, hook_threads: int | None) -> None:
    workers = [["--queues", "fast,search"]] + [["--queues", "hooks", "--no-dispatcher"]] * hook_workers
    env = {"MEOW_HOOK_THREADS": str(hook_threads)} if hook_threads else {}
    with live_stack(url, workers=workers, tag="bench-hooklat", MEOW_OUTBOUND_ALLOW_PRIVATE="1",
                    MEOW_RATE_LIMITS="off", **env) as stack, Receiver(script=Script(delay_s=delay_s)) as receiver:
        store = build_store(Settings.from_env(stack.env))
        _, presented = api_keys.create(store, "bench", now_ms=int(time.time() * 1000))
        made = requests.post(f"{stack.base}/v1/webhooks", json={"url": receiver.url, "events": EVENTS},
                             headers={"Meow-Key": presented}, timeout=10).json()
        receiver.set_secret(made["secret"])
        expected = tables * PER_TABLE
        with ThreadPoolExecutor(min(16, tables)) as pool:
            list(pool.map(lambda _: start_table(stack.base, presented), range(tables)))
        started = time.monotonic()
        with contextlib.suppress(AssertionError):  # the bound: what is missing is counted below
            receiver.wait_for(lambda k: len(k) >= expected, timeout_s=bound_s)
        waited = time.monotonic() - started
        kept = receiver.kept()
        lat = [r.at - datetime.fromisoformat(r.json()["created_at"].replace("Z", "+00:00")).timestamp()
               for r in kept]
        attempts = sum(receiver.state.attempts.values())
        repeats = sum(receiver.state.repeats.values())
        print(f"receiver answering in {delay_s:g} s: {len(kept)} of {expected} deliveries from {tables} tables "
              f"({hook_workers} hooks worker(s), MEOW_HOOK_THREADS {hook_threads or 'default'}), "
              f"all verified: {all(r.verified for r in kept)}")
        print(f"  latency (event -> arrival of the delivery answered 200): p50 {pct(lat, 50):.2f} s, "
              f"p95 {pct(lat, 95):.2f} s, max {max(lat, default=float('nan')):.2f} s")
        print(f"  duplicates (answered 200 again): {repeats}; attempts that reached it: {attempts} "
              f"(cut before their answer: {attempts - len(kept) - repeats}); missing after "
              f"{min(waited, bound_s):.0f} s: {expected - len(kept)}")


def beside_hanging(url: str, tables: int, bound_s: float, hook_workers: int, hook_threads: int | None,
                   trickle_s: float = 0.0) -> None:
    """Key A's receiver never answers (or trickles its answer, a byte every ``trickle_s``), key B's
    answers at once: B's latency while A's tables run beside its own, and whether A's log counts the
    attempts that reached A's receiver."""
    workers = [["--queues", "fast,search"]] + [["--queues", "hooks", "--no-dispatcher"]] * hook_workers
    env = {"MEOW_HOOK_THREADS": str(hook_threads)} if hook_threads else {}
    with live_stack(url, workers=workers, tag="bench-hooklat", MEOW_OUTBOUND_ALLOW_PRIVATE="1",
                    MEOW_RATE_LIMITS="off", **env) as stack, \
            Receiver(script=Script(delay_s=0 if trickle_s else 3600, trickle_s=trickle_s)) as hang, Receiver() as good:
        store = build_store(Settings.from_env(stack.env))
        keys = []
        for receiver, name in ((hang, "a"), (good, "b")):
            _, presented = api_keys.create(store, name, now_ms=int(time.time() * 1000))
            made = requests.post(f"{stack.base}/v1/webhooks", json={"url": receiver.url, "events": EVENTS},
                                 headers={"Meow-Key": presented}, timeout=10).json()
            receiver.set_secret(made["secret"])
            keys.append(presented)
        with ThreadPoolExecutor(min(16, 2 * tables)) as pool:
            list(pool.map(lambda i: start_table(stack.base, keys[i % 2]), range(2 * tables)))
        with contextlib.suppress(AssertionError):
            good.wait_for(lambda k: len(k) >= tables * PER_TABLE, timeout_s=bound_s)
        kept = good.kept()
        lat = [r.at - datetime.fromisoformat(r.json()["created_at"].replace("Z", "+00:00")).timestamp()
               for r in kept]
        reached = sum(hang.state.attempts.values())
        log = requests.get(f"{stack.base}/v1/webhooks/deliveries", params={"limit": 100},
                           headers={"Meow-Key": keys[0]}, timeout=10).json()["deliveries"]
        [hook] = requests.get(f"{stack.base}/v1/webhooks", headers={"Meow-Key": keys[0]}, timeout=10).json()["webhooks"]
        how = f"trickles its answer (a byte every {trickle_s:g} s)" if trickle_s else "never answers"
        print(f"beside a receiver that {how} (key A, {tables} tables; key B {tables} tables, its receiver "
              f"answering at once; MEOW_HOOK_THREADS {hook_threads or 'default'}):")
        print(f"  key B: {len(kept)} of {tables * PER_TABLE} deliveries, latency p50 {pct(lat, 50):.2f} s, "
              f"p95 {pct(lat, 95):.2f} s, max {max(lat, default=float('nan')):.2f} s")
        print(f"  key A: {reached} attempts reached its receiver, its log counts {sum(d['attempts'] for d in log)} "
              f"(errors {sorted({t['error'] for d in log for t in d['tries']} - {None})}), endpoint enabled: "
              f"{hook['enabled']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delays", default="1.5,3", help="the receiver's answer times to measure, in seconds")
    ap.add_argument("--tables", type=int, default=12)
    ap.add_argument("--bound", type=float, default=180.0, help="seconds to wait for every delivery")
    ap.add_argument("--hook-workers", type=int, default=1)
    ap.add_argument("--hook-threads", type=int, default=0, help="MEOW_HOOK_THREADS (0: the service's default)")
    ap.add_argument("--beside-hanging", action="store_true",
                    help="instead: another key's latency beside a key whose receiver never answers")
    ap.add_argument("--trickle", type=float, default=0.0, help="with --beside-hanging: that receiver trickles "
                    "its answer, a byte every this many seconds")
    args = ap.parse_args()
    url = os.environ.get("REDIS_URL")
    embedded = None
    if not url:
        from service.embedded_redis import EmbeddedRedis

        embedded = EmbeddedRedis.start()
        url = embedded.url
    try:
        if args.beside_hanging:
            beside_hanging(url, args.tables, args.bound, args.hook_workers, args.hook_threads, args.trickle)
            return 0
        for delay in (float(d) for d in args.delays.split(",")):
            run(url, delay, args.tables, args.bound, args.hook_workers, args.hook_threads)
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
