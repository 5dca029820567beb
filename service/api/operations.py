"""Each operation's human name (operationId) and the tokens it takes, in one table.

The tokens are the same bearer header; the spec names their kinds as separate schemes
(``seatToken``, ``ownerToken``, ``auditToken``) so that a generated client or a fuzzer learns which
token each operation needs. ``[]`` is no token; ``{}`` inside a list means a token is optional.
"""
from __future__ import annotations

from typing import Any

SCHEMES: dict[str, dict[str, Any]] = {
    "seatToken": {"type": "http", "scheme": "bearer",
                  "description": "The token of a seat: returned once by takeSeat (`token`)."},
    "ownerToken": {"type": "http", "scheme": "bearer",
                   "description": "The owner's token: returned once by createGame (`owner_token`)."},
    "auditToken": {"type": "http", "scheme": "bearer",
                   "description": "An operator's audit token (configured on the server, MEOW_AUDIT_TOKENS)."},
}
_SEAT, _OWNER, _AUDIT = {"seatToken": []}, {"ownerToken": []}, {"auditToken": []}
NONE: list[dict[str, list[str]]] = []
ANYONE = [{}, _SEAT, _OWNER, _AUDIT]  # more with a token

SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "listVariants": NONE, "createGame": NONE, "listGames": NONE, "getGame": ANYONE,
    "takeSeat": [{}, _OWNER], "leaveSeat": [_SEAT, _OWNER], "startGame": [_OWNER],
    "act": [_SEAT], "listActions": [_SEAT], "listEvents": ANYONE,
    "getHistory": [_SEAT, _OWNER, _AUDIT], "verifyGame": [_SEAT, _OWNER, _AUDIT], "getStateAt": ANYONE,
    "getHealth": NONE, "getReadiness": NONE, "getMetrics": NONE,
}
"""operationId -> the tokens it takes (``[]``: none; ``{}`` in a list: a token is optional)."""


def operation(blp: Any, op_id: str) -> Any:
    """The decorator naming a route method's operation and its tokens (a KeyError if unlisted)."""
    return blp.doc(operationId=op_id, security=SECURITY[op_id])
