"""§2.7 turn timeouts and absent seats (shedding games): timer keys, due times, FireTimer, defaults.

Every timer is keyed to what it guards (§2.6(4)): ``turn-<round>-<turn id>`` for a turn,
``absent-<seat>-<n>`` for a seat's n-th absence. Firing one whose turn or absence has closed, or
firing it before its due time, is refused with ``nothing_to_do`` and changes nothing.
"""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import absent_key, absent_seat, autopiloted, marks_absent, plays_at_once  # noqa: F401
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, Context, FireTimer, LeaveSeat, RuleViolation
from service.games.shedding.actions import default_action
from service.games.shedding.commands import ACTIONS as COMMAND_OF, AcceptSkip, Draw, Pass, Play, TakePenalty
from service.games.shedding.core import in_grace
from service.games.shedding.state import TURN_PHASES, Match, round_of
from service.games.shedding.tx import Tx

MAX_CHAIN = 16  # a turn ends after a few defaults (draw, then pass or play); a guard, not a rule


def turn_key(m: Match) -> str:
    """The key of the open turn's timer."""
    return f"turn-{m.round_no}-{round_of(m).turn_id}"


def turn_due(m: Match) -> int | None:
    """When the open turn's timer may fire: its deadline (the turn's start for an absent seat under
    default_actions), deferred to the end of another seat's announcement grace (§3.8.6)."""
    rnd = round_of(m)
    seat = rnd.current
    if plays_at_once(m, seat):
        due = rnd.turn_at
    elif rnd.deadline is None:
        return None
    else:
        due = rnd.deadline
    w = rnd.window
    grace = m.rules.grace_ms
    if w is not None and w.seat != seat and not w.satisfied and grace:
        due = max(due, w.opened_at + grace)
    return due


def fire(tx: Tx, cmd: FireTimer) -> None:
    """§2.6(4): a turn timer plays the default (§2.7); an absence timer removes the seat (§3.10)."""
    m = tx.state
    key = cmd.key
    if m.status == "running" and isinstance(key, str):
        rnd = m.rnd
        if key.startswith("turn-") and rnd is not None and rnd.phase in TURN_PHASES and key == turn_key(m):
            due = turn_due(m)
            if due is None or tx.at < due or in_grace(m, rnd.current, tx.at):
                raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
            time_out(tx, rnd.current, key)
            return
        if key.startswith("absent-"):
            seat = absent_seat(m, key)
            if seat is not None:
                if tx.at < (m.seats[seat].removal_deadline or 0):
                    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
                from service.games.shedding.table import leave
                leave(tx, LeaveSeat(seat, "absent_removed"))
                return
    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} has already closed")


def time_out(tx: Tx, seat: int, key: str) -> None:
    """§2.7: TimedOut, then the defaults of each phase until the turn ends (one timeout)."""
    m = tx.state
    scratch = Tx(m, Context(tx.at, tx.seeds[tx.seed_i:]))
    chain = run_defaults(scratch, seat)  # a dry run: TimedOut names the whole chain up front
    if not chain:
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key}: no default action")
    data = {"seat": seat, "turn_id": m.rnd.turn_id, "guarded": key, "default_action": chain[0],
            "chain": chain, **marks_absent(m, seat, tx.at)}
    tx.emit("TimedOut", seat, data)
    tx.auto = seat
    run_defaults(tx, seat)
    tx.auto = None


def run_defaults(tx: Tx, seat: int) -> list[dict[str, Any]]:
    """§3.4 defaults (P-24), chained while the same turn stays open; never announces."""
    from service.games.shedding.decide import ACTIONS
    m = tx.state
    turn, round_no = m.rnd.turn_id, m.round_no
    done: list[dict[str, Any]] = []
    for _ in range(MAX_CHAIN):
        m = tx.state
        rnd = m.rnd
        if (m.status != "running" or m.round_no != round_no or rnd.phase not in TURN_PHASES
                or rnd.turn_id != turn or rnd.current != seat):
            break
        action = default_action(m, seat)
        if action is None:
            break
        ACTIONS[action["type"]](tx, m, command(seat, action))
        done.append(action)
    return done


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
