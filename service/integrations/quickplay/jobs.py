"""Quick play's job: its kind (stored in the due set and RQ: never changes) and its job id."""
from __future__ import annotations

from enum import StrEnum

from service.eventstore.contract import FollowUp


class QuickplayKind(StrEnum):
    QUICKPLAY = "quickplay"  # a quick-play table's wait for humans over: bots fill it (service/app/quickplay.py)


def quickplay_job(game_id: str, due_at: int) -> FollowUp:
    """A quick-play table's wait for humans over (service/app/quickplay.py): bots fill it and it starts."""
    return FollowUp(f"{QuickplayKind.QUICKPLAY}-{game_id}", due_at,
                    {"kind": QuickplayKind.QUICKPLAY, "game": game_id, "key": "wait"})
