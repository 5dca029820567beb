"""decide for the table commands: join and start (before the deal), leave, the timers, score."""
from __future__ import annotations

from typing import Any

from service.games.crazy_eights.actions import default_action
from service.games.crazy_eights.flow import deal_round, score_round
from service.games.crazy_eights.moves import act
from service.games.crazy_eights.options import BOT_STRENGTHS
from service.games.crazy_eights.state import PLAY
from service.games.crazy_eights.tx import Tx
from service.games.kernel.absence import absent_seat, marks_absent, plays_at_once
from service.games.kernel.codes import KernelCode
from service.games.kernel.lobby import join_while_open, start_when_seated
from service.games.kernel.model import Context, FireTimer, LeaveSeat, RuleViolation
from service.games.kernel.table import leave_replaced_by_bot, round_jobs

MAX_CHAIN = 64  # a timed-out turn ends after at most max_draw_cards draws and a pass: a guard, not a rule

join = join_while_open("Crazy Eights takes no seats once the hand is dealt", "Crazy Eights", BOT_STRENGTHS)
start = start_when_seated(deal_round)
leave = leave_replaced_by_bot  # K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)


def turn_key(m: Any) -> str:
    return f"turn-{m.round_no}-{m.rnd.turn_id}"


def turn_due(m: Any) -> int | None:
    rnd = m.rnd
    if plays_at_once(m, rnd.current):
        return rnd.turn_at
    return rnd.deadline


def fire(tx: Tx, cmd: FireTimer) -> None:
    """A turn timer plays the defaults (§2.7); an absence timer removes the seat (§3.10)."""
    m = tx.m
    key = cmd.key
    if m.status == "running" and isinstance(key, str):
        rnd = m.rnd
        if key.startswith("turn-") and rnd is not None and rnd.phase == PLAY and key == turn_key(m):
            due = turn_due(m)
            if due is None or tx.at < due:
                raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
            time_out(tx, rnd.current, key)
            return
        if key.startswith("absent-"):
            seat = absent_seat(m, key)
            if seat is not None:
                if tx.at < (m.seats[seat].removal_deadline or 0):
                    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
                leave(tx, LeaveSeat(seat, "absent_removed"))
                return
    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} has already closed")


def time_out(tx: Tx, seat: int, key: str) -> None:
    """§2.7: TimedOut naming the whole chain of defaults, then the defaults until the turn ends."""
    m = tx.m
    scratch = Tx(m, Context(tx.at, tx.seeds[tx.seed_i:]))
    chain = run_defaults(scratch, seat)
    if not chain:
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key}: no default action")
    tx.emit("TimedOut", seat, {"seat": seat, "turn_id": m.rnd.turn_id, "guarded": key,
                               "default_action": chain[0], "chain": chain,
                               **marks_absent(m, seat, tx.at)})
    tx.auto = seat
    run_defaults(tx, seat)
    tx.auto = None


def run_defaults(tx: Tx, seat: int) -> list[dict[str, Any]]:
    turn = tx.m.rnd.turn_id
    done: list[dict[str, Any]] = []
    for _ in range(MAX_CHAIN):
        m = tx.m
        if m.status != "running" or m.rnd.phase != PLAY or m.rnd.turn_id != turn or m.rnd.current != seat:
            break
        action = default_action(m, seat)
        if action is None:
            break
        act(tx, seat, action)
        done.append(action)
    return done


score, deal = round_jobs(score_round, deal_round)
