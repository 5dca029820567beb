"""Public entry points of the rules core used by the rest of the service."""
from __future__ import annotations

from typing import Any, Callable

from service.games import sakapuss as _sak
from service.games.shedding.actions import legal_actions as _shed_legal_actions
from service.games.shedding.evolve import MEMO as _MEMO
from service.games.shedding.evolve import evolve as _shed_evolve
from service.games.kernel.model import (AcceptSkip, Announce, Autopilot, Context, CreateMatch, DealRound, Draw, Event,
                    FireTimer, JoinSeat, LeaveSeat, Pass, Play, RuleViolation, ScoreRound, StartMatch,
                    TakePenalty)
from service.games.shedding.decide import decide_seat_action
from service.games.shedding.state import Match
from service.games.kernel.common import create
from service.games.shedding.table import deal, join, leave, score, start
from service.games.shedding.timeouts import autopilot, fire
from service.games.shedding.tx import Tx
from service.games.shedding.views import Due, SeatView
from service.games.shedding.views import pending_work as _shed_pending_work
from service.games.shedding.views import private_view as _shed_private_view
from service.games.shedding.views import public_view as _shed_public_view
from service.games.shedding.views import seat_view as _shed_seat_view

_MEMO_GET = _MEMO.get
SEAT_COMMANDS = (Play, Draw, Pass, TakePenalty, AcceptSkip, Announce)
TABLE: dict[type, Callable[[Tx, Any], None]] = {
    JoinSeat: join, StartMatch: start, LeaveSeat: leave, ScoreRound: score, DealRound: deal,
    FireTimer: fire,
}


def _is_sak(state: Any) -> bool:
    return isinstance(state, _sak.SakapussMatch)


def decide(state: Match | None, command: Any, ctx: Context) -> tuple[Event, ...]:
    """Validate a command against the state and return the events it causes (never mutates)."""
    if _is_sak(state) or (state is None and getattr(command, "variant", None) == _sak.VARIANT):
        return _sak.decide(state, command, ctx)  # variant dispatch (RULES §6)
    tx = Tx(state, ctx)
    if isinstance(command, CreateMatch):
        create(tx, command)
        return tuple(tx.events)
    if state is None:
        raise RuleViolation("not_found", "no such match")
    if isinstance(command, SEAT_COMMANDS):
        _check_seat(state, command.seat)
        decide_seat_action(state, command, tx)
    elif isinstance(command, Autopilot):
        _check_seat(state, command.seat)
        autopilot(tx, command)
    else:
        fn = TABLE.get(type(command))
        if fn is None:
            raise RuleViolation("invalid_action", f"unknown command {type(command).__name__}")
        fn(tx, command)
    return tuple(tx.events)


def _check_seat(m: Match, seat: int) -> None:
    """Seat actions need an existing, present seat in a running match."""
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation("not_found", f"no seat {seat}")
    if m.seats[seat].state == "left":
        raise RuleViolation("seat_left", f"seat {seat} has left")
    if m.status == "open":
        raise RuleViolation("not_started", "the match has not started")
    if m.status == "finished":
        raise RuleViolation("wrong_phase", "the match is over", legal_actions=[])


def evolve(state: Any, event: Event) -> Any:
    """Apply one event, dispatching on the variant (the state's type, or MatchCreated's variant)."""
    hit = _MEMO_GET(id(event))  # decide already folded this event from this very state (pure)
    if hit is not None and hit[0] is event and hit[1] is state:
        return hit[2]
    if _is_sak(state) or (state is None and event.type == "MatchCreated"
                          and event.data.get("variant") == _sak.VARIANT):
        return _sak.evolve(state, event)
    return _shed_evolve(state, event)


def replay(events: Any) -> Any:
    state = None
    for e in events:
        state = evolve(state, e)
    return state


def legal_actions(state: Any, seat: int, now: int) -> list[dict[str, Any]]:
    return (_sak.legal_actions if _is_sak(state) else _shed_legal_actions)(state, seat, now)


def public_view(state: Any, now: int) -> dict[str, Any]:
    return (_sak.public_view if _is_sak(state) else _shed_public_view)(state, now)


def private_view(state: Any, seat: int, now: int) -> dict[str, Any]:
    return (_sak.private_view if _is_sak(state) else _shed_private_view)(state, seat, now)


def seat_view(state: Any, seat: int, now: int) -> SeatView:
    return (_sak.seat_view if _is_sak(state) else _shed_seat_view)(state, seat, now)


def pending_work(state: Any) -> tuple[Due, ...]:
    return (_sak.pending_work if _is_sak(state) else _shed_pending_work)(state)


__all__ = ["decide", "evolve", "replay", "legal_actions", "public_view", "private_view",
           "pending_work", "seat_view", "Due", "SeatView", "Match"]
