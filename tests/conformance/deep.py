"""The engine conformance suite's deeper profile (tests/conformance, docs/testing.md): a program of
the test suite, run by hand (it was bench/conformance.py; the benches import nothing of tests/).

Plays every registered variant at every seat count it admits, under many seeded option mixes,
with every check at every step (a full replay after every command, every legal action tried every
few moves, illegal commands at every human move, every bot's view and determinism). Prints, per
variant: matches, commands, human and bot moves, timers, absences, checks and illegal commands
refused, the refusal rate of the mix generator, and wall time; then every failure with the case
that rebuilds it (``playout(mix_for(variant, seats, seed), seed)``). Exits non-zero on a failure;
never on time.

    python -m tests.conformance.deep [--mixes 10] [--variants prsi,sakapuss] [--quick]
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback

from tests.conformance.drive import Profile, Tally, playout
from tests.conformance.mixes import REFUSALS, mix_for, seat_counts, variants

DEEP = Profile(replay_every=1, all_actions_every=3, illegal_every=1, view_every=1, sleeper=0.5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mixes", type=int, default=10, help="mix seeds per variant and seat count")
    ap.add_argument("--variants", default="", help="comma-separated variants (default: all registered)")
    ap.add_argument("--quick", action="store_true", help="the suite's profile instead of the deep one")
    args = ap.parse_args(argv)
    chosen = [v for v in variants() if not args.variants or v in args.variants.split(",")]
    profile = Profile() if args.quick else DEEP
    failures: list[str] = []
    print(f"{'variant':24} {'games':>5} {'cmds':>7} {'moves':>6} {'bots':>6} {'timers':>6} {'absent':>6} "
          f"{'checks':>8} {'illegal':>7} {'refused':>7} {'s':>6}")
    for variant in chosen:
        total, t0 = Tally(games=0), time.perf_counter()
        for players in seat_counts(variant):
            for seed in range(args.mixes):
                case = f"{variant}-{players}p-s{seed}"
                try:
                    total.add(playout(mix_for(variant, players, seed), seed, profile))
                except Exception as exc:  # noqa: BLE001 - every failure is reported with its case
                    failures.append(f"{case}: {type(exc).__name__}: {exc}")
                    if not isinstance(exc, AssertionError):
                        traceback.print_exc()
        print(f"{variant:24} {total.games:5} {total.commands:7} {total.moves:6} {total.bot_moves:6} "
              f"{total.timers:6} {total.absences:6} {total.checks:8} {total.illegal:7} "
              f"{REFUSALS.rate(variant):7.0%} {time.perf_counter() - t0:6.1f}", flush=True)
        print(f"{'':24} refused: {dict(total.refused)}; bot moves: {dict(total.strengths)}", flush=True)
    for f in failures:
        print("FAIL", f[:2000])
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
