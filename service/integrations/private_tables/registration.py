"""Private tables (docs/integrators.md): a private table is in no public lobby."""
from __future__ import annotations

from collections.abc import Mapping

from service.app import private_tables, table_meta
from service.app.context import AppContext
from service.app.plugins import Integrations


def unlisted(ctx: AppContext, game_id: str, new_game: bool, tokens: Mapping[str, bytes]) -> bool:
    """A new table is private when its creation writes the flag; another's flag is read (cached)."""
    if new_game:
        return table_meta.field(private_tables.PRIVATE) in tokens
    return private_tables.is_private(ctx, game_id, exists=True)


def register(reg: Integrations) -> None:
    reg.register("private_tables", unlisted=[unlisted])
