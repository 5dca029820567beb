"""The one table from a domain code to its HTTP status (the rules and the application raise codes
only; this is the edge). A code missing here is a bug: tests check that every code the service
can raise is listed, and an unlisted code would answer 500 ``internal_error`` rather than guess."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_BY_STATUS: dict[int, tuple[str, ...]] = {
    400: ("invalid_json", "malformed_request"),  # malformed_request: refused by the HTTP server (api/refusals.py)
    401: ("unauthorized",),
    403: ("forbidden", "not_a_player"),
    404: ("not_found",),
    405: ("method_not_allowed",),
    409: (  # a legal request at the wrong moment: retry after reading the game again
        "already_exists", "already_passed", "already_seated", "already_started", "announce_grace",
        "conflict", "game_exists", "game_full", "game_running", "joining_closed", "match_over",
        "not_enough_players", "not_started", "not_your_turn", "nothing_to_do", "race_closed",
        "seat_left", "version_conflict", "wrong_phase", "wrong_step",
    ),
    413: ("payload_too_large",),
    414: ("uri_too_long",),
    415: ("unsupported_media_type",),
    417: ("expectation_failed",),
    422: (  # never legal as sent
        "card_not_in_hand", "idempotency_key_reused", "illegal_action", "illegal_card",
        "invalid_action", "invalid_option", "invalid_request", "invalid_seen_step", "invalid_suit",
        "kind_not_in_hand", "must_choose_suit", "unknown_variant", "weak_idempotency_key",
    ),
    429: ("rate_limited",),
    431: ("headers_too_large",),
    500: ("internal_error", "game_corrupted"),
    501: ("not_implemented",),
    503: ("not_ready", "store_unavailable"),
}
STATUS: Mapping[str, int] = MappingProxyType({c: s for s, codes in _BY_STATUS.items() for c in codes})
PRECONDITION_FAILED = 412  # a stale If-Match (RFC 9110 §13.1.1); the same code from a body is 409


def status_of(code: str, precondition: str | None = None) -> int:
    """The HTTP status of a domain code (500 for a code nobody listed)."""
    if code == "version_conflict" and precondition == "if_match":
        return PRECONDITION_FAILED
    return STATUS.get(code, 500)
