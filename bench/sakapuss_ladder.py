"""The Sakapuss ladder: bench/tournament.py for the variants that seat at least three (Sakapuss seats
3-5), as arenas in process, each strength against the others on the same deals, seats rotated. Kept
under its old name; ``--games`` and ``--hard-iters`` as bench/tournament.py.

    python -m bench.sakapuss_ladder --games 100
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: imports from the checkout

from bench import tournament
from service.games import registry


def main(argv: list[str] | None = None) -> None:
    three_up = [v["name"] for v in registry.variants_catalog() if int(v["min_players"]) >= 3]
    tournament.main(["--variants", ",".join(three_up), *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    main()
