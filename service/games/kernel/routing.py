"""decide's routing parts every game shares (the kernel's ``Rulebook`` takes them): the table
commands' map, a timer that acts only while the match runs, the autopilot's step, the refusal of
a command the game does not know."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import (
    Autopilot,
    DealRound,
    FireTimer,
    JoinSeat,
    LeaveSeat,
    RuleViolation,
    ScoreRound,
    StartMatch,
)
from service.games.kernel.refusal import Refuse
from service.games.kernel.table import Step

Act = Callable[[Any, int, Mapping[str, Any]], None]
"""A game's ``act(tx, seat, action)``: one legal-action object applied as the seat's command."""


def table_commands(*, join: Step, start: Step, leave: Step, score: Step, deal: Step, fire: Step) -> dict[type, Step]:
    """The handler of each table command (``Rulebook.table``): every game knows these six."""
    return {JoinSeat: join, StartMatch: start, LeaveSeat: leave, ScoreRound: score, DealRound: deal,
            FireTimer: fire}


def while_running(fire: Step) -> Step:
    """A game's FireTimer handler, refused unless the match runs (§2.6(4))."""

    def fire_running(tx: Any, cmd: FireTimer) -> None:
        """A timer acts only while the match runs (§2.6(4))."""
        if tx.m.status != "running":
            raise RuleViolation(KernelCode.NOTHING_TO_DO, "the match is not running")
        fire(tx, cmd)

    return fire_running


def autopilot_by(act: Act) -> Step:
    """The Autopilot handler of a game whose absent seats an easy bot plays through ``act``."""

    def autopilot(tx: Any, cmd: Autopilot) -> None:
        """§2.7 bot_autopilot: the easy bot's action for an absent seat, marked ``auto``."""
        if not autopiloted(tx.m, cmd.seat):
            raise RuleViolation(KernelCode.NOTHING_TO_DO, f"seat {cmd.seat} is not on autopilot")
        tx.auto = cmd.seat
        act(tx, cmd.seat, cmd.action)
        tx.auto = None

    return autopilot


def unknown_action(refuse: Refuse, game: str) -> Callable[[Any, Any, int], RuleViolation]:
    """``Rulebook.unknown``: a command the game does not know, refused with the caller's legal actions."""

    def unknown(m: Any, cmd: Any, now: int) -> RuleViolation:
        return refuse(m, getattr(cmd, "seat", None), now, KernelCode.INVALID_ACTION,
                      f"{type(cmd).__name__} is not a {game} action")

    return unknown
