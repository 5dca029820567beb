"""Players and their ratings (docs/integrators.md): a finished game is counted in its players' records
by one job, written with the events that end it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.app import players
from service.app.context import AppContext
from service.app.plugins import Integrations
from service.eventstore.contract import FollowUp
from service.games.kernel.model import Event
from service.games.kernel.state import TableState
from service.integrations.players.jobs import PlayersKind


def counted(ctx: AppContext, game_id: str, before: TableState | None, after: TableState,
            events: Sequence[Event], tokens: Mapping[str, bytes]) -> Sequence[FollowUp]:
    """The match ended: its players' records, once (issue 30)."""
    if after.status != "finished" or (before is not None and before.status == "finished"):
        return ()
    job = players.followup(ctx, game_id, events[-1].at if events else ctx.clock())
    return (job,) if job is not None else ()


def record(ctx: AppContext, payload: dict[str, Any]) -> str:
    return players.record_match(ctx, payload["game"])


def register(reg: Integrations) -> None:
    reg.register("players", followups=[counted], jobs={PlayersKind.PLAYERS: record})
