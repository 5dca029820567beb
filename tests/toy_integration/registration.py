"""The tally plugged into the table core: one append hook and one job kind."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.app.context import AppContext
from service.app.plugins import Integrations
from service.eventstore.contract import FollowUp
from service.games.kernel.model import Event
from service.games.kernel.state import TableState
from service.integrations.tally.jobs import TallyKind, tally_job

COUNTED: set[str] = set()  # the tables counted (a real integration keeps its records behind a port)


def on_append(ctx: AppContext, game_id: str, before: TableState | None, after: TableState,
              events: Sequence[Event], tokens: Mapping[str, bytes]) -> Sequence[FollowUp]:
    """A new table: its tally job, written with its first events."""
    return (tally_job(game_id, after.created_at),) if before is None else ()


def count(ctx: AppContext, payload: dict[str, Any]) -> str:
    ctx.load(payload["game"])  # the table exists
    COUNTED.add(payload["game"])
    return "tallied"


def register(reg: Integrations) -> None:
    reg.register("tally", followups=[on_append], jobs={TallyKind.TALLY: count})
