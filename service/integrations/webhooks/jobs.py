"""The webhooks' jobs: their kinds (stored in the due set and RQ: never change) and job ids. They run
on the kernel's hooks lane (service/games/kernel/due.py ``Lane.HOOKS``)."""
from __future__ import annotations

from enum import StrEnum
from typing import Any

from service.eventstore.contract import FollowUp
from service.games.kernel.due import Lane


class HookKind(StrEnum):
    HOOK = "hook"  # the webhook deliveries an append calls for (service/app/webhook_jobs.py)
    HOOK_SEND = "hooksend"  # one attempt of one webhook delivery


def hook_fan_out(game_id: str, first: int, last: int, due_at: int, owner: str | None = None) -> FollowUp:
    """The webhook deliveries events ``first``..``last`` of a game call for (service/app/webhook_jobs.py),
    on the hooks lane; written by the append with the events. ``owner``: the table's API key (the hooks
    lane shares its threads across keys by it)."""
    payload: dict[str, Any] = {"kind": HookKind.HOOK, "game": game_id, "key": f"{first}-{last}", "lane": Lane.HOOKS,
                               "first": first, "last": last}
    if owner is not None:
        payload["owner"] = owner
    return FollowUp(f"{HookKind.HOOK}-{game_id}-{first}", due_at, payload)


def hook_send(delivery_id: str, route: str, owner: str, attempt: int, due_at: int, tag: str = "",
              timeout_s: float | None = None) -> FollowUp:
    """Attempt ``attempt`` of one webhook delivery of ``owner`` (an API key), on the hooks lane, in the due set
    of ``route``'s shard; ``tag`` tells apart another job for the same attempt (held back, replayed);
    ``timeout_s``: its job timeout (the dispatcher's, when shorter than the lease)."""
    payload: dict[str, Any] = {"kind": HookKind.HOOK_SEND, "game": route, "key": delivery_id, "owner": owner,
                               "attempt": attempt, "lane": Lane.HOOKS}
    if timeout_s is not None:
        payload["timeout_s"] = timeout_s
    return FollowUp(f"{HookKind.HOOK_SEND}-{delivery_id}-{attempt}{tag}", due_at, payload)
