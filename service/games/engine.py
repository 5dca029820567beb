"""Public entry points of the games, used by the rest of the service: registry lookups.

``decide`` routes a command to its game (the state's, or for CreateMatch the variant's);
``outcome`` also hands back the state its events fold to, so a caller never folds twice.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.game import Game
from service.games.kernel.model import Context, CreateMatch, Event, RuleViolation
from service.games.kernel.state import TableState
from service.games.kernel.table import Decided
from service.games.kernel.views import Due, SeatView
from service.games.registry import BY_STATE, for_variant, of_created


def _game_of(state: TableState | None, command: Any) -> Game:
    if state is not None:
        return BY_STATE[type(state)]
    if isinstance(command, CreateMatch):
        return for_variant(command.variant)
    raise RuleViolation(KernelCode.NOT_FOUND, "no such match")


def outcome(state: TableState | None, command: Any, ctx: Context) -> Decided:
    """Validate a command against the state: its events and the state after them (never mutates)."""
    return _game_of(state, command).decide(state, command, ctx)


def decide(state: TableState | None, command: Any, ctx: Context) -> tuple[Event, ...]:
    """Validate a command against the state and return the events it causes (never mutates)."""
    return _game_of(state, command).decide(state, command, ctx).events


def evolve(state: TableState | None, event: Event) -> TableState:
    """Apply one event with the state's game (a stream's first event, MatchCreated, names it)."""
    if state is None:
        return of_created(event).evolve(None, event)
    return BY_STATE[type(state)].evolve(state, event)


def replay(events: Iterable[Event]) -> TableState | None:
    state: TableState | None = None
    for e in events:
        state = evolve(state, e)
    return state


def legal_actions(state: TableState, seat: int, now: int) -> list[dict[str, Any]]:
    return BY_STATE[type(state)].legal_actions(state, seat, now)


def public_view(state: TableState, now: int, record: bool = False) -> dict[str, Any]:
    return BY_STATE[type(state)].public_view(state, now, record)


def private_view(state: TableState, seat: int, now: int) -> dict[str, Any]:
    return BY_STATE[type(state)].private_view(state, seat, now)


def seat_view(state: TableState, seat: int, now: int) -> SeatView:
    return BY_STATE[type(state)].seat_view(state, seat, now)


def default_action(state: TableState, seat: int) -> dict[str, Any] | None:
    """§2.7: the default action the seat's timer would play for it now, or None (none now, or a
    game whose defaults only its timers play)."""
    fn = BY_STATE[type(state)].default_action
    found = fn(state, seat) if fn is not None else None
    return dict(found) if found is not None else None


def pending_work(state: TableState | None) -> tuple[Due, ...]:
    if state is None:
        return ()
    return BY_STATE[type(state)].pending_work(state)


__all__ = [
    "Decided",
    "Due",
    "SeatView",
    "decide",
    "default_action",
    "evolve",
    "legal_actions",
    "outcome",
    "pending_work",
    "private_view",
    "public_view",
    "replay",
    "seat_view",
]
