"""The players port: per owner (an API key's id) and variant, each player's record (games, wins,
rating: an opaque JSON blob the application writes) and a leaderboard by one score, updated once
per finished game (service/app/players.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Players(Protocol):
    def player_get(self, owner: str, variant: str, refs: list[str]) -> list[bytes | None]:
        """Each player's record (None for a player with no recorded game), in the order asked."""
        ...

    def player_page(self, owner: str, variant: str, offset: int, limit: int) -> list[tuple[str, bytes]]:
        """Up to ``limit`` players from rank ``offset`` on, best score first (equal scores by ref,
        descending), with their records."""
        ...

    def player_count(self, owner: str, variant: str) -> int:
        """How many players the owner has in this variant."""
        ...

    def player_record(self, owner: str, variant: str, game_id: str, expected: Mapping[str, bytes | None],
                      new: Mapping[str, tuple[bytes, float]], at: int, keep_games: int) -> str:
        """Count a finished game once: "ok" when every player's record is still ``expected`` (None:
        none yet) and the game was not counted, each then replaced by ``new`` (record, score), all at
        once; "duplicate" when the game was counted before (one of the newest ``keep_games`` counted);
        "conflict" when a record changed meanwhile (nothing written: read again and retry)."""
        ...
