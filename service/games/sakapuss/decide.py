"""decide for Sakapuss: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.model import (Autopilot, DealRound, FireTimer, JoinSeat, LeaveSeat, RuleViolation,
                                        ScoreRound, StartMatch)
from service.games.sakapuss.actions import legal_actions
from service.games.sakapuss.commands import ACTIONS, PassCard, Slap
from service.games.sakapuss.table import deal, join, leave, score, start
from service.games.sakapuss.play import fire, pass_card, slap
from service.games.sakapuss.state import SakapussMatch
from service.games.kernel.table import Rulebook, check_dealt_seat
from service.games.sakapuss.tx import Tx


def fire_running(tx: Tx, cmd: FireTimer) -> None:
    """A timer acts only while the match runs (§2.6(4))."""
    if tx.m.status != "running":
        raise RuleViolation("nothing_to_do", "the match is not running")
    fire(tx, cmd)


def _unknown(m: SakapussMatch, cmd: Any, now: int) -> RuleViolation:
    return RuleViolation("invalid_action", f"{type(cmd).__name__} is not a Sakapuss action",
                         legal_actions=_legal(m, getattr(cmd, "seat", None), now))


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    """§2.7 bot_autopilot: the easy bot's pass or slap for an absent seat, marked ``auto``."""
    seat = cmd.seat
    if not autopiloted(tx.m, seat):
        raise RuleViolation("nothing_to_do", f"seat {seat} is not on autopilot")
    a = dict(cmd.action)
    cls = ACTIONS.get(a.pop("type", None))
    fn = SEAT.get(cls)  # type: ignore[arg-type]
    if fn is None:
        raise RuleViolation("invalid_action", "unknown autopilot action")
    tx.auto = seat
    fn(tx, cls(seat=seat, **a))
    tx.auto = None


def _legal(m: SakapussMatch, seat: Any, now: int) -> list[dict[str, Any]]:
    return legal_actions(m, seat, now) if isinstance(seat, int) else []


def _check_seat(m: Any, seat: Any) -> None:
    check_dealt_seat(m, seat, "round")


SEAT = {PassCard: pass_card, Slap: slap}
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
