"""The shedding games' evolve: table and in-round handlers in one fold (DESIGN rule 1)."""
from __future__ import annotations

from collections.abc import Iterable

from service.games.kernel.fold import Fold
from service.games.kernel.model import Event
from service.games.kernel.state import rep_version
from service.games.shedding.evolve import TABLE
from service.games.shedding.evolve_play import PLAY_EVENTS
from service.games.shedding.state import Match

FOLD = Fold.merged(TABLE, PLAY_EVENTS)
HANDLERS = FOLD.handlers


def evolve(state: Match | None, event: Event) -> Match:
    """Apply one event; unknown types only bump the version."""
    fn = HANDLERS.get(event.type)
    if fn is None:
        return rep_version(state, event.seq)
    return fn(state, event)


def replay(events: Iterable[Event]) -> Match:
    """Fold a whole stream into the state."""
    state: Match | None = None
    for ev in events:
        state = evolve(state, ev)
    assert state is not None
    return state
