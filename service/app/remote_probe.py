"""A health check's turn (docs/remote-bots.md): a real position of a variant, dealt by the engine
itself in memory and never written anywhere, so what a bot answers to it touches no table.

``position`` creates a match of the variant, seats its fewest players and starts it, exactly as a
table does (the engine's own ``decide``, fresh seeds), and returns the view of a seat with legal
actions as a human in that seat would get it (the one redaction layer). A bot that answers it with
one of those actions plays turns; one that answers anything else does not, whatever it answers to a
ping."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.app.redaction import Viewer, project_view
from service.games import engine, registry
from service.games.kernel.model import Context, CreateMatch, JoinSeat, NeedMoreSeeds, StartMatch
from service.games.kernel.state import TableState
from service.games.kernel.table import RULES_VERSION

SEED_BYTES = 32
MAX_SEEDS = 256


@dataclass(frozen=True)
class Position:
    """A seat's turn in a probe game: what the bot is sent and the actions it may answer."""

    game: str
    variant: str
    version: int
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]


def _min_players(variant: str) -> int:
    for entry in registry.variants_catalog():
        if entry["name"] == variant:
            return int(entry["min_players"])
    return 2


def _decide(state: TableState | None, command: Any, now: int, random_bytes: Callable[[int], bytes]) -> TableState:
    n = 1
    while True:
        seeds = tuple(random_bytes(SEED_BYTES) for _ in range(n))
        try:
            return engine.outcome(state, command, Context(now, seeds)).state
        except NeedMoreSeeds:
            if n >= MAX_SEEDS:
                raise
            n *= 4


def position(variant: str, now: int, random_bytes: Callable[[int], bytes]) -> Position | None:
    """A fresh game of ``variant`` (its id 16 random hex digits, as a table's) at its first turn:
    the first seat with legal actions; None if no seat has any (a variant that starts otherwise)."""
    seats = _min_players(variant)
    resolved, _ = registry.resolve_options(variant, {}, seats)
    game = random_bytes(8).hex()
    state = _decide(None, CreateMatch(game, variant, resolved, seats, "health check", RULES_VERSION), now, random_bytes)
    for i in range(seats):
        state = _decide(state, JoinSeat(f"probe {i + 1}"), now, random_bytes)
    state = _decide(state, StartMatch(), now, random_bytes)
    for seat in range(len(state.seats)):
        legal = engine.legal_actions(state, seat, now)
        if legal:
            return Position(game, variant, state.version, seat, project_view(state, Viewer(seat=seat), now), legal)
    return None
