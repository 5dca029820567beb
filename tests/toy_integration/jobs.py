"""The tally's job: its kind (a stored string: never changes) and its job id."""
from __future__ import annotations

from enum import StrEnum

from service.eventstore.contract import FollowUp


class TallyKind(StrEnum):
    TALLY = "tally"  # a new table counted


def tally_job(game_id: str, due_at: int) -> FollowUp:
    return FollowUp(f"{TallyKind.TALLY}-{game_id}", due_at, {"kind": TallyKind.TALLY, "game": game_id, "key": "new"})
