"""A seat's actions as commands: the handlers of play, draw and pass, and one action object
(``{"type": ...}`` as legal_actions lists it) applied as the seat's command."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.crazy_eights.play import draw, pass_turn, play, refuse
from service.games.crazy_eights.tx import Tx
from service.games.kernel.codes import KernelCode
from service.games.kernel.table import Step
from service.games.shedding.commands import Draw, Pass, Play

SEAT: dict[type, Step] = {Play: play, Draw: draw, Pass: pass_turn}
COMMAND_OF = {"play": Play, "draw": Draw, "pass": Pass}


def act(tx: Tx, seat: int, action: Mapping[str, Any]) -> None:
    a = dict(action)
    cls = COMMAND_OF.get(a.pop("type", None))
    if cls is None:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "not a Crazy Eights action")
    SEAT[cls](tx, cls(seat=seat, **a))
