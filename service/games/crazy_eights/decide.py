"""decide for Crazy Eights: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.crazy_eights.moves import SEAT, act
from service.games.crazy_eights.play import refuse
from service.games.crazy_eights.state import EightsMatch
from service.games.crazy_eights.table import deal, fire, join, leave, score, start
from service.games.crazy_eights.tx import Tx
from service.games.kernel.absence import autopiloted
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, DealRound, FireTimer, JoinSeat, LeaveSeat, RuleViolation, ScoreRound, StartMatch
from service.games.kernel.table import Rulebook, check_dealt_seat


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    """§2.7 bot_autopilot: the easy bot's action for an absent seat, marked ``auto``."""
    if not autopiloted(tx.m, cmd.seat):
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"seat {cmd.seat} is not on autopilot")
    tx.auto = cmd.seat
    act(tx, cmd.seat, cmd.action)
    tx.auto = None


def fire_running(tx: Tx, cmd: FireTimer) -> None:
    if tx.m.status != "running":
        raise RuleViolation(KernelCode.NOTHING_TO_DO, "the match is not running")
    fire(tx, cmd)


def _check_seat(m: Any, seat: Any) -> None:
    check_dealt_seat(m, seat, "hand")


def _unknown(m: EightsMatch, cmd: Any, now: int) -> RuleViolation:
    return refuse(m, getattr(cmd, "seat", None), now, KernelCode.INVALID_ACTION,
                  f"{type(cmd).__name__} is not a Crazy Eights action")


RULEBOOK = Rulebook(
    tx=Tx,
    seat=SEAT,
    table={JoinSeat: join, StartMatch: start, LeaveSeat: leave, ScoreRound: score, DealRound: deal,
           FireTimer: fire_running},
    check_seat=_check_seat,
    autopilot=autopilot,
    unknown=_unknown,
)
decide = RULEBOOK.decide
