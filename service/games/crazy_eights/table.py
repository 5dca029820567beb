"""decide for the table commands: join and start (before the deal), leave, the timers, score."""
from __future__ import annotations

from service.games.crazy_eights.actions import default_action
from service.games.crazy_eights.flow import deal_round, score_round
from service.games.crazy_eights.moves import act
from service.games.crazy_eights.options import BOT_STRENGTHS
from service.games.crazy_eights.state import PLAY
from service.games.crazy_eights.tx import Tx
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import JoinSeat, LeaveSeat, RuleViolation, StartMatch
from service.games.kernel.table import admit, leave_replaced_by_bot, round_jobs
from service.games.kernel.turn_timer import TurnTimer, turn_due

MAX_CHAIN = 64  # a timed-out turn ends after at most max_draw_cards draws and a pass: a guard, not a rule


def join(tx: Tx, cmd: JoinSeat) -> None:
    """Seats are taken only before the start; at most max_players; bots of this game's strengths."""
    m = tx.m
    closed = None if m.status == "open" else "Crazy Eights takes no seats once the hand is dealt"
    seat, strength, creator = admit(m, cmd, closed, len(m.active_seats()))
    if strength is not None and strength not in BOT_STRENGTHS:
        raise RuleViolation(KernelCode.INVALID_OPTION, f"no {strength} bot for Crazy Eights", reason="unknown_strength",
                            errors=[{"option": "strength", "detail": "unknown_strength"}])
    tx.emit("SeatJoined", seat, {"seat": seat, "name": cmd.name, "kind": cmd.kind,
                                 "strength": strength, "creator": creator})


def start(tx: Tx, cmd: StartMatch) -> None:
    m = tx.m
    if m.status != "open":
        raise RuleViolation(KernelCode.ALREADY_STARTED, "the match has already started")
    if len(m.active_seats()) < int(m.options["min_players"]):
        raise RuleViolation(KernelCode.NOT_ENOUGH_PLAYERS, "not enough seats are taken")
    deal_round(tx, 1)


def leave(tx: Tx, cmd: LeaveSeat) -> None:
    """K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)."""
    leave_replaced_by_bot(tx, cmd)


TIMER = TurnTimer(phases=frozenset({PLAY}), due=turn_due, default_action=default_action, act=act, leave=leave,
                  max_chain=MAX_CHAIN)
fire = TIMER.fire  # a turn timer plays the defaults (§2.7); an absence timer removes the seat (§3.10)


score, deal = round_jobs(score_round, deal_round)
