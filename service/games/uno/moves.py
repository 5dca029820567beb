"""A seat's actions as commands: the handlers of play, draw and pass (keep a drawn card), and one action object
(``{"type": ...}`` as legal_actions lists it) applied as the seat's command."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.catch import CHALLENGE, Challenge
from service.games.kernel.codes import KernelCode
from service.games.kernel.table import Step
from service.games.shedding.commands import Draw, Pass, Play
from service.games.uno.play import challenge, draw, keep, play, refuse
from service.games.uno.tx import Tx

SEAT: dict[type, Step] = {Play: play, Draw: draw, Pass: keep, Challenge: challenge}
COMMAND_OF = {"play": Play, "draw": Draw, "pass": Pass, CHALLENGE: Challenge}


def act(tx: Tx, seat: int, action: Mapping[str, Any]) -> None:
    a = dict(action)
    cls = COMMAND_OF.get(a.pop("type", None))
    if cls is None:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "not an UNO action")
    SEAT[cls](tx, cls(seat=seat, **a))
