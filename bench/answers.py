"""Benchmark: how big the API's answers are over long random rounds (issue 11's size targets).

Plays Prší through the real Flask app (in-memory store, every seat a human token, follow-ups run
in-process as a worker would) choosing uniformly among each seat's legal actions, and records the
size of every write answer and of each seat's view (``GET /v1/games/{id}``) after every move:
the default (lean) view, the view with ``?include=record``, a write answer with
``Prefer: return=minimal``, and the gzip-compressed size of the default view. Prints the median,
p99 and maximum per kind, for 2 and 4 seats. Single-round matches (``match_end_mode:
single_round``) with a high draw count make the rounds long. Prints figures only.

    python -m bench.answers [--games 6] [--seed 1]
"""
from __future__ import annotations

import argparse
import gzip
import random
import statistics

from bench.inprocess import Clock, drain
from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
        "match_end_mode": "single_round"}


def play(seats: int, rng: random.Random, sizes: dict[str, list[int]], max_moves: int = 600) -> int:
    clock = Clock()
    app = create_app(Settings(), store=MemoryEventStore())
    svc = app.extensions["meow.service"]
    svc.clock = clock
    c = app.test_client()
    g = c.post("/v1/games", json={"variant": "prsi", "options": FAST}).json
    gid, owner = g["id"], g["owner_token"]
    tokens = [c.post(f"/v1/games/{gid}/seats", json={"name": f"p{i}"}).json["token"] for i in range(seats)]
    c.post(f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {owner}"})
    moves = 0
    while moves < max_moves:
        drain(svc, clock.now)
        views = [c.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {t}"}) for t in tokens]
        if views[0].json["status"] != "running":
            break
        for r in views:
            sizes["view"].append(len(r.data))
            sizes["view, gzip"].append(len(gzip.compress(r.data, 6)))
        sizes["view ?include=record"].append(len(c.get(f"/v1/games/{gid}?include=record", headers={
            "Authorization": f"Bearer {tokens[0]}"}).data))
        movers = [(i, r.json["you"]["legal_actions"]) for i, r in enumerate(views) if r.json["you"]["legal_actions"]]
        if not movers:
            clock.now += 60_000
            continue
        seat, actions = rng.choice(movers)
        action = dict(rng.choice(actions))
        action["expected_version"] = views[0].json["version"]
        minimal = rng.random() < 0.25
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        if minimal:
            headers["Prefer"] = "return=minimal"
        r = c.post(f"/v1/games/{gid}/actions", json=action, headers=headers)
        if r.status_code == 200:
            sizes["write answer, minimal" if minimal else "write answer"].append(len(r.data))
            moves += 1
    return moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"answer sizes in bytes over {args.games} random single-round Prší matches per seat count")
    print(f"{'seats':>5}  {'kind':<26}{'n':>6}{'median':>8}{'p99':>8}{'max':>8}")
    for seats in (2, 4):
        sizes: dict[str, list[int]] = {k: [] for k in ("view", "view, gzip", "view ?include=record",
                                                        "write answer", "write answer, minimal")}
        moves = sum(play(seats, rng, sizes) for _ in range(args.games))
        for kind, xs in sizes.items():
            if not xs:
                continue
            xs.sort()
            p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
            print(f"{seats:>5}  {kind:<26}{len(xs):>6}{int(statistics.median(xs)):>8}{p99:>8}{xs[-1]:>8}")
        print(f"{seats:>5}  ({moves} moves)")


if __name__ == "__main__":
    main()
