"""Bot tournament on the rules engine (no HTTP): the easy / medium / hard ladder.

A *game* is one round, dealt from a fresh deterministic seed. It is won by the seat that goes
out (a blocked round: the lowest hand value; a tie counts half to each side). With 4 players
two seats of each strength sit alternately (A B A B) and a side wins when one of its seats
wins, so equal strengths score 50 %. Seats swap every game, so neither side keeps the deal.
Also printed: mean round penalty per seat, hard's budget and its decision time p50/p99.

Prints figures only; never fails on timing.

    python -m bench.tournament --quick
    python -m bench.tournament --games 400 --hard-ms 100 --hard-default-games 100
    python -m bench.tournament --variants prsi --players 2 --pairings hard-medium --workers 1
    python -m bench.tournament --games 0 --hard-default-games 0 --pairings medium-easy --matches 200
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: tools/ imports from the checkout

from service.games.registry import resolve_options
from tools.engine_table import Policy, play_match, play_round


def variant_available(variant: str) -> bool:
    """Whether the engine serves this preset yet (mau-mau-classic comes with the Mau-Mau work)."""
    try:
        resolve_options(variant, {}, 5)
    except Exception:  # noqa: BLE001 - any refusal (unknown preset, invalid options) means "not served yet"
        return False
    return True


def make_policy(strength: str, hard_ms: float | None = None, hard_iters: int | None = None,
                timings: list[float] | None = None) -> Policy:
    """The policy for a strength; hard gets an explicit budget and records its decision times."""
    if strength == "easy":
        from service.games.shedding.bots.easy import choose
        return choose
    if strength == "medium":
        from service.games.shedding.bots.medium import choose
        return choose
    from service.games.shedding.bots import hard

    def hard_choose(view: Any, rng: random.Random) -> dict[str, Any]:
        t = time.perf_counter()
        kw: dict[str, Any] = {}
        if hard_ms is not None or hard_iters is not None:  # else: the view's options (800 ms / 2000)
            kw = {"budget_ms": hard_ms, "iterations": hard_iters}
        a = hard.choose(view, rng, clock=time.perf_counter, **kw)
        if timings is not None:
            timings.append((time.perf_counter() - t) * 1000)
        return a
    return hard_choose










def run_matches(a: str, b: str, n: int, hard_ms: float | None, hard_iters: int | None) -> tuple[float, list[float]]:
    """``n`` whole 2-player prsi matches, sides swapped every match: A's wins (ties split) and
    hard's decision times."""
    timings: list[float] = []
    pa = make_policy(a, hard_ms, hard_iters, timings)
    pb = make_policy(b, hard_ms, hard_iters, timings)
    wins = 0.0
    for g in range(n):
        a_seat = g % 2
        firsts = play_match("prsi", [pa, pb] if a_seat == 0 else [pb, pa], f"match/prsi/2/{g}")
        wins += sum(1 / len(firsts) for s in firsts if s == a_seat)
    return wins, timings


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


@dataclass
class Tally:
    games: int = 0
    a_wins: float = 0.0
    a_pts: list[int] = field(default_factory=list)
    b_pts: list[int] = field(default_factory=list)
    hard_ms: list[float] = field(default_factory=list)


def _job(args: tuple) -> Tally:
    """Play games ``idx`` of one pairing (a worker-process unit)."""
    variant, players, a, b, idxs, hard_ms, hard_iters, tag = args
    t = Tally()
    for g in idxs:
        timings: list[float] = []
        pa = make_policy(a, hard_ms, hard_iters, timings)
        pb = make_policy(b, hard_ms, hard_iters, timings)
        flip = g % 2  # swap sides every game
        sides = [(i + flip) % 2 for i in range(players)]  # 0 = A, 1 = B
        pols = [pa if s == 0 else pb for s in sides]
        res = play_round(variant, pols, f"{tag}/{variant}/{players}/{g}")
        share = 1 / len(res.winner_seats)
        t.a_wins += sum(share for s in res.winner_seats if sides[s] == 0)
        t.games += 1
        for s, p in res.points.items():
            (t.a_pts if sides[s] == 0 else t.b_pts).append(p)
        t.hard_ms.extend(timings)
    return t


def run_pairing(variant: str, players: int, a: str, b: str, games: int, hard_ms: float | None,
                hard_iters: int | None, workers: int, tag: str = "tour") -> Tally:
    chunks = [list(range(i, games, max(1, workers * 4))) for i in range(min(games, max(1, workers * 4)))]
    jobs = [(variant, players, a, b, c, hard_ms, hard_iters, tag) for c in chunks if c]
    total = Tally()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_job, jobs))
    else:
        parts = [_job(j) for j in jobs]
    for p in parts:
        total.games += p.games
        total.a_wins += p.a_wins
        total.a_pts += p.a_pts
        total.b_pts += p.b_pts
        total.hard_ms += p.hard_ms
    return total


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report(variant: str, players: int, a: str, b: str, t: Tally, budget: str, secs: float) -> None:
    lo, hi = wilson(t.a_wins, t.games)
    rate = t.a_wins / t.games if t.games else float("nan")
    hard = ""
    if t.hard_ms:
        hard = f"  hard {budget}: p50 {_pct(t.hard_ms, .5):.0f} ms p99 {_pct(t.hard_ms, .99):.0f} ms"
    pa = statistics.mean(t.a_pts) if t.a_pts else float("nan")
    pb = statistics.mean(t.b_pts) if t.b_pts else float("nan")
    print(f"{variant:<16}{players}p {a:>6} vs {b:<6} games {t.games:>4}  {a} wins {rate:6.1%} "
          f"[{lo:.1%}, {hi:.1%}]  pen/seat {pa:5.1f} vs {pb:5.1f}  {secs:6.1f}s{hard}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games (rounds) per ladder pairing")
    ap.add_argument("--hard-ms", type=float, default=100.0, help="hard's time budget in the ladder")
    ap.add_argument("--hard-iters", type=int, default=None,
                    help="hard's iteration budget in the ladder (default: the option, 2000)")
    ap.add_argument("--hard-default-games", type=int, default=100,
                    help="games of hard at its default budget (800 ms / 2000 it.) vs medium")
    ap.add_argument("--variants", default="prsi,mau-mau-classic")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--pairings", default="medium-easy,hard-medium,hard-easy",
                    help="ladder pairings A-B to play (e.g. hard-medium alone)")
    ap.add_argument("--matches", type=int, default=0,
                    help="also play this many whole 2-player prsi matches (to elimination) per pairing")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="a smoke run: a few games, tiny budgets")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.hard_ms, args.hard_default_games = 6, 20.0, 2
    hard_iters = args.hard_iters or 2000
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",") if p]
    bad = [p for p in pairings if len(p) != 2 or not set(p) <= {"easy", "medium", "hard"}]
    if bad:
        ap.error(f"--pairings: unknown pairing {'-'.join(bad[0])}")
    print(f"a game = one round; won by the seat that goes out (blocked: lowest hand value, ties "
          f"split); 4 players = A B A B. workers={args.workers}")
    for variant in args.variants.split(","):
        if not variant_available(variant):
            print(f"{variant:<16}not available in this engine yet (resolve_options refuses it)")
            continue
        for players in (int(p) for p in args.players.split(",") if args.games):
            for a, b in pairings:
                t0 = time.perf_counter()
                t = run_pairing(variant, players, a, b, args.games, args.hard_ms, hard_iters, args.workers)
                report(variant, players, a, b, t, f"{args.hard_ms:.0f}ms/{hard_iters}it",
                       time.perf_counter() - t0)
    for a, b in pairings if args.matches else ():
        t0 = time.perf_counter()
        wins, timings = run_matches(a, b, args.matches, args.hard_ms, hard_iters)
        lo, hi = wilson(wins, args.matches)
        hard = f"  hard p50 {_pct(timings, .5):.0f} ms p99 {_pct(timings, .99):.0f} ms" if timings else ""
        print(f"prsi 2p whole matches {a:>6} vs {b:<6} matches {args.matches:>4}  {a} wins "
              f"{wins / args.matches:6.1%} [{lo:.1%}, {hi:.1%}]  {time.perf_counter() - t0:6.1f}s{hard}", flush=True)
    if args.hard_default_games and variant_available("prsi"):
        t0 = time.perf_counter()
        t = run_pairing("prsi", 2, "hard", "medium", args.hard_default_games, None, None, args.workers,
                        tag="default")
        report("prsi", 2, "hard", "medium", t, "default 800ms/2000it", time.perf_counter() - t0)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
