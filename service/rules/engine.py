"""Public entry points of the rules core used by the rest of the service."""
from __future__ import annotations

from typing import Any, Callable

from .actions import legal_actions
from .evolve import evolve, replay
from .model import (AcceptSkip, Announce, Context, CreateMatch, DealRound, Draw, Event, JoinSeat,
                    LeaveSeat, Pass, Play, RuleViolation, ScoreRound, StartMatch, TakePenalty)
from .shedding import decide_seat_action
from .state import Match
from .table import create, deal, join, leave, score, start
from .tx import Tx
from .views import Due, SeatView, pending_work, private_view, public_view, seat_view

SEAT_COMMANDS = (Play, Draw, Pass, TakePenalty, AcceptSkip, Announce)
TABLE: dict[type, Callable[[Tx, Any], None]] = {
    JoinSeat: join, StartMatch: start, LeaveSeat: leave, ScoreRound: score, DealRound: deal,
}


def decide(state: Match | None, command: Any, ctx: Context) -> tuple[Event, ...]:
    """Validate a command against the state and return the events it causes (never mutates)."""
    tx = Tx(state, ctx)
    if isinstance(command, CreateMatch):
        create(tx, command)
        return tuple(tx.events)
    if state is None:
        raise RuleViolation("not_found", "no such match", 404)
    if isinstance(command, SEAT_COMMANDS):
        _check_seat(state, command.seat)
        decide_seat_action(state, command, tx)
    else:
        fn = TABLE.get(type(command))
        if fn is None:
            raise RuleViolation("invalid_action", f"unknown command {type(command).__name__}", 422)
        fn(tx, command)
    return tuple(tx.events)


def _check_seat(m: Match, seat: int) -> None:
    """Seat actions need an existing, present seat in a running match."""
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation("not_found", f"no seat {seat}", 404)
    if m.seats[seat].state == "left":
        raise RuleViolation("seat_left", f"seat {seat} has left", 409)
    if m.status == "open":
        raise RuleViolation("not_started", "the match has not started", 409)
    if m.status == "finished":
        raise RuleViolation("wrong_phase", "the match is over", 409, legal_actions=[])


__all__ = ["decide", "evolve", "replay", "legal_actions", "public_view", "private_view",
           "pending_work", "seat_view", "Due", "SeatView", "Match"]
