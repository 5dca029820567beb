"""decide for Crazy Eights: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.crazy_eights.moves import SEAT, act
from service.games.crazy_eights.play import refuse
from service.games.crazy_eights.table import deal, fire, join, leave, score, start
from service.games.crazy_eights.tx import Tx
from service.games.kernel.routing import autopilot_by, table_commands, unknown_action, while_running
from service.games.kernel.table import Rulebook, check_dealt_seat


def _check_seat(m: Any, seat: Any) -> None:
    check_dealt_seat(m, seat, "hand")


RULEBOOK = Rulebook(
    tx=Tx, seat=SEAT, check_seat=_check_seat, autopilot=autopilot_by(act),
    table=table_commands(join=join, start=start, leave=leave, score=score, deal=deal, fire=while_running(fire)),
    unknown=unknown_action(refuse, "Crazy Eights"),
)
decide = RULEBOOK.decide
