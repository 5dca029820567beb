"""A seated player's action, as a request: the action's ``type`` names one of the seat commands of
the table's game (an unknown one is refused with the legal actions listed), the caller's seat plays
it, and a race-tolerant action (an announcement, a slap) drops the version precondition, since
racing the game is its point. Then it is one ``WritePlan`` on the write path."""
from __future__ import annotations

from typing import Any

from service.app.auth import SPECTATOR, Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.idempotency import Idempotency, Precondition
from service.app.seats import require_seat
from service.app.write_path import Outcome, WritePlan, write
from service.games import engine
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, RuleViolation
from service.games.kernel.state import TableState
from service.games.registry import RACE_TOLERANT, SEAT_ACTIONS


def act(ctx: AppContext, game_id: str, caller: Caller, action: dict[str, Any], pre: Precondition | None,
        idem: Idempotency | None) -> Outcome:
    seat = require_seat(caller)
    action = dict(action)
    kind = action.pop("type")
    if kind not in SEAT_ACTIONS:
        state = ctx.load(game_id)
        raise AppError(KernelCode.INVALID_ACTION, f"'{kind}' is not an action of {state.variant}",
                       legal_actions=engine.legal_actions(state, seat, ctx.clock()))
    try:
        cmd = SEAT_ACTIONS[kind](seat=caller.seat, **action)
    except RuleViolation as rv:  # fields that disagree (a card that is not the kind it names)
        state = ctx.load(game_id)
        raise AppError(rv.code, rv.detail, legal_actions=engine.legal_actions(state, seat, ctx.clock())) from rv
    if kind in RACE_TOLERANT:
        pre = None
    return write(ctx, game_id, caller, WritePlan(lambda s: cmd, precondition=pre, idempotency=idem))


def bot_write(ctx: AppContext, game_id: str, state: TableState, seat: int, action: dict[str, Any],
              head: str | None = None) -> str:
    """Append the bot's action against ``state`` (its chain head ``head``, when known: the write
    path then loads nothing again): "moved", "retry" (the table moved on: look again), "grace"
    (another seat's announcement grace)."""
    chosen, action = dict(action), dict(action)
    kind = action.pop("type")
    cmd = SEAT_ACTIONS[kind](seat=seat, **action)
    if getattr(state.seats[seat], "absent", False):  # RULES §2.7 bot_autopilot
        cmd = Autopilot(seat, chosen)
    pre = None if kind in RACE_TOLERANT else Precondition(state.version, "body")
    try:
        write(ctx, game_id, SPECTATOR, WritePlan(lambda s: cmd, precondition=pre,
                                                 loaded=(state, head) if head is not None else None))
        return "moved"
    except AppError as exc:
        if exc.code == AppCode.VERSION_CONFLICT:
            return "retry"
        if exc.code == KernelCode.ANNOUNCE_GRACE:
            return "grace"
        if kind in RACE_TOLERANT and ctx.event_log.version(game_id) != state.version:
            return "retry"  # refused against a later state (no precondition): look again; the loop answers
            # "closed" once its moment passed (a slap window closed). Against the same state: a bug, raise
        raise
