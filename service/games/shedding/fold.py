"""The shedding games' evolve: table and in-round handlers in one fold (DESIGN rule 1)."""
from __future__ import annotations

from collections.abc import Iterable

from service.games.kernel.fold import Fold
from service.games.kernel.model import Event
from service.games.shedding.evolve import TABLE
from service.games.shedding.evolve_play import PLAY_EVENTS
from service.games.shedding.state import Match

FOLD = Fold.merged(TABLE, PLAY_EVENTS)
HANDLERS = FOLD.handlers
evolve = FOLD.evolve  # apply one event; a type this game does not fold only bumps the version


def replay(events: Iterable[Event]) -> Match:
    """Fold a whole stream into the state."""
    state = FOLD.replay(events)
    assert state is not None
    return state
