"""Remote-bot overhead: a remote seat's turn latency, from the event that opened its turn to the
append of its move (both times as the events record them), on the live stack (gunicorn, one
`meow worker` with its remote lane, a real Redis), with the reference bot (examples/remote_bot.py)
on loopback:

- ``prompt``: the bot answers at once (the cost of the dispatch, the signed POST and the write);
- ``sleepy``: the bot sleeps past its call's deadline (``--timeout-ms``) every turn, so every turn
  is a timeout and the seat's default (it is never sent away: MEOW_REMOTE_BOT_FAILURES is huge).

Crazy Eights tables, the remote bot against an easy bot with no delay. Prints p50/p99; never fails
on timing.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/remote_bots.py [--tables 4] [--timeout-ms 300]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from datetime import datetime
from typing import Any

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from examples.remote_bot import make_server, random_legal  # noqa: E402
from service.app import api_keys  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.wiring import build_store  # noqa: E402
from tools.stack import live_stack  # noqa: E402

VARIANT = "crazy-eights"
OPTIONS = {"bot_delay_ms": {"easy": [0, 0], "medium": [0, 0]}}
MOVES = {"CardPlayed", "CardDrawn", "TurnPassed"}


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def ms(at: str) -> float:
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000


def latencies(events: list[dict[str, Any]], seat: int = 0) -> list[float]:
    """Each turn of ``seat``: from its TurnStarted to its first move after it."""
    out, opened = [], None
    for e in events:
        if e["type"] == "TurnStarted" and (e.get("data") or {}).get("seat") == seat:
            opened = ms(e["at"])
        elif opened is not None and e.get("seat") == seat and e["type"] in MOVES:
            out.append(ms(e["at"]) - opened)
            opened = None
    return out


def run(base: str, key: str, choose: Any, tables: int) -> list[float]:
    holder: dict[str, str] = {}
    server = make_server(lambda: holder.get("secret", ""), 0, choose)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    s = requests.Session()
    made = s.post(f"{base}/v1/bots", headers={"Meow-Key": key}, json={
        "name": "bench", "url": f"http://127.0.0.1:{server.server_address[1]}/", "games": [VARIANT]}).json()
    holder["secret"] = made["secret"]
    games = []
    for _ in range(tables):
        g = s.post(f"{base}/v1/games", json={"variant": VARIANT, "max_players": 2, "options": OPTIONS}).json()
        owner = {"Authorization": f"Bearer {g['owner_token']}", "Meow-Key": key}
        s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"remote": made["id"]}}, headers=owner)
        s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=owner)
        s.post(f"{base}/v1/games/{g['id']}/start", headers=owner)
        games.append(g["id"])
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and any(s.get(f"{base}/v1/games/{g}").json()["status"] != "finished"
                                              for g in games):
        time.sleep(0.5)
    out: list[float] = []
    for g in games:
        out += latencies(s.get(f"{base}/v1/games/{g}/events", params={"after": 0}).json()["events"])
    server.shutdown()
    server.server_close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--timeout-ms", type=int, default=300, help="the call's deadline (MEOW_REMOTE_BOT_TIMEOUT_MS)")
    args = ap.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    sleep_s = args.timeout_ms / 1000 * 2

    def sleepy(request: dict[str, Any]) -> Any:
        time.sleep(sleep_s)
        return random_legal(request)

    with live_stack(url, tag="bench-remote", MEOW_OUTBOUND_ALLOW_PRIVATE="1", MEOW_REMOTE_BOT_FAILURES="1000000",
                    MEOW_REMOTE_BOT_TIMEOUT_MS=str(args.timeout_ms), MEOW_RATE_LIMITS="off") as stack:
        store = build_store(Settings(redis_url=url, key_prefix=stack.prefix))
        key = api_keys.create(store, "bench", now_ms=int(time.time() * 1000))[1]
        print(f"remote-bot turn latency, {args.tables} {VARIANT} tables at once (remote bot vs easy bot, "
              f"no bot delay), ms from the turn's start to the remote seat's move:")
        for name, choose in (("prompt", random_legal), ("sleepy", sleepy)):
            lat = run(stack.base, key, choose, args.tables)
            note = "" if name == "prompt" else f" (sleeps {sleep_s * 1000:.0f} ms; call deadline {args.timeout_ms} ms)"
            print(f"  {name:7s} turns={len(lat):4d}  p50={pct(lat, 50):7.1f}  p99={pct(lat, 99):7.1f}{note}")


if __name__ == "__main__":
    main()
