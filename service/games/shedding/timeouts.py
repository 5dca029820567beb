"""§2.7 turn timeouts and absent seats (shedding games): what their turn timer does differently.

The timer keys and the firing are the kernel's (kernel/turn_timer.py, kernel/absence.py); a shedding
turn's timer waits out another seat's announcement grace (§3.8.6) and chains at most a few defaults.
"""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, LeaveSeat, RuleViolation
from service.games.kernel.turn_timer import TurnTimer, turn_due as kernel_turn_due
from service.games.shedding.actions import default_action
from service.games.shedding.commands import ACTIONS as COMMAND_OF, AcceptSkip, Draw, Pass, Play, TakePenalty
from service.games.shedding.core import in_grace
from service.games.shedding.state import TURN_PHASES, Match, round_of
from service.games.shedding.tx import Tx

MAX_CHAIN = 16  # a turn ends after a few defaults (draw, then pass or play); a guard, not a rule


def turn_due(m: Match) -> int | None:
    """When the open turn's timer may fire (the kernel's ``turn_due``), deferred to the end of
    another seat's announcement grace (§3.8.6)."""
    due = kernel_turn_due(m)
    if due is None:
        return None
    rnd = round_of(m)
    w = rnd.window
    grace = m.rules.grace_ms
    if w is not None and w.seat != rnd.current and not w.satisfied and grace:
        due = max(due, w.opened_at + grace)
    return due


def _act(tx: Tx, seat: int, action: Any) -> None:
    from service.games.shedding.decide import ACTIONS
    ACTIONS[action["type"]](tx, tx.state, command(seat, action))


def _leave(tx: Tx, cmd: LeaveSeat) -> None:
    from service.games.shedding.table import leave
    leave(tx, cmd)


TIMER = TurnTimer(phases=TURN_PHASES, due=turn_due, default_action=default_action, act=_act, leave=_leave,
                  max_chain=MAX_CHAIN, held=in_grace)
fire = TIMER.fire  # §2.6(4): a turn timer plays the default (§2.7); an absence timer removes the seat (§3.10)


COMMANDS = {"play": Play, "draw": Draw, "pass": Pass, "take_penalty": TakePenalty,
            "accept_skip": AcceptSkip}


def command(seat: int, action: Any) -> Any:
    """An action object (``{"type": ..., ...}``) as the seat's command."""
    a = dict(action)
    return COMMANDS[a.pop("type")](seat=seat, **a)


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    """§2.7 bot_autopilot: the easy bot's action for an absent seat, marked as not the human's."""
    from service.games.shedding.decide import decide_seat_action
    m = tx.state
    seat = cmd.seat
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats) or not autopiloted(m, seat):
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"seat {seat} is not on autopilot")
    a = dict(cmd.action)
    cls = COMMAND_OF.get(a.pop("type", None))
    if cls is None:
        raise RuleViolation(KernelCode.INVALID_ACTION, "unknown autopilot action")
    tx.auto = seat
    decide_seat_action(m, cls(seat=seat, **a), tx)
    tx.auto = None
