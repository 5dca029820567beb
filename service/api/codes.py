"""The one table from a domain code to its HTTP status (the rules and the application raise codes
only; this is the edge), and the edge's own codes. Every code is declared once, as a member of a
``DomainCode`` enum (service/games/kernel/codes.py); ``DECLARED`` collects them all: the rules'
through the registry, the application's and the API's. tests/test_error_codes.py checks that each
declared code has a status here and each status here is for a declared code; an unlisted code
would answer 500 ``internal_error`` rather than guess."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from service.app.codes import AppCode
from service.games import registry
from service.games.kernel.codes import DomainCode, KernelCode, is_retry_later


class ApiCode(DomainCode):
    """Refusals of the HTTP edge itself (the request as sent, the server's own state)."""

    CONFLICT = "conflict"  # a werkzeug 409 with no domain code of its own
    HTTP_ERROR = "http_error"  # a werkzeug error whose status has no code: it keeps that status
    INTERNAL_ERROR = "internal_error"
    INVALID_JSON = "invalid_json"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_READY = "not_ready"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    STORE_UNAVAILABLE = "store_unavailable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    WEAK_IDEMPOTENCY_KEY = "weak_idempotency_key"
    # refused by the HTTP server before the app runs (service/api/refusals.py, service/serving.py)
    MALFORMED_REQUEST = "malformed_request"
    URI_TOO_LONG = "uri_too_long"
    HEADERS_TOO_LARGE = "headers_too_large"
    EXPECTATION_FAILED = "expectation_failed"
    NOT_IMPLEMENTED = "not_implemented"
    REQUEST_TIMEOUT = "request_timeout"  # the headers or the body did not arrive in time
    TOO_MANY_CONNECTIONS = "too_many_connections"  # over the open connections per address or prefix
    # refused by the reverse proxy in front (deploy/nginx/meow.conf): the API did not answer
    BAD_GATEWAY = "bad_gateway"
    GATEWAY_TIMEOUT = "gateway_timeout"


DECLARED: tuple[type[DomainCode], ...] = (*registry.CODES, AppCode, ApiCode)
"""Every code the service can answer with, by its declaring enum (the rules', the app's, the edge's)."""

_BY_STATUS: dict[int, tuple[str, ...]] = {  # the kernel's, the app's, the edge's (a game's own: _GAMES_OWN)
    400: ("invalid_json", "malformed_request"),  # malformed_request: refused by the HTTP server (api/refusals.py)
    401: ("unauthorized", "key_invalid", "key_required"),
    403: ("forbidden", "not_a_player"),
    404: ("not_found", "invite_invalid"),
    405: ("method_not_allowed",),
    408: ("request_timeout",),
    409: (  # a legal request at the wrong moment: retry after reading the game again
        "already_challenged", "already_exists", "already_seated", "already_started", "announce_grace",
        "conflict", "game_exists", "game_running", "game_full", "joining_closed", "key_revoked", "match_over",
        "not_enough_players", "not_private", "not_started", "not_your_turn", "nothing_to_do", "seat_left",
        "too_many_keys", "version_conflict",
        "window_closed", "wrong_phase", "webhook_limit", "bot_limit", "arena_running",
    ),
    413: ("payload_too_large",),
    414: ("uri_too_long",),
    415: ("unsupported_media_type",),
    417: ("expectation_failed",),
    422: (  # never legal as sent
        "card_not_in_hand", "idempotency_key_reused", "illegal_action", "illegal_card",
        "invalid_action", "invalid_option", "invalid_request", "invalid_suit",
        "must_choose_suit", "unknown_variant", "weak_idempotency_key", "webhook_url_refused", "url_refused",
    ),
    429: ("rate_limited", "too_many_connections", "bots_only_limit", "arena_limit", "quickplay_limit"),
    431: ("headers_too_large",),
    500: ("internal_error", "game_corrupted", "http_error"),
    501: ("not_implemented",),
    502: ("bad_gateway",),
    503: ("not_ready", "store_unavailable"),
    504: ("gateway_timeout",),
}
_GAMES_OWN = {c: 409 if is_retry_later(c) else 422
              for cls in registry.CODES if cls is not KernelCode for c in cls}
"""A game's own codes (its codes.py): 409 where it marked them ``retry_later``, else 422."""
STATUS: Mapping[str, int] = MappingProxyType(
    {**{c: s for s, codes in _BY_STATUS.items() for c in codes}, **{str(c): s for c, s in _GAMES_OWN.items()}})
STORE_RETRY_AFTER_S = 1
# refusals answered 429 that carry no Retry-After, because no delay is true for them: a connection
# over the cap may retry as soon as one of its own connections closes, and a bots-only table over
# its cap when one of the owner's bots-only matches ends (docs/reliability.md)
NO_RETRY_AFTER: frozenset[str] = frozenset(("too_many_connections", "bots_only_limit", "arena_limit", "quickplay_limit"))
"""``Retry-After`` of the 503s (``store_unavailable``, ``not_ready``): Redis is away, try again soon."""
PRECONDITION_FAILED = 412  # a stale If-Match (RFC 9110 §13.1.1); the same code from a body is 409


def status_of(code: str, precondition: str | None = None) -> int:
    """The HTTP status of a domain code (500 for a code nobody listed)."""
    if code == AppCode.VERSION_CONFLICT and precondition == "if_match":
        return PRECONDITION_FAILED
    return STATUS.get(code, 500)
