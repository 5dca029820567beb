"""Credential races over HTTP (issue 37), on a live stack (gunicorn with 2 workers on a real Redis, as
`make run` serves), clients on loopback, each trial behind a barrier:

- ``keys``: POST /v1/admin/keys/{id}/revoke racing three POST .../rotate: how often the key ended
  active (came back), how often a rotated secret worked on GET /v1/keys/me, how the rotations answered
  (several may answer 200 one after another, each from the version the previous one made; never two
  from the same version);
- ``bots``: DELETE /v1/bots/{id} racing POST /v1/bots/{id}/rotate: how often the deleted bot came back.

Prints counts; never fails.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/credential_races.py [--trials 200]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from collections import Counter
from collections.abc import Callable

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools.stack import Stack, live_stack  # noqa: E402

ADMIN = "bench-admin-token-0123456789abcdef0123456789"


def raced(calls: list[Callable[[requests.Session], requests.Response]]) -> list[requests.Response]:
    """Run the calls at once (one thread and session each, behind a barrier)."""
    barrier = threading.Barrier(len(calls))
    sessions = [requests.Session() for _ in calls]
    out: list[requests.Response | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        out[i] = calls[i](sessions[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return [r for r in out if r is not None]


def key_trials(stack: Stack, trials: int) -> Counter[str]:
    s, admin = requests.Session(), {"Authorization": f"Bearer {ADMIN}"}
    keys = f"{stack.base}/v1/admin/keys"
    seen: Counter[str] = Counter()
    for _ in range(trials):
        kid = s.post(keys, json={"name": "race"}, headers=admin, timeout=10).json()["key"]["id"]
        revoke, *rotates = raced([lambda c: c.post(f"{keys}/{kid}/revoke", headers=admin, timeout=10)] +
                                 [lambda c: c.post(f"{keys}/{kid}/rotate", headers=admin, timeout=10)] * 3)
        seen[f"revoke_{revoke.status_code}"] += 1
        seen.update(f"rotate_{r.status_code}" for r in rotates)
        seen["came_back"] += bool(s.get(f"{keys}/{kid}", headers=admin, timeout=10).json()["active"])
        ok = [r.json() for r in rotates if r.status_code == 200]
        secrets = [r["secret"] for r in ok]
        seen["rotated_secret_works"] += any(
            s.get(f"{stack.base}/v1/keys/me", headers={"Meow-Key": x}, timeout=10).status_code == 200 for x in secrets)
        # two rotations that both answered 200 from the same version (main: no versions, all "the same")
        seen["rotates_200_from_one_version"] += len(ok) > len({r["key"].get("version") for r in ok})
    return seen


def bot_trials(stack: Stack, trials: int) -> Counter[str]:
    s = requests.Session()
    made = s.post(f"{stack.base}/v1/admin/keys", json={"name": "bots"}, headers={"Authorization": f"Bearer {ADMIN}"},
                  timeout=10).json()
    key = {"Meow-Key": made["secret"]}
    seen: Counter[str] = Counter()
    for i in range(trials):
        bot = s.post(f"{stack.base}/v1/bots", json={"name": f"b{i}", "url": "http://127.0.0.1:9/x", "games": ["prsi"]},
                     headers=key, timeout=10).json()["id"]
        delete, rotate = raced([lambda c: c.delete(f"{stack.base}/v1/bots/{bot}", headers=key, timeout=10),
                                lambda c: c.post(f"{stack.base}/v1/bots/{bot}/rotate", headers=key, timeout=10)])
        seen[f"delete_{delete.status_code}"] += 1
        seen[f"rotate_{rotate.status_code}"] += 1
        back = s.get(f"{stack.base}/v1/bots/{bot}", headers=key, timeout=10).status_code == 200
        seen["came_back"] += back
        if back:  # keep under the key's cap of bots
            s.delete(f"{stack.base}/v1/bots/{bot}", headers=key, timeout=10)
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=200)
    args = ap.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    with live_stack(url, workers=0, api_workers=2, tag="credraces", MEOW_ADMIN_TOKEN=ADMIN,
                    MEOW_OUTBOUND_ALLOW_PRIVATE="1", MEOW_RATE_LIMITS="off") as stack:
        keys = key_trials(stack, args.trials)
        bots = bot_trials(stack, args.trials)
    print(f"keys, {args.trials} trials of revoke vs 3 rotates: {dict(sorted(keys.items()))}")
    print(f"bots, {args.trials} trials of delete vs rotate: {dict(sorted(bots.items()))}")


if __name__ == "__main__":
    main()
