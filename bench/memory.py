"""Benchmark: what a finished game costs in Redis before and after compaction (issue 16).

For every variant the registry lists (``/v1/variants``), plays matches to their end with random
legal actions (or bots) through the application on a real Redis (REDIS_URL's DB, ``MEOW_BENCH_DB``, 14 by
default, under a unique prefix deleted at the end; or an embedded redis-server): a single round
where the variant has ``match_end_mode`` and the variant's own default match, and that match with
easy bots in every seat (their jobs run in-process). Scoring and deals run
in-process as a worker would. Then compacts each game (service/app/compaction.py) and measures
``MEMORY USAGE`` over every key of the game (stream or compact form, tokens, snapshots, any
idempotency record) before and after; its lobby row (a field of the shard's lobby hash) is the same
before and after and is not counted. Prints per game and in all; never fails.

    python -m bench.memory [--games 2]
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bench.api import RedisUnderTest
from bench.inprocess import Clock, drain
from service.api.app import create_app
from service.app import compaction
from service.games.registry import variants_catalog
from service.settings import Settings

SEATS = 3
MAX_EVENTS = 6_000  # a random-play match still running by then is left out (and said so)
STALL = 200  # rounds of the loop without a new event: a match that stalled is left out too
FAST = {"round_intermission_s": 0, "announce_grace_ms": 0, "turn_timeout_s": None}


def options_for(variant: dict[str, Any], single_round: bool) -> dict[str, Any]:
    """Zero waits where the variant has them; a single round if it has that match end."""
    names = {o["name"]: o for o in variant["options"]}
    out = {k: v for k, v in FAST.items() if k in names}
    end = names.get("match_end_mode")
    if single_round and end and "single_round" in end.get("enum", ()):
        out["match_end_mode"] = "single_round"
    return out


def play(app: Any, clock: Clock, variant: dict[str, Any], options: dict[str, Any], rng: random.Random,
         humans: bool) -> str | None:
    """A match to its end (None past ``MAX_EVENTS``, or when nothing happens for ``STALL`` rounds
    of moves, follow-ups and minutes passing): humans making random legal moves, or easy bots in
    every seat."""
    svc, c = app.extensions["meow.service"], app.test_client()
    seats = max(variant["min_players"], min(SEATS, variant["max_players"]))
    r = c.post("/v1/games", json={"variant": variant["name"], "options": options, "max_players": seats})
    assert r.status_code == 201, r.json
    gid, owner = r.json["id"], r.json["owner_token"]
    owner_h = {"Authorization": f"Bearer {owner}"}
    if humans:
        tokens = [c.post(f"/v1/games/{gid}/seats", json={"name": f"p{i}"}).json["token"] for i in range(seats)]
    else:
        tokens = []
        for _ in range(seats):
            assert c.post(f"/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers=owner_h).status_code == 201
    assert c.post(f"/v1/games/{gid}/start", headers=owner_h).status_code == 200
    last, still = -1, 0
    while True:
        drain(svc, clock.now + 10_000)
        views = [c.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {t}"}).json for t in tokens]
        table = views[0] if views else c.get(f"/v1/games/{gid}").json
        if table["status"] != "running":
            return gid
        still = still + 1 if table["version"] == last else 0
        last = table["version"]
        if table["version"] > MAX_EVENTS or still > STALL:
            return None
        movers = [(t, v["you"]["legal_actions"]) for t, v in zip(tokens, views) if v["you"]["legal_actions"]]
        if not movers:
            clock.now += 60_000
            continue
        token, actions = rng.choice(movers)
        c.post(f"/v1/games/{gid}/actions", json={**rng.choice(actions), "expected_version": views[0]["version"]},
               headers={"Authorization": f"Bearer {token}"})


def memory(redis_ut: RedisUnderTest, gid: str) -> int:
    """MEMORY USAGE summed over every key of the game (all carry its id)."""
    return sum(int(redis_ut.client.memory_usage(k) or 0) for k in redis_ut.client.scan_iter(match=f"*{gid}*", count=1000))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2, help="games per variant and match length")
    ap.add_argument("--write", metavar="FILE", help="also replace the figures between the memory markers of this file")
    args = ap.parse_args()
    lines: list[str] = []

    def emit(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    redis_ut = RedisUnderTest()
    settings = Settings(redis_url=redis_ut.url, key_prefix=redis_ut.uid, rate_limits="off", compact_after_s=-1)
    rng = random.Random(16)
    print(f"Redis {redis_ut.version()}: {redis_ut.where}")
    emit("```")
    emit(f"{'variant':<22} {'match':<16} {'events':>7} {'before B':>10} {'after B':>9} {'ratio':>6} "
          f"{'B/event':>8} {'after B/ev':>10} {'compact ms':>10}")
    totals = [0, 0, 0, 0]
    try:
        for variant in variants_catalog():
            rounds = "match_end_mode" in options_for(variant, True)
            for single, humans in ((True, True), (False, True), (False, False)):
                if single and not rounds:
                    continue  # no single-round mode: its match is the next line
                for _ in range(args.games):
                    app = create_app(settings)
                    svc = app.extensions["meow.service"]
                    clock = Clock()
                    svc.clock = clock
                    gid = play(app, clock, variant, options_for(variant, single), rng, humans)
                    label = ("1 round" if single and "match_end_mode" in options_for(variant, True) else "match") + \
                        (", humans" if humans else ", bots")
                    if gid is None:
                        emit(f"{variant['name']:<22} {label:<16} not over (past {MAX_EVENTS:,} events, or stalled): left out")
                        continue
                    events = svc.store.version(gid)
                    before = memory(redis_ut, gid)
                    t0 = time.perf_counter()
                    got = compaction.compact_finished(svc, gid)
                    ms = (time.perf_counter() - t0) * 1000
                    after = memory(redis_ut, gid)
                    assert got == "compacted", got
                    totals[0] += events
                    totals[1] += before
                    totals[2] += after
                    totals[3] += 1
                    emit(f"{variant['name']:<22} {label:<16} {events:>7} {before:>10,} {after:>9,} "
                          f"{before / after:>6.1f} {before / events:>8.0f} {after / events:>10.1f} {ms:>10.1f}")
        events, before, after, games = totals
        emit(f"{'all':<22} {f'{games} games':<16} {events:>7} {before:>10,} {after:>9,} {before / after:>6.1f} "
              f"{before / events:>8.0f} {after / events:>10.1f}")
        emit("```")
        emit(f"Redis {redis_ut.version()}, {games} finished games, {events:,} events: {before:,} bytes as streams, "
             f"{after:,} compacted, **{before / after:.1f}x** less; 1 GiB holds ~{2**30 * games / before:,.0f} "
             f"such games as streams, ~{2**30 * games / after:,.0f} compacted.")
        if args.write:
            from pathlib import Path

            path = Path(args.write)
            head, start, rest = path.read_text(encoding="utf-8").partition("<!-- memory:begin -->")
            _, end, tail = rest.partition("<!-- memory:end -->")
            path.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail, encoding="utf-8")
    finally:
        print(f"cleanup: deleted {redis_ut.cleanup()} keys")


if __name__ == "__main__":
    main()
