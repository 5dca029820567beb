"""Bot answer latency: from a human's accepted move to the bot's answering move visible over HTTP.

Starts its own stack (Redis from REDIS_URL db 15 or embedded, gunicorn as `meow run` serves it,
and the workers `meow run` starts: one fast worker with the dispatcher, one search worker), zero bot
delay, and prints p50/p99. ``--neighbours K`` first starts K bots-only Prší tables of hard bots at
the server's maximum search budget (MEOW_MAX_BOT_BUDGET_MS, default 3000 ms), which keep the search
worker busy while the easy bot is measured; ``--single-worker`` runs one worker on both lanes
instead (what every job waited behind before the lanes). Prints figures; never fails on timing.

    .venv/bin/python bench/bot_latency.py [--moves 300] [--worker-class simple|fork] [--neighbours 4]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import uuid

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools.stack import free_port, start_api, wait_ready  # noqa: E402

OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0}
BOT_MOVES = {"CardPlayed", "CardDrawn", "TurnPassed", "PenaltyTaken", "AnnouncementMade"}


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def new_game(base: str, s: requests.Session) -> tuple[str, str]:
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": OPTIONS}).json()
    auth = {"Authorization": f"Bearer {g['owner_token']}"}
    me = s.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "me"}, headers=auth).json()
    s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=auth)
    s.post(f"{base}/v1/games/{g['id']}/start", headers=auth)
    return g["id"], me["token"]


def measure(base: str, moves: int, rng: random.Random) -> list[float]:
    s = requests.Session()
    s.trust_env = False
    latencies: list[float] = []
    gid, token = new_game(base, s)
    auth = {"Authorization": f"Bearer {token}"}
    while len(latencies) < moves:
        view = s.get(f"{base}/v1/games/{gid}", headers=auth).json()
        if view["status"] != "running" or view["phase"] in ("scoring", "intermission"):
            gid, token = new_game(base, s)
            auth = {"Authorization": f"Bearer {token}"}
            continue
        legal = view["you"]["legal_actions"]
        if not legal:
            s.get(f"{base}/v1/games/{gid}/events", params={"after": view["version"], "wait": 5})
            continue
        r = s.post(f"{base}/v1/games/{gid}/actions", json=rng.choice(legal), headers=auth)
        t0 = time.perf_counter()
        if r.status_code != 200:
            continue
        body = r.json()
        if body["game"]["turn"] is None or body["game"]["turn"]["seat"] == body["game"]["you"]["seat"]:
            continue  # no bot answer expected (still our turn, or the round ended)
        after = body["version"]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            events = s.get(f"{base}/v1/games/{gid}/events", params={"after": after, "wait": 10}).json()["events"]
            if any(e["type"] in BOT_MOVES and e["seat"] != body["game"]["you"]["seat"] for e in events):
                latencies.append((time.perf_counter() - t0) * 1000)
                break
            if events:
                after = events[-1]["seq"]
    return latencies


def hard_neighbours(base: str, k: int, budget_ms: int) -> list[str]:
    """K tables of two hard bots each at the maximum budget: searches back to back."""
    s = requests.Session()
    s.trust_env = False
    ids = []
    for _ in range(k):
        g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": {
            **OPTIONS, "hard_bot_budget_ms": budget_ms, "penalty_limit": 1000,
            "bot_delay_ms": {"easy": [0, 0], "hard": [0, 0]}}}).json()
        auth = {"Authorization": f"Bearer {g['owner_token']}"}
        for _ in range(2):
            s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "hard"}}, headers=auth)
        s.post(f"{base}/v1/games/{g['id']}/start", headers=auth)
        ids.append(g["id"])
    return ids


def hard_moves(base: str, ids: list[str]) -> int:
    s = requests.Session()
    s.trust_env = False
    return sum(sum(1 for e in s.get(f"{base}/v1/games/{gid}/events").json()["events"] if e["type"] in BOT_MOVES)
               for gid in ids)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--worker-class", default="simple")
    ap.add_argument("--neighbours", type=int, default=0, help="bots-only hard tables at the maximum budget")
    ap.add_argument("--single-worker", action="store_true", help="one worker on both lanes (no fair lanes)")
    args = ap.parse_args()
    prefix = f"meowbench-{uuid.uuid4().hex[:8]}"
    server = None
    url = os.environ.get("REDIS_URL")
    if url:
        url = url.rsplit("/", 1)[0] + "/15"
    else:
        from service.embedded_redis import EmbeddedRedis

        server = EmbeddedRedis.start()
        url = server.url
    env = dict(os.environ, REDIS_URL=url, MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix,
               MEOW_WORKER_CLASS=args.worker_class, PYTHONPATH=ROOT)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    web = start_api(env, port)
    lanes = [["--queues", "fast,search"]] if args.single_worker else [["--queues", "fast"],
                                                                       ["--queues", "search,fast", "--no-dispatcher"]]
    workers = [subprocess.Popen([sys.executable, "-m", "service.cli", "worker", *lane], env=env, cwd=ROOT,
                                stderr=subprocess.DEVNULL) for lane in lanes]
    try:
        wait_ready(base, [web, *workers])
        budget = int(os.environ.get("MEOW_MAX_BOT_BUDGET_MS", "3000"))
        neighbours = hard_neighbours(base, args.neighbours, budget) if args.neighbours else []
        measure(base, 20, random.Random(0))  # warm-up: imports, caches, connections
        started, before = time.monotonic(), hard_moves(base, neighbours) if neighbours else 0
        lat = measure(base, args.moves, random.Random(1))
        layout = "one worker on both lanes" if args.single_worker else "fast worker + search worker"
        print(f"easy bot answer latency over HTTP ({len(lat)} moves, zero delay, worker class {args.worker_class}, "
              f"{layout}, {args.neighbours} hard neighbour tables at {budget} ms, "
              f"2 cores shared by client, gunicorn, workers and Redis)")
        if neighbours:
            done = hard_moves(base, neighbours) - before
            print(f"  hard neighbours made {done} moves in {time.monotonic() - started:.1f} s meanwhile")
        print(f"  p50 {pct(lat, 50):7.1f} ms   p90 {pct(lat, 90):7.1f} ms   p99 {pct(lat, 99):7.1f} ms   "
              f"mean {statistics.mean(lat):6.1f} ms   max {max(lat):6.1f} ms")
        print("  targets: p50 <= 50 ms, p99 <= 200 ms")
    finally:
        for p in (web, *workers):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        import redis

        client = redis.Redis.from_url(url)
        for key in client.scan_iter(match=f"*{prefix}*", count=1000):
            client.delete(key)
        client.close()
        if server:
            server.stop()


if __name__ == "__main__":
    main()
