"""decide for Sakapuss: each command to its handler (the kernel's Rulebook routes)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import RuleViolation
from service.games.kernel.routing import autopilot_by, table_commands, unknown_action, while_running
from service.games.kernel.table import Rulebook, Step, check_dealt_seat
from service.games.sakapuss.commands import ACTIONS, PassCard, Slap
from service.games.sakapuss.play import fire, pass_card, refuse, slap
from service.games.sakapuss.table import deal, join, leave, score, start
from service.games.sakapuss.tx import Tx

SEAT: dict[type, Step] = {PassCard: pass_card, Slap: slap}


def act(tx: Tx, seat: int, action: Mapping[str, Any]) -> None:
    """The easy bot's pass or slap for an absent seat (§2.7), as the seat's command."""
    a = dict(action)
    cls = ACTIONS.get(a.pop("type", None))
    fn = SEAT.get(cls) if cls is not None else None
    if cls is None or fn is None:
        raise RuleViolation(KernelCode.INVALID_ACTION, "unknown autopilot action")
    fn(tx, cls(seat=seat, **a))


RULEBOOK = Rulebook(
    tx=Tx, seat=SEAT, check_seat=check_dealt_seat, autopilot=autopilot_by(act),
    table=table_commands(join=join, start=start, leave=leave, score=score, deal=deal, fire=while_running(fire)),
    unknown=unknown_action(refuse, "Sakapuss"),
)
decide = RULEBOOK.decide
