"""The players' job: its kind (stored in the due set and RQ: never changes) and its job id."""
from __future__ import annotations

from enum import StrEnum

from service.eventstore.contract import FollowUp


class PlayersKind(StrEnum):
    PLAYERS = "players"  # a finished game counted in its players' records (service/app/players.py)


def players_job(game_id: str, due_at: int) -> FollowUp:
    """A finished game counted in its players' records (service/app/players.py), once."""
    return FollowUp(f"{PlayersKind.PLAYERS}-{game_id}", due_at,
                    {"kind": PlayersKind.PLAYERS, "game": game_id, "key": "final"})
