"""The table before its first deal, for every game: taking a seat while it is open (K-16) and
starting it once enough seats are taken (§5.9, §6.5.1), round 1 dealt at once."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import JoinSeat, RuleViolation, StartMatch
from service.games.kernel.table import BOT_STRENGTHS, REMOTE, Step, admit


def join_while_open(closed: str, game: str, strengths: tuple[str, ...] = BOT_STRENGTHS) -> Step:
    """The join of a game whose seats are taken only before the start (Sakapuss, Crazy Eights):
    at most max_players, bots of the game's ``strengths``; once it runs, ``closed`` says why not."""

    def join(tx: Any, cmd: JoinSeat) -> None:
        """K-16: seats are taken only before the start; at most max_players; bots of this game's strengths."""
        m = tx.m
        seat, strength, creator = admit(m, cmd, None if m.status == "open" else closed, len(m.active_seats()))
        if strength is not None and strength not in strengths and strength != REMOTE:
            raise RuleViolation(KernelCode.INVALID_OPTION, f"no {strength} bot for {game}", reason="unknown_strength",
                                errors=[{"option": "strength", "detail": "unknown_strength"}])
        tx.emit("SeatJoined", seat, {"seat": seat, "name": cmd.name, "kind": cmd.kind,
                                     "strength": strength, "creator": creator})

    return join


def start_when_seated(deal_round: Callable[[Any, int], None]) -> Step:
    """The start of every game: the open table with at least min_players seats deals round 1."""

    def start(tx: Any, cmd: StartMatch) -> None:
        """§5.9, §6.5.1: the creator starts with at least min_players seats; round 1 is dealt at once."""
        m = tx.m
        if m.status != "open":
            raise RuleViolation(KernelCode.ALREADY_STARTED, "the match has already started")
        if len(m.active_seats()) < int(m.options["min_players"]):
            raise RuleViolation(KernelCode.NOT_ENOUGH_PLAYERS, "not enough seats are taken")
        deal_round(tx, 1)

    return start
