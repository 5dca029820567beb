"""kernel/state.rep: the fast copy of a frozen state refuses a name that is not a field (issue 24:
``rep(seat, absnet=True)`` used to add a stray attribute silently); the games' states are the
kernel's table plus their own fields (issue 27)."""
from __future__ import annotations

import dataclasses

import pytest

from service.games import registry
from service.games.kernel.standings import shared_ranks
from service.games.kernel.state import Seat, TableState, rep


def _seat() -> Seat:
    return Seat(seat=0, name="ann", kind="human", strength=None, state="active")


def test_rep_changes_a_field_and_leaves_the_original():
    seat = _seat()
    away = rep(seat, absent=True)
    assert away.absent and not seat.absent and away.name == "ann"


def test_rep_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError, match="absnet"):
        rep(_seat(), absnet=True)


def test_no_game_state_declares_a_table_field_again():
    """Issue 27: each game's state class declares only what is its own; the table fields (``rnd``,
    ``replaced``, ``rules_version`` …) are kernel/state.py ``TableState``'s, folded by kernel/fold.py."""
    table = {f.name for f in dataclasses.fields(TableState)}
    for game in registry.GAMES:
        cls = game.state_type
        assert issubclass(cls, TableState), cls
        again = set(vars(cls).get("__annotations__", {})) & table
        assert not again, f"{cls.__name__} declares table fields again: {sorted(again)}"


def test_shared_ranks_are_competition_ranks():
    totals = {0: 5, 1: 5, 2: 7, 3: 9, 4: 9}
    assert shared_ranks([0, 1, 2, 3, 4], totals.__getitem__) == [(0, 1), (1, 1), (2, 3), (3, 4), (4, 4)]
    assert shared_ranks([], totals.__getitem__) == []
