"""What the credential records share (the house rule "every changeable record is versioned"): API keys
(service/app/api_keys.py), remote bots (service/app/remote_bots.py) and webhook endpoints
(service/app/webhooks.py) each carry a ``version`` (1 when created, one more with each change) and
change by compare-and-set in one store call (service/eventstore/versioned.py): of two concurrent
changes made from the same version, one succeeds and the other answers 409 ``version_conflict`` with
the version now held (412 when the caller sent that version as If-Match, as for games:
docs/http-contract.md). Revoking a key and deleting a bot or an endpoint are final. Every change is
appended, by the same store call, to the record's audit log: when, what, the version it made, and
who (``admin`` or the key's id) — never a secret or a hash; the last ``LOG_KEEP`` entries are kept."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from service.app.codes import AppCode
from service.app.errors import AppError
from service.app.idempotency import Precondition

LOG_KEEP = 100
"""A record's audit log keeps its last this many changes (the spec's description says so)."""
ACTIONS = ("created", "rotated", "revoked", "deleted", "enabled", "disabled")
ADMIN = "admin"
"""Who made a change through the admin API (an API key's own changes name the key's id)."""
DELIVERIES = "deliveries"
"""Who disabled a webhook endpoint after deliveries given up in a row."""
RETRIES = 16
"""How often a change that needs only a state (revoke, the deliveries' disable) reads again after
another change came first."""


def entry(at_ms: int, action: str, version: int, by: str) -> bytes:
    """One audit log entry, as stored."""
    assert action in ACTIONS, action
    return orjson.dumps({"at": int(at_ms), "action": action, "version": int(version), "by": by})


def log(raws: Iterable[bytes]) -> list[dict[str, Any]]:
    """Stored entries as the log endpoints show them (newest first, as stored)."""
    out = []
    for raw in raws:
        rec = orjson.loads(raw)
        out.append({"at": int(rec["at"]), "action": str(rec["action"]), "version": int(rec["version"]),
                    "by": str(rec["by"])})
    return out


def etag(version: int) -> str:
    return f'"{int(version)}"'


def conflict(what: str, current: int, pre: Precondition | None) -> AppError:
    """409 ``version_conflict`` (412 for a stale If-Match) with the version now held, as body and ETag."""
    return AppError(AppCode.VERSION_CONFLICT, f"the {what} is at version {current}: read it again",
                    headers={"ETag": etag(current)}, precondition=pre.source if pre else None, version=current)


def expect(what: str, current: int, pre: Precondition | None) -> None:
    """Refuse a change made from another version than the record's (If-Match)."""
    if pre is not None and pre.version != current:
        raise conflict(what, current, pre)
