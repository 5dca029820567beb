"""Per-table integration data: the store-side ``meta:*`` fields of a table's token hash (written by
the append that creates the table, or by a later one, and gone with the table; never in an answer).
The one module that names them (tests/test_integration_layer.py checks no other spells ``meta:``):
each field is a member of ``Meta``, with the integration that owns it; a field per seat or per
address is built by ``player`` or ``held``. The store writes them under ``META``
(service/eventstore/ports/tokens.py)."""
from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from service.eventstore.ports import Tokens
from service.eventstore.ports.tokens import META


class Meta(StrEnum):
    """The fields, by their stored names (never change)."""

    KEY = "key"  # the API key that created the table (keys; read by webhooks and rematch)
    PRIVATE = "private"  # a private table (private tables)
    INVITE = "invite"  # the SHA-256 of its invite code
    WATCH = "watch"  # the SHA-256 of its spectator token
    OWNER = "owner"  # the creator's network, hashed (fair shares: the dispatcher's search line)
    ADDRESS = "addr"  # the creator's address, hashed
    SEARCH = "search"  # a bots-only table's search slots (fair shares)
    ARENA = "arena"  # the arena a game is played for (arenas)
    PLAYERS = "players"  # set once any of its seats carries a player (players)
    QUICKPLAY = "quickplay"  # a quick-play table's scope (quick play)


def field(name: Meta | str) -> str:
    """The token-hash field of ``name``."""
    return META + name


def player(seat: int) -> str:
    """The field naming the player (key and ref) a seat carries (players)."""
    return f"{META}player:{seat}"


def held(who: str) -> str:
    """The field counting the seats an address (hashed) holds at a quick-play table (quick play)."""
    return f"{META}qp:{who}"


def get(tokens: Tokens, game_id: str, name: Meta) -> bytes | None:
    """One field of the table (one read, as ever)."""
    return tokens.token_get(game_id, field(name))


def fields(values: Mapping[Meta, bytes]) -> dict[str, bytes]:
    """Token records that write these fields with an append."""
    return {field(name): value for name, value in values.items()}
