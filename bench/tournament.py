"""The bot strength ladder, as arenas: for every variant (or those named), one arena per seat count
in the variant's range, its entrants the variant's own built-in strengths (GET /v1/variants
``bot_strengths``), each deal played once per seat rotation (duplicate format), hard bots searching by
iterations. Each arena runs in this process through the service's own arena code
(bench/arena_inprocess.py: ``Arenas.create`` and the arena lane's ``Arenas.step``), and prints the
table an arena's GET /v1/arenas/{id} shows: per strength its games, wins (a win shared by k counts
1/k) and mean final points with 95 % intervals (Wilson; normal), its openskill rating with its
interval, and head-to-head counts.

A game is one round (``match_end_mode: single_round`` or ``rounds: 1`` where the variant has the
option), as the ladder always counted. Prints figures only; never fails on timing.

    python -m bench.tournament --quick
    python -m bench.tournament --games 100 --hard-iters 100 --workers 2
    python -m bench.tournament --variants prsi --seats 2 --games 300
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: imports from the checkout

from bench.arena_inprocess import run_arena
from service.games import registry
from service.games.kernel.model import RuleViolation


def ladder_options(variant: str, hard_iters: int) -> dict[str, Any]:
    """One round a game where the variant lets a match be one round; hard's iteration budget."""
    defaults = registry.preset_defaults(variant)
    out: dict[str, Any] = {}
    if "match_end_mode" in defaults:
        try:
            registry.resolve_options(variant, {"match_end_mode": "single_round"}, defaults["max_players"])
            out["match_end_mode"] = "single_round"
        except RuleViolation:
            pass  # a variant whose match is not one round by choice
    if "rounds" in defaults:
        out["rounds"] = 1
    if "hard_bot_iterations" in defaults:
        out["hard_bot_iterations"] = hard_iters
    return out


def cells(variants: list[str], seats: list[int] | None) -> list[tuple[str, list[str], int]]:
    out = []
    catalog = {v["name"]: v for v in registry.variants_catalog()}
    for variant in variants:
        entry = catalog[variant]
        lo, hi = int(entry["min_players"]), int(entry["max_players"])
        for n in range(lo, hi + 1):
            if seats is None or n in seats:
                out.append((variant, list(entry["bot_strengths"]), n))
    return out


def play_cell(args: tuple[str, list[str], int, int, int]) -> tuple[str, int, dict[str, Any], float]:
    variant, strengths, n, games, hard_iters = args
    t0 = time.perf_counter()
    view = run_arena(variant, strengths, n, games, ladder_options(variant, hard_iters))
    return variant, n, view, time.perf_counter() - t0


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def report(variant: str, n: int, view: dict[str, Any], secs: float) -> None:
    res = view["result"]
    print(f"\n{variant} {n} seats: {res['games']} games in {view['deals']} deals, options {view['options']}, "
          f"{secs:.0f} s ({secs / max(1, res['games']):.2f} s/game)", flush=True)
    for e in res["entrants"]:
        lo, hi = e["win_rate_95"]
        plo, phi = e["points_95"]
        r = e["rating"]
        print(f"  {e['name']:<7} games {e['games']:>4}  wins {pct(e['win_rate']):>5}% [{pct(lo)}, {pct(hi)}]  "
              f"points {e['points_mean']:6.2f} [{plo:.2f}, {phi:.2f}]  rating {r['mu']:5.2f} "
              f"[{r['interval_95'][0]:.2f}, {r['interval_95'][1]:.2f}] (shown {r['display']:.2f})", flush=True)
    for h in res["head_to_head"]:
        print(f"  {h['a']} vs {h['b']}: {h['a_wins']}-{h['b_wins']} ({h['draws']} even) of {h['games']}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per cell (rounded up to whole deals)")
    ap.add_argument("--hard-iters", type=int, default=100, help="hard's hard_bot_iterations in the ladder")
    ap.add_argument("--variants", default=",".join(registry.BY_VARIANT), help="variants, comma-separated")
    ap.add_argument("--seats", default="", help="seat counts to play (default: each variant's whole range)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="cells played at once (processes)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: a few games, tiny budgets")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.hard_iters = 6, 20
    seats = [int(x) for x in args.seats.split(",") if x] or None
    todo = [(v, s, n, args.games, args.hard_iters) for v, s, n in cells(args.variants.split(","), seats)]
    print(f"the ladder as arenas: {len(todo)} cells, {args.games} games each, hard {args.hard_iters} iterations, "
          f"workers={args.workers}; a game = one round", flush=True)
    if args.workers > 1:  # printed as each cell ends
        with ProcessPoolExecutor(args.workers) as ex:
            for done in as_completed([ex.submit(play_cell, cell) for cell in todo]):
                report(*done.result())
    else:
        for cell in todo:
            report(*play_cell(cell))


if __name__ == "__main__":
    main()
