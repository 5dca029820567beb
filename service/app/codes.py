"""The application's own domain codes (the rules' are the kernel's and each game's); the API maps
each to its HTTP status in service/api/codes.py."""
from __future__ import annotations

from service.games.kernel.codes import DomainCode


class AppCode(DomainCode):
    """Refusals the application raises itself: credentials, versions, idempotency, stored games."""

    BOT_LIMIT = "bot_limit"  # this API key has as many registered remote bots as allowed
    BOTS_ONLY_LIMIT = "bots_only_limit"  # this owner or address runs as many bots-only tables as allowed
    FORBIDDEN = "forbidden"
    GAME_CORRUPTED = "game_corrupted"  # a stored event cannot be read or applied
    GAME_EXISTS = "game_exists"
    GAME_RUNNING = "game_running"  # verified or archived only once finished
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INVITE_INVALID = "invite_invalid"  # a join's invite code is no table's (a private table's is rotated)
    KEY_INVALID = "key_invalid"  # a Meow-Key that is malformed, unknown, rotated away or revoked
    KEY_REQUIRED = "key_required"  # this needs a Meow-Key (a private table, the key's own lobby)
    KEY_REVOKED = "key_revoked"  # a revoked API key is not rotated back to life
    NOT_PRIVATE = "not_private"  # an invite code or spectator token asked of a public table
    WEBHOOK_LIMIT = "webhook_limit"  # the key has as many webhooks as it may (delete one first)
    WEBHOOK_URL_REFUSED = "webhook_url_refused"  # a URL the outbound client would not request (its reason)
    RATE_LIMITED = "rate_limited"
    TOO_MANY_KEYS = "too_many_keys"  # the operator's cap on API keys (MEOW_MAX_API_KEYS) is reached
    UNAUTHORIZED = "unauthorized"
    URL_REFUSED = "url_refused"  # a remote bot's URL the outbound client would not call (private, malformed)
    VERSION_CONFLICT = "version_conflict"
    ARENA_LIMIT = "arena_limit"  # this key runs as many arenas as allowed (docs/arenas.md)
    ARENA_RUNNING = "arena_running"  # an arena's games are read only once the arena has ended
    QUICKPLAY_LIMIT = "quickplay_limit"  # this address holds its seats at every open public quick-play table
