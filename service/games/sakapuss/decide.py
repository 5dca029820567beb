"""decide for Sakapuss: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, DealRound, FireTimer, JoinSeat, LeaveSeat, RuleViolation, ScoreRound, StartMatch
from service.games.kernel.table import Rulebook, Step, check_dealt_seat
from service.games.sakapuss.commands import ACTIONS, PassCard, Slap
from service.games.sakapuss.play import fire, pass_card, refuse, slap
from service.games.sakapuss.state import SakapussMatch
from service.games.sakapuss.table import deal, join, leave, score, start
from service.games.sakapuss.tx import Tx


def fire_running(tx: Tx, cmd: FireTimer) -> None:
    """A timer acts only while the match runs (§2.6(4))."""
    if tx.m.status != "running":
        raise RuleViolation(KernelCode.NOTHING_TO_DO, "the match is not running")
    fire(tx, cmd)


def _unknown(m: SakapussMatch, cmd: Any, now: int) -> RuleViolation:
    return refuse(m, getattr(cmd, "seat", None), now, KernelCode.INVALID_ACTION,
                  f"{type(cmd).__name__} is not a Sakapuss action")


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    """§2.7 bot_autopilot: the easy bot's pass or slap for an absent seat, marked ``auto``."""
    seat = cmd.seat
    if not autopiloted(tx.m, seat):
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"seat {seat} is not on autopilot")
    a = dict(cmd.action)
    cls = ACTIONS.get(a.pop("type", None))
    fn = SEAT.get(cls) if cls is not None else None
    if cls is None or fn is None:
        raise RuleViolation(KernelCode.INVALID_ACTION, "unknown autopilot action")
    tx.auto = seat
    fn(tx, cls(seat=seat, **a))
    tx.auto = None


def _check_seat(m: Any, seat: Any) -> None:
    check_dealt_seat(m, seat, "round")


SEAT: dict[type, Step] = {PassCard: pass_card, Slap: slap}
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
