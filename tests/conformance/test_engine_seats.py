"""Bots of every strength a variant's catalogue offers, and absent seats, for every variant.

(f) A table of bots of one strength plays to its end: each bot sees only its seat's view, picks
one of its legal actions, and picks it again from a copy of that view (a searching bot runs on a
clock that ticks per reading, with a tiny budget). (e) A human who never acts times out, is marked
absent after ``max_consecutive_timeouts`` and then plays by the table's ``absent_policy``: the
match ends all the same.
"""
from __future__ import annotations

import pytest

from service.games import engine, registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Context, CreateMatch, JoinSeat, RuleViolation, StartMatch
from service.games.kernel.table import RULES_VERSION, seat_taken
from tests.conformance.drive import Profile, playout
from tests.conformance.mixes import (
    catalogue,
    mix_for,
    seat_counts,
    variants,
    with_options,
)

STRENGTHS = [(v, s) for v in variants() for s in catalogue()[v].get("bot_strengths") or ()]


NOW = 1_800_000_000_000
BOT_MOVES = 12  # moves of the strength under test, per case (a searching or sampling bot is slow)


@pytest.mark.parametrize(("variant", "strength"), STRENGTHS, ids=[f"{v}-{s}" for v, s in STRENGTHS])
def test_bots_of_every_strength_play_legally_from_their_view(variant, strength):
    players = seat_counts(variant)[0]
    seats = (None,) + (strength,) * (players - 1)  # a random human and bots of one strength
    moved = 0
    for seed in range(20):  # a small table may end after a few moves: play another one
        need = BOT_MOVES - moved
        tally = playout(mix_for(variant, players, seed), seed, Profile(view_every=1, sleeper=0.0), strengths=seats,
                        stop=lambda t, need=need: t.tally.strengths[strength] >= need)
        moved += tally.strengths[strength]
        if moved >= BOT_MOVES:
            break
    assert moved >= BOT_MOVES, f"{variant}: the {strength} bots moved {moved} times in 20 matches"


def _policies(variant: str) -> list[object]:
    """The kernel's absent policies the variant's catalogue declares (kernel/absence.py)."""
    opt = next((o for o in catalogue()[variant]["options"] if o["name"] == "absent_policy"), None)
    return list(opt.get("enum") or opt.get("range") or [None]) if opt else [None]


ABSENT = [(v, p) for v in variants() for p in _policies(v)]


@pytest.mark.parametrize(("variant", "policy"), ABSENT, ids=[f"{v}-{p}" for v, p in ABSENT])
def test_a_seat_that_never_acts_goes_absent_and_the_match_still_ends(variant, policy):
    players = seat_counts(variant)[0]
    absences = timeouts = 0
    for seed in range(3):
        mix = mix_for(variant, players, seed)
        if policy is not None:
            mix = with_options(mix, absent_policy=policy)
        tally = playout(mix, seed, Profile(bot_share=0.0), sleeper=True)
        absences += tally.absences
        timeouts += tally.timeouts
    assert timeouts >= 1 and absences >= 1, f"{variant}: {timeouts} timeouts, {absences} absences"


@pytest.mark.parametrize("variant", variants())
def test_every_join_names_the_seat_it_took_in_its_first_event(variant):
    """§3.10, kernel/table.seat_taken: the application learns which seat a join took from the join's
    first event (it knows no game's event types): before the start, and after it where the variant
    takes seats while it runs (a seat that waits for the next deal)."""
    game = registry.for_variant(variant)
    players = seat_counts(variant)[0]
    options, _ = game.resolve_options(variant, {}, players + 1)

    def run(state, cmd, n):
        return engine.outcome(state, cmd, Context(NOW, tuple(bytes([n, i]) * 16 for i in range(16))))

    state = run(None, CreateMatch(f"join-{variant}", variant, options, players + 1, "joins", RULES_VERSION), 0).state
    for i in range(players):
        decided = run(state, JoinSeat(f"h{i}", "human", creator=i == 0), i + 1)
        assert seat_taken(decided.events) == i == len(state.seats)
        state = decided.state
        assert state.seats[i].name == f"h{i}"
    state = run(state, StartMatch(), 99).state
    try:
        decided = run(state, JoinSeat("late", "human"), 100)
    except RuleViolation as rv:
        assert rv.code == KernelCode.JOINING_CLOSED, rv  # this variant takes no seats while it runs
        return
    assert seat_taken(decided.events) == len(state.seats)
    assert decided.state.seats[-1].name == "late"
