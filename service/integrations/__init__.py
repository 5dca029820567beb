"""The integrations: features that plug into the table core through one registration point
(service/app/plugins.py) rather than being named by it. Each is a package here whose
``registration.py`` has ``register(reg)``; ``PLUGGED`` below lists them, one line each, in the order
their append hooks run. The composition root (service/wiring.py) calls ``register_all`` once; adding
an integration is a package and one line, removing it is deleting both
(docs/adding-an-integration.md)."""
from __future__ import annotations

import importlib

from service.app.plugins import Integrations

PLUGGED: tuple[str, ...] = (
    "players",  # a finished game's players' records: its job written with the last events
    "webhooks",  # a key's table: its deliveries' job written with the events; the hooks lane
    "private_tables",  # a private table is in no public lobby
    "quickplay",  # a quick-play table's wait over: bots fill it
    "remote_bots",  # a remote bot's turns and health checks: the remote lane
)


def register_all(reg: Integrations) -> Integrations:
    """Every integration of ``PLUGGED``, registered in order."""
    for name in PLUGGED:
        importlib.import_module(f"{__name__}.{name}.registration").register(reg)
    return reg
