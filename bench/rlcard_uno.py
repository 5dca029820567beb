"""UNO (``uno-rlcard``) against RLCard 1.2's ``uno``, move by move, over many hands with 2, 3 and 4
players (the oracle: tools/rlcard_uno.py; a few hundred hands run in tests/differential). Prints
figures: hands compared, hands where RLCard itself raised (counted apart), decisions.

    python -m bench.rlcard_uno [--games 5000] [--seed 1]
"""
from __future__ import annotations

import argparse
import time
from importlib.metadata import version

from tools.rlcard_uno import run_cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from rlcard.games.uno.game import UnoGame  # type: ignore
    t0 = time.perf_counter()
    games, raised, decisions = run_cases(UnoGame, args.games, args.seed)
    dt = time.perf_counter() - t0
    print(f"uno-rlcard vs RLCard (rlcard {version('rlcard')}): {games} hands compared, {raised} where RLCard "
          f"raised (excluded), {decisions} decisions compared, 0 mismatches, {dt:.1f} s")


if __name__ == "__main__":
    main()
