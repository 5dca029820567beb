"""Webhook delivery latency under load: from an event (its time in the stream) to its signed delivery
arriving at a receiver on loopback.

Starts its own stack (tools/stack.py: gunicorn, one tables worker with the dispatcher, ``--hook-workers``
workers on the hooks lane only) on REDIS_URL (or an embedded Redis), makes an API key with one
webhook (``--events``: every table event type by default, five deliveries a table: two seats joined,
the match started, its round scored, the match ended), then starts ``--tables`` bots-only one-round
Prší tables of that key at once (full-speed easy bots: many tables finishing together) and waits for
every ``match.ended``. Prints p50/p99/max of every delivery and the deliveries per second; never
fails on timing.

    .venv/bin/python bench/webhooks.py [--tables 200] [--hook-workers 1] [--concurrency 16] [--events match.ended]
"""
from __future__ import annotations

import argparse
import os
import statistics
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
from tools.webhook_receiver import Receiver  # noqa: E402

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
           "match_end_mode": "single_round"}


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def start_table(base: str, key: str) -> str:
    s = requests.Session()
    s.trust_env = False
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": OPTIONS, "max_players": 2},
               headers={"Meow-Key": key}).json()
    gid, owner = g["id"], {"Authorization": f"Bearer {g['owner_token']}"}
    for _ in range(2):
        s.post(f"{base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers=owner)
    s.post(f"{base}/v1/games/{gid}/start", headers=owner)
    return gid


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--hook-workers", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=16, help="clients starting tables at once")
    ap.add_argument("--events", default="match.started,round.scored,match.ended,seat.joined,seat.left,turn.timed_out")
    args = ap.parse_args()
    url = os.environ.get("REDIS_URL")
    embedded = None
    if not url:
        from service.embedded_redis import EmbeddedRedis

        embedded = EmbeddedRedis.start()
        url = embedded.url
    workers = [["--queues", "fast,search"]] + [["--queues", "hooks", "--no-dispatcher"]] * args.hook_workers
    try:
        with live_stack(url, workers=workers, tag="bench-hooks", MEOW_OUTBOUND_ALLOW_PRIVATE="1",
                        MEOW_RATE_LIMITS="off") as stack, Receiver() as receiver:
            store = build_store(Settings.from_env(stack.env))
            _, presented = api_keys.create(store, "bench", now_ms=int(time.time() * 1000))
            made = requests.post(f"{stack.base}/v1/webhooks", json={"url": receiver.url, "events": args.events.split(",")},
                                 headers={"Meow-Key": presented}, timeout=10).json()
            receiver.set_secret(made["secret"])
            began = time.monotonic()
            with ThreadPoolExecutor(args.concurrency) as pool:
                gids = list(pool.map(lambda _: start_table(stack.base, presented), range(args.tables)))
            kept = receiver.wait_for(lambda k: sum(r.json()["type"] == "match.ended" for r in k) >= len(gids),
                                     timeout_s=600)
            took = time.monotonic() - began
            lat = []
            for r in kept:
                ended = datetime.fromisoformat(r.json()["event"]["at"].replace("Z", "+00:00")).timestamp()
                lat.append((r.at - ended) * 1000)
            first, last = min(r.at for r in kept), max(r.at for r in kept)
            n_ended = sum(r.json()["type"] == "match.ended" for r in kept)
            print(f"webhooks: {len(kept)} deliveries ({n_ended} match.ended) from {args.tables} tables "
                  f"({args.concurrency} clients starting them, {args.hook_workers} hooks worker(s)), all verified: "
                  f"{all(r.verified for r in kept)}, repeats: {sum(receiver.state.repeats.values())}")
            print(f"  delivery latency (event -> received): p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, "
                  f"max {max(lat):.1f} ms, mean {statistics.mean(lat):.1f} ms")
            print(f"  {len(kept) / max(0.001, last - first):.0f} deliveries/s while they arrived; "
                  f"{took:.1f} s from the first create to the last delivery")
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
