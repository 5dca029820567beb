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

SEEDS_REVEALED = "SeedsRevealed"
"""§2.3: the event that reveals the match seed and every shuffle seed."""
MATCH_OVER = SEEDS_REVEALED
"""The end-of-match event, the one owner of its name: the last event of every match (§2.8 step 3:
``MatchEnded`` with the standings, then the seeds revealed). A feed ends on it, and so does a
client (or on a view whose status is ``finished``); GET /v1/variants names it (``match_over``)."""

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Rewrites one stored body of (game, type, version v) into version v + 1."""


def with_table_events(own: Mapping[str, int]) -> dict[str, int]:
    """A game's full table: the table events plus its own (a clash is a bug)."""
    clash = set(TABLE_EVENTS) & set(own)
    if clash:
        raise ValueError(f"event types listed twice: {sorted(clash)}")
    return {**TABLE_EVENTS, **own}
