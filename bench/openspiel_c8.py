"""Crazy Eights against OpenSpiel's ``crazy_eights``, move by move, over many hands (the oracle:
tools/openspiel_c8.py; a few hundred hands run in tests/differential). Prints figures.

    python -m bench.openspiel_c8 [--games 5000] [--seed 1]
"""
from __future__ import annotations

import argparse
import time

from tools.openspiel_c8 import run_cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import pyspiel  # type: ignore
    t0 = time.perf_counter()
    games, decisions = run_cases(pyspiel, args.games, args.seed)
    dt = time.perf_counter() - t0
    print(f"crazy-eights vs OpenSpiel {pyspiel.__name__} (open_spiel {_version()}): {games} hands, "
          f"{decisions} decisions compared, 0 mismatches, {dt:.1f} s")


def _version() -> str:
    from importlib.metadata import version
    return version("open_spiel")


if __name__ == "__main__":
    main()
