"""decide for Sakapuss' table commands: join (K-16), start (§6.5.1), leave (K-15), score, deal."""
from __future__ import annotations

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import JoinSeat, LeaveSeat, RuleViolation, StartMatch
from service.games.kernel.table import admit, leave_replaced_by_bot, round_jobs
from service.games.sakapuss.flow import deal_round, score_round
from service.games.sakapuss.tx import Tx


def join(tx: Tx, cmd: JoinSeat) -> None:
    """K-16: seats are taken only before the start; at most max_players."""
    m = tx.m
    closed = None if m.status == "open" else "Sakapuss takes no seats once the match has started"
    seat, strength, creator = admit(m, cmd, closed, len(m.active_seats()))
    tx.emit("SeatJoined", seat, {"seat": seat, "name": cmd.name, "kind": cmd.kind,
                                 "strength": strength, "creator": creator})


def start(tx: Tx, cmd: StartMatch) -> None:
    """§6.5.1: LOBBY with 3-5 seats -> round 1 (one cat kind per player)."""
    m = tx.m
    if m.status != "open":
        raise RuleViolation(KernelCode.ALREADY_STARTED, "the match has already started")
    n = len(m.active_seats())
    if n < int(m.options["min_players"]):
        raise RuleViolation(KernelCode.NOT_ENOUGH_PLAYERS, "not enough seats are taken")
    deal_round(tx, 1)


def leave(tx: Tx, cmd: LeaveSeat) -> None:
    """K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)."""
    leave_replaced_by_bot(tx, cmd)


score, deal = round_jobs(score_round, deal_round)
