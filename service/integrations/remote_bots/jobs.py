"""The remote bots' own job, an away bot's health check: its kind (stored in the due set and RQ:
never changes) and its job id. A remote seat's turn is a bot turn (the kernel's ``Kind.BOT``) on the
kernel's remote lane (service/app/followups.py ``remote_turn``)."""
from __future__ import annotations

from enum import StrEnum

from service.eventstore.contract import FollowUp
from service.games.kernel.due import Lane


class RemoteKind(StrEnum):
    HEALTH = "health"  # a remote bot's health check, while it is away (service/app/remote_bots.py)


def health_check(bot_id: str, due_at: int) -> FollowUp:
    """An away remote bot's next health check, on the remote lane; its id (a hex digit first) names
    the due set's shard, as a game id does."""
    return FollowUp(f"{RemoteKind.HEALTH}-{bot_id}-{due_at}", due_at,
                    {"kind": RemoteKind.HEALTH, "game": bot_id, "key": bot_id, "lane": Lane.REMOTE})
