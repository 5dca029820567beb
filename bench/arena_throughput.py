"""Arena throughput: bots-only games per minute per arena worker, easy vs easy and medium vs medium,
per variant, on a live stack (tools/stack.py: gunicorn, one `meow worker` for the follow-ups and
ONE `meow worker --queues arena`, real Redis). Each line is one arena started with POST /v1/arenas
and timed from the 202 to its end (GET /v1/arenas/{id} polled), so it counts everything a worker
does for a game: the writes (load, decide, append on Redis), the bots, the job. A game is one
round where the variant lets a match be one (bench/tournament.py ``ladder_options``), at the
variant's fewest seats. Prints figures only; never fails on timing.

    REDIS_URL=redis://127.0.0.1:6379/0 python -m bench.arena_throughput --games 40
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: imports from the checkout

from bench.tournament import ladder_options
from service.app import api_keys
from service.games import registry
from service.settings import Settings
from service.wiring import build_store
from tools.stack import live_stack


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per arena")
    ap.add_argument("--variants", default=",".join(registry.BY_VARIANT))
    ap.add_argument("--strengths", default="easy,medium")
    args = ap.parse_args(argv)
    url = os.environ.get("REDIS_URL")
    if not url:
        raise SystemExit("set REDIS_URL to a Redis this bench may write to (under a fresh key prefix)")
    catalog = {v["name"]: v for v in registry.variants_catalog()}
    with live_stack(url, workers=[[], ["--queues", "arena", "--no-dispatcher"]], tag="arenabench",
                    MEOW_ARENA_PARALLEL="1", MEOW_RATE_LIMITS="off", MEOW_ARENAS_PER_KEY="0") as stack:
        _, key = api_keys.create(build_store(Settings(redis_url=url, key_prefix=stack.prefix)), "bench",
                                 now_ms=int(time.time() * 1000))
        s = requests.Session()
        s.headers["Meow-Key"] = key
        print(f"one arena worker; {args.games} games an arena; a game = one round where the variant has one; "
              f"the variant's fewest seats; cpus={os.cpu_count()}", flush=True)
        for variant in args.variants.split(","):
            seats = int(catalog[variant]["min_players"])
            for strength in args.strengths.split(","):
                body = {"variant": variant, "options": ladder_options(variant, 100), "seats": seats,
                        "games": args.games, "entrants": [{"strength": strength}, {"strength": strength}]}
                t0 = time.perf_counter()
                r = s.post(f"{stack.base}/v1/arenas", json=body)
                if r.status_code != 202:
                    print(f"{variant:<22}{strength:<7} refused: {r.status_code} {r.text[:200]}", flush=True)
                    continue
                arena = r.json()
                while arena["status"] == "running":
                    time.sleep(0.2)
                    arena = s.get(f"{stack.base}/v1/arenas/{arena['id']}").json()
                secs = time.perf_counter() - t0
                done = arena["progress"]["done"]
                games = s.get(f"{stack.base}/v1/arenas/{arena['id']}/games").json()["games"]
                events = sum(s.get(f"{stack.base}/v1/games/{g['game']}").json()["version"] for g in games)
                print(f"{variant:<22}{strength:>6} vs {strength:<6} {seats} seats  {done:>4} games  {secs:6.1f} s  "
                      f"{60 * done / secs:7.1f} games/min/worker  {events / max(1, done):7.0f} events/game  "
                      f"{events / secs:6.0f} events/s", flush=True)


if __name__ == "__main__":
    main()
