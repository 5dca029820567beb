"""Webhooks (docs/integrators.md): an append whose events a webhook may name writes the job that fans
them out into deliveries, in the same atomic append; deliveries run on the hooks lane."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from service.app import webhook_jobs, webhooks
from service.app.context import AppContext
from service.app.plugins import Integrations
from service.eventstore.contract import FollowUp
from service.games.kernel.due import Lane
from service.games.kernel.model import Event
from service.games.kernel.state import TableState
from service.integrations.webhooks.jobs import HookKind


def fan_out(ctx: AppContext, game_id: str, before: TableState | None, after: TableState,
            events: Sequence[Event], tokens: Mapping[str, bytes]) -> Sequence[FollowUp]:
    """A key's table: its deliveries' job."""
    return webhooks.fan_out_followup(ctx, game_id, events, tokens)


def register(reg: Integrations) -> None:
    reg.register("webhooks", followups=[fan_out],
                 jobs={HookKind.HOOK: webhook_jobs.fan_out, HookKind.HOOK_SEND: webhook_jobs.send}, lane_names=[Lane.HOOKS])
