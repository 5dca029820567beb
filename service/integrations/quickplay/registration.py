"""Quick play (docs/integrators.md): a quick-play table's wait for humans over, bots fill it."""
from __future__ import annotations

from typing import Any

from service.app import quickplay
from service.app.context import AppContext
from service.app.plugins import Integrations
from service.integrations.quickplay.jobs import QuickplayKind


def fill(ctx: AppContext, payload: dict[str, Any]) -> str:
    return quickplay.fill_with_bots(ctx, payload["game"])


def register(reg: Integrations) -> None:
    reg.register("quickplay", jobs={QuickplayKind.QUICKPLAY: fill})
