"""Remote bots (docs/remote-bots.md): every job on the remote lane — a remote seat's turn, an away
bot's health check — is theirs; a seat whose bot is away or gone is played by the autopilot."""
from __future__ import annotations

from typing import Any

from service.app import jobs, remote_bots
from service.app.context import AppContext
from service.app.plugins import Integrations
from service.games.kernel.due import Lane
from service.integrations.remote_bots.jobs import RemoteKind


def run(ctx: AppContext, payload: dict[str, Any]) -> str:
    """A remote-lane job; its bot away or gone, the autopilot plays the seat."""
    outcome = remote_bots.run(ctx, payload)
    if outcome == remote_bots.AUTOPILOT:
        return jobs.bot_turn(ctx, payload["game"], int(payload["seat"]), int(payload["opened_seq"]), autopilot=True)
    return outcome


def register(reg: Integrations) -> None:
    reg.register("remote_bots", jobs={RemoteKind.HEALTH: run}, lanes={Lane.REMOTE: run}, lane_names=[Lane.REMOTE])
