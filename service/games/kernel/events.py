"""Event types and their schema versions (DESIGN rule 4, RULES §2.9), per game.

Wire names stay as they are: both games write ``CardsDealt``, ``RoundStarted`` and
``RoundEnded``, with different payloads, so a schema version and an upcaster belong to a
(game, type, version), never to a type alone. The table events every game writes are listed once
here; each game adds its own (its package's ``EVENT_TYPES``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TABLE_EVENTS: Mapping[str, int] = {
    "MatchCreated": 1, "SeatJoined": 1, "SeatLeft": 1, "RoundStarted": 1, "ShuffleCommitted": 1,
    "CardsDealt": 1, "RoundEnded": 1, "RoundScored": 1, "MatchEnded": 1, "SeedsRevealed": 1,
    "TimedOut": 1,
}
"""Written by every game (their payloads may still differ by game)."""
END_OF_MATCH = "SeedsRevealed"
"""The last event of every match (after MatchEnded): a feed ends on it (GET /v1/variants
``end_event``, docs/clients.md)."""

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Rewrites one stored body of (game, type, version v) into version v + 1."""


def with_table_events(own: Mapping[str, int]) -> dict[str, int]:
    """A game's full table: the table events plus its own (a clash is a bug)."""
    clash = set(TABLE_EVENTS) & set(own)
    if clash:
        raise ValueError(f"event types listed twice: {sorted(clash)}")
    return {**TABLE_EVENTS, **own}
