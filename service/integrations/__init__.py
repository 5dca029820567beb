"""The integrations: features that plug into the table core through one registration point
(service/app/plugins.py) rather than being named by it — players (with ratings), webhooks, private
tables, quick play and remote bots register hooks, job kinds and lanes here. ``register_all`` is the
list the composition root (service/wiring.py) plugs in; adding one is a package and one line below
(docs/adding-an-integration.md)."""
from __future__ import annotations

from service.app.plugins import Integrations


def register_all(reg: Integrations) -> Integrations:
    """Every integration of the service, in the order their append hooks run."""
    from service.integrations import players, private_tables, quickplay, remote_bots, webhooks

    players.register(reg)  # a finished game's players' records: its job written with the last events
    webhooks.register(reg)  # a key's table: its deliveries' job written with the events; the hooks lane
    private_tables.register(reg)  # a private table is in no public lobby
    quickplay.register(reg)  # a quick-play table's wait over: bots fill it
    remote_bots.register(reg)  # a remote bot's turns and health checks: the remote lane
    return reg
