"""decide for the shedding games: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, RuleViolation
from service.games.kernel.routing import table_commands
from service.games.kernel.table import Rulebook, seat_exists
from service.games.shedding.commands import ACTIONS
from service.games.shedding.decide import decide_seat_action, refuse
from service.games.shedding.state import Match
from service.games.shedding.table import deal, join, leave, score, start
from service.games.shedding.timeouts import autopilot, fire
from service.games.shedding.tx import Tx


def _seat_action(tx: Tx, cmd: Any) -> None:
    decide_seat_action(tx.state, cmd, tx)


def check_seat(m: Match, seat: Any) -> None:
    """Seat actions need an existing, present seat in a running match."""
    seat_exists(m, seat)
    if m.status == "open":
        raise RuleViolation(KernelCode.NOT_STARTED, "the match has not started")
    if m.status == "finished":
        raise RuleViolation(KernelCode.WRONG_PHASE, "the match is over", legal_actions=[])


def _unknown(m: Match, cmd: Any, now: int) -> RuleViolation:
    return refuse(m, getattr(cmd, "seat", None), now, KernelCode.INVALID_ACTION, f"unknown command {type(cmd).__name__}")


def _autopilot(tx: Tx, cmd: Autopilot) -> None:
    autopilot(tx, cmd)


RULEBOOK = Rulebook(
    tx=Tx, seat=dict.fromkeys(ACTIONS.values(), _seat_action), check_seat=check_seat, autopilot=_autopilot,
    table=table_commands(join=join, start=start, leave=leave, score=score, deal=deal, fire=fire),
    unknown=_unknown,
)
decide = RULEBOOK.decide
