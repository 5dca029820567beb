"""kernel/state.rep: the fast copy of a frozen state refuses a name that is not a field (issue 24:
``rep(seat, absnet=True)`` used to add a stray attribute silently)."""
from __future__ import annotations

import pytest

from service.games.kernel.state import Seat, rep


def _seat() -> Seat:
    return Seat(seat=0, name="ann", kind="human", strength=None, state="active")


def test_rep_changes_a_field_and_leaves_the_original():
    seat = _seat()
    away = rep(seat, absent=True)
    assert away.absent and not seat.absent and away.name == "ann"


def test_rep_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError, match="absnet"):
        rep(_seat(), absnet=True)
