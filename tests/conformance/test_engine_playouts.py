"""Random playouts of every registered variant, at every seat count it admits, under seeded option
mixes (OpenSpiel's random_sim_test for this service): replay equals the live fold, cards are
conserved, legal actions are accepted, illegal ones refused, timers and absent seats fall back to
the defaults, bots play legally from their seat's view, and every match ends.

The cases come from the registry's catalogue (tests/conformance/mixes.py): a new game is covered
with no edit here. A failure names its case as ``<variant>-<seats>p-s<seed>``; rebuild it with
``playout(mix_for(variant, seats, seed), seed)``.
"""
from __future__ import annotations

import pytest

from tests.conformance.drive import playout
from tests.conformance.mixes import mix_for, seat_counts, variants

MIX_SEEDS = (0, 1, 2)  # 0: the small table alone; then a few options changed at random
CASES = [(v, n, s) for v in variants() for n in seat_counts(v) for s in MIX_SEEDS]


@pytest.mark.parametrize(("variant", "players", "seed"), CASES, ids=[f"{v}-{n}p-s{s}" for v, n, s in CASES])
def test_a_random_playout_conforms(variant, players, seed):
    tally = playout(mix_for(variant, players, seed), seed)
    assert tally.commands > players and tally.rounds >= 1
    assert tally.checks > tally.commands
