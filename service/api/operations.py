"""Each operation's human name (operationId) and the tokens it takes, in one table.

The tokens are the same bearer header; the spec names their kinds as separate schemes
(``seatToken``, ``ownerToken``, ``auditToken``) so that a generated client or a fuzzer learns which
token each operation needs. ``[]`` is no token; ``{}`` inside a list means a token is optional.
"""
from __future__ import annotations

import functools
from typing import Any

from flask import g

from service.api.codes import STORE_RETRY_AFTER_S
from service.api.refusals import RESPONSES as REFUSALS
from service.app.auth import Caller
from service.app.queries import viewer
from service.app.stream_slots import RETRY_AFTER_S as STREAM_RETRY_AFTER_S
from service.games import registry

SCHEMES: dict[str, dict[str, Any]] = {
    "seatToken": {"type": "http", "scheme": "bearer",
                  "description": "The token of a seat: returned once by takeSeat (`token`)."},
    "ownerToken": {"type": "http", "scheme": "bearer",
                   "description": "The owner's token: returned once by createGame (`owner_token`)."},
    "auditToken": {"type": "http", "scheme": "bearer",
                   "description": "An operator's audit token (configured on the server, MEOW_AUDIT_TOKENS)."},
    "apiKey": {"type": "apiKey", "in": "header", "name": "Meow-Key",
               "description": "An integrator's API key (docs/integrators.md), given by the operator: any operation "
                              "takes it (its requests count against the key's own quotas instead of the client "
                              "address's); the tables it creates are its own. A key that is not active: 401 "
                              "`key_invalid`."},
    "adminToken": {"type": "http", "scheme": "bearer",
                   "description": "The operator's admin token (MEOW_ADMIN_TOKEN; none configured: /v1/admin answers 404)."},
}
Requirement = dict[str, list[str]]  # one OpenAPI security requirement: scheme -> scopes
_SEAT: Requirement = {"seatToken": []}
_OWNER: Requirement = {"ownerToken": []}
_AUDIT: Requirement = {"auditToken": []}
_KEY: Requirement = {"apiKey": []}
_ADMIN: Requirement = {"adminToken": []}
NONE: list[Requirement] = []
ANYONE: list[Requirement] = [{}, _SEAT, _OWNER, _AUDIT]  # more with a token

SECURITY: dict[str, list[Requirement]] = {
    "listVariants": NONE, "createGame": [{}, _KEY], "listGames": NONE, "getGame": [*ANYONE, _KEY],  # a key: its players
    "takeSeat": [{}, _OWNER, _KEY], "leaveSeat": [_SEAT, _OWNER], "startGame": [_OWNER],
    "act": [_SEAT], "listActions": [_SEAT], "listEvents": ANYONE,
    "getHistory": [_SEAT, _OWNER, _AUDIT], "verifyGame": [_SEAT, _OWNER, _AUDIT], "getStateAt": ANYONE,
    "getHealth": NONE, "getReadiness": NONE, "getMetrics": NONE,
    # remote bots (service/api/bots.py): an API key's own
    "registerBot": [_KEY], "listBots": [_KEY], "getBot": [_KEY], "rotateBotSecret": [_KEY], "deleteBot": [_KEY],
    # API keys and private tables (service/api/admin.py, service/api/integrators.py)
    "getOwnKey": [_KEY], "listKeyGames": [_KEY], "rotateInvite": [_OWNER], "rotateSpectatorToken": [_OWNER],
    "createKey": [_ADMIN], "listKeys": [_ADMIN], "getKey": [_ADMIN], "rotateKey": [_ADMIN], "revokeKey": [_ADMIN],
    # players, rematch and quick play (service/api/players.py)
    "rematchGame": [_OWNER], "quickPlay": [{}, _KEY], "getPlayer": [_KEY], "getLeaderboard": [_KEY],
    # arenas (service/api/arenas.py): the key that owns them; the leaderboard is public
    "createArena": [_KEY], "listArenas": [_KEY], "getArena": [_KEY], "cancelArena": [_KEY], "cancelArenaPost": [_KEY],
    "listArenaGames": [_KEY], "streamArena": [_KEY], "getArenaLeaderboard": NONE,
}
"""operationId -> the tokens it takes (``[]``: none; ``{}`` in a list: a token is optional)."""


def _links(game_id: str, **more: str) -> dict[str, dict[str, Any]]:
    """OpenAPI links to the operations on one game; ``game_id`` is where the id comes from."""
    def link(op_id: str, description: str, **params: str) -> dict[str, Any]:
        return {"operationId": op_id, "parameters": {"game_id": game_id, **params}, "description": description}

    out = {
        "getGame": link("getGame", "the table's view (send the token you hold for your part)"),
        "takeSeat": link("takeSeat", "take a seat, or add a bot with the owner token"),
        "startGame": link("startGame", "deal the first round (owner token)"),
        "act": link("act", "one action of your seat (seat token)"),
        "listActions": link("listActions", "your legal actions now (seat token)"),
        "listEvents": link("listEvents", "the events as you may see them; long-poll or stream"),
        "getHistory": link("getHistory", "the full log once the game is finished"),
        "verifyGame": link("verifyGame", "re-check a finished game's shuffles and decisions"),
    }
    if "seat" in more:
        out["leaveSeat"] = link("leaveSeat", "leave the seat just taken (its token)", seat=more["seat"])
    return out


LINKS: dict[str, dict[int, dict[str, Any]]] = {
    # the id and the owner token come back from createGame; the seat and its token from takeSeat
    "createGame": {201: {"links": _links("$response.body#/id")}},
    "takeSeat": {201: {"links": _links("$request.path.game_id", seat="$response.body#/seat")}},
}


WRITES = {"createGame": 201, "takeSeat": 201, "leaveSeat": 200, "startGame": 200, "act": 200}
GUARDED = ("leaveSeat", "startGame", "act")  # If-Match applies
CREATES = {"createKey": 201, "quickPlay": 201, "rematchGame": 201, "registerBot": 201, "deleteBot": 204,
           "createArena": 202}
"""The success status of an operation that is no game write, when not 200."""
_HEADER_PARAMS = {
    "Idempotency-Key": {"name": "Idempotency-Key", "in": "header", "required": False,
                        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
                        "description": "a retry with the same key and body returns the first answer; "
                                       "without a token: a UUID or 22-255 characters of [A-Za-z0-9_-]"},
    "Prefer": {"name": "Prefer", "in": "header", "required": False, "schema": {"type": "string"},
               "description": "`return=minimal` (RFC 7240): the answer leaves out the view (`game`)",
               "example": "return=minimal"},
    "If-Match": {"name": "If-Match", "in": "header", "required": False,
                 "schema": {"type": "string", "pattern": r'^(\*|(W/)?"?[0-9]{1,16}"?)$'},
                 "description": "the version last seen, as its ETag (\"12\"): 412 if the game moved on",
                 "example": '"12"'},
}
_ETAG = {"description": "the game's version after this answer, quoted", "schema": {"type": "string"}}
_APPLIED = {"description": "`return=minimal` when the view was left out", "schema": {"type": "string"}}
VERSIONED = ("getGame", "listActions", "listEvents", "getHistory", "verifyGame", "getStateAt")


NO_STORE = "no-store"
PRIVATE = "private, no-cache"
PUBLIC = "no-cache"
REVEALS_ALL = frozenset(("getHistory",))
"""Reads that can carry every seat's hand whoever asks (a finished game's history)."""
KEYED = frozenset(("getOwnKey", "listKeyGames", "rotateInvite", "rotateSpectatorToken", "createKey", "listKeys",
                   "getKey", "rotateKey", "revokeKey",
                   "registerBot", "listBots", "getBot", "rotateBotSecret", "deleteBot",
                   # an arena's progress, its games' owner tokens (service/api/arenas.py)
                   "createArena", "listArenas", "getArena", "cancelArena", "cancelArenaPost", "listArenaGames",
                   "streamArena"))
"""Answers about an API key or a private table's hand-outs (a secret, a private table's listing), a key's remote
bots, its arenas."""
NOT_STORED = frozenset(("quickPlay", "rematchGame", "getPlayer", "getLeaderboard"))
"""More answers never stored: a new seat token, a key's own players."""
NEGOTIATED = frozenset(("listEvents", "getHistory"))
"""Operations whose body ``Accept`` chooses (JSON, server-sent events, NDJSON)."""


def cache_control(op_id: str, caller: Caller | None) -> str:
    """The ``Cache-Control`` of a successful answer of ``op_id`` to ``caller`` (None: no token),
    by what it can carry (api/headers.py sets it; every refusal is ``no-store``)."""
    if op_id in WRITES or op_id in REVEALS_ALL or op_id in KEYED or op_id in NOT_STORED:  # a token, a view, every hand
        return NO_STORE
    if caller is None or caller.role == "spectator":
        return PUBLIC
    if viewer(caller).seat is not None:  # the redaction shows this caller its seat's private parts
        return NO_STORE
    return PRIVATE


_CALLERS: dict[str, tuple[Caller, ...]] = {  # who may call with each scheme (an owner may hold a seat)
    "seatToken": (Caller("seat", 0),), "ownerToken": (Caller("owner"), Caller("owner", 0)),
    "auditToken": (Caller("audit"),), "apiKey": (), "adminToken": ()}


def cache_controls(op_id: str) -> list[str]:
    """Every ``Cache-Control`` a successful answer of ``op_id`` can carry, by its security."""
    if op_id in KEYED or op_id in NOT_STORED:
        return [NO_STORE]
    callers: list[Caller | None] = []
    for requirement in SECURITY[op_id] or [{}]:  # {}: no token
        callers += [c for scheme in requirement for c in _CALLERS[scheme]] if requirement else [None]
    return sorted({cache_control(op_id, c) for c in callers})


def takes_key(op_id: str) -> bool:
    """The operation's answer depends on the API key (its security lists ``apiKey``): a keyed view names
    the key's players, so it is never kept by a shared cache (api/headers.py)."""
    return any("apiKey" in requirement for requirement in SECURITY[op_id])


def vary(op_id: str) -> tuple[str, ...]:
    """What changes the body of ``op_id``'s answers besides the URL: the token, when it takes one;
    ``Accept``, when negotiated (``Accept-Encoding``: Flask-Compress adds it to what it may gzip)."""
    schemes = {scheme for requirement in SECURITY[op_id] for scheme in requirement}
    token = ("Authorization",) if schemes - {"apiKey"} else ()
    key = ("Meow-Key",) if "apiKey" in schemes else ()
    return (*token, *key, *(("Accept",) if op_id in NEGOTIATED else ()))


def _answer_headers(op_id: str) -> dict[str, Any]:
    controls = cache_controls(op_id)
    out: dict[str, Any] = {"Cache-Control": {
        "description": "`no-store`: the answer can carry a token or a seat's private parts; `private, no-cache`: "
                       "another read with a token; `no-cache`: a read without one (revalidate with the ETag)",
        "required": True, "schema": {"type": "string", "enum": controls}}}
    names = vary(op_id)
    if names:
        out["Vary"] = {"description": f"includes {', '.join(names)} (and Accept-Encoding when the body may be "
                                      "gzipped): what changes the body besides the URL",
                       "required": True, "schema": {"type": "string"}}
    return out


def problem_headers(status: int) -> dict[str, Any]:
    """The headers of the app's refusals (api/headers.py): never stored; 429 and 503 say when to retry."""
    out: dict[str, Any] = {"Cache-Control": {"description": "`no-store`: a refusal is never reused",
                                             "schema": {"type": "string", "enum": [NO_STORE]}}}
    if status in (429, 503):
        out["Retry-After"] = {"description": f"seconds to wait: until the rate limit's window resets, "
                                             f"{STREAM_RETRY_AFTER_S} for an event stream over its cap, "
                                             f"{STORE_RETRY_AFTER_S} while the event store is away",
                              "required": True, "schema": {"type": "string", "pattern": "^[0-9]+$"}}
    return out


STRONG_KEY = {**_HEADER_PARAMS["Idempotency-Key"], "schema": {
    "type": "string", "pattern": r"^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
                                 r"|[A-Za-z0-9_-]{22,255})$"}}
ANONYMOUS = ("createGame", "takeSeat")  # without a token the key guards the token returned


def _doc(op_id: str) -> dict[str, Any]:
    responses: dict[int, dict[str, Any]] = {}
    for status, extra in LINKS.get(op_id, {}).items():
        responses[status] = dict(extra)
    params: list[dict[str, Any]] = []
    if op_id in WRITES:
        params += [STRONG_KEY if op_id in ANONYMOUS else _HEADER_PARAMS["Idempotency-Key"], _HEADER_PARAMS["Prefer"]]
        if op_id in GUARDED:
            params.append(_HEADER_PARAMS["If-Match"])
        ok = responses.setdefault(WRITES[op_id], {})
        ok["headers"] = {"ETag": _ETAG, "Preference-Applied": _APPLIED}
    elif op_id in VERSIONED:
        responses.setdefault(200, {})["headers"] = {"ETag": _ETAG}
    if op_id in RECORD_GUARDED:  # a credential record's change (service/app/credentials.py)
        params.append(_RECORD_IF_MATCH)
        if CREATES.get(op_id, 200) != 204:  # a deleted bot has no version left to tag
            responses.setdefault(CREATES.get(op_id, 200), {})["headers"] = {"ETag": _RECORD_ETAG}
    ok = responses.setdefault(WRITES.get(op_id, CREATES.get(op_id, 200)), {})
    ok["headers"] = {**ok.get("headers", {}), **_answer_headers(op_id)}
    out: dict[str, Any] = {"operationId": op_id, "security": SECURITY[op_id]}
    if responses:
        out["responses"] = responses
    if params:
        out["parameters"] = params
    return out


def operation(blp: Any, op_id: str) -> Any:
    """The decorator naming a route method's operation, its tokens, headers and links (a KeyError
    if the operation is unlisted), and the HTTP server's refusals that any request may meet
    (components/responses, api/refusals.py)."""
    decorators = [blp.doc(**_doc(op_id))] + [blp.alt_response(r.example.status, r.name) for r in REFUSALS]

    def wrap(fn: Any) -> Any:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            g.meow_operation = op_id  # what api/headers.py says of the answer depends on it
            return fn(*args, **kwargs)

        for decorate in decorators:
            run = decorate(run)
        return run
    return wrap


def _ex(summary: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"summary": summary, "value": value}


def _create_examples() -> dict[str, dict[str, Any]]:
    """One table per game, from the registry (a new game brings its own example), and overrides."""
    out = {v: _ex(f"a {v} table", {"variant": v, "max_players": g.preset_defaults(v)["max_players"],
                                   "name": "Friday"})
           for g in registry.GAMES for v in g.variants[:1]}
    out["options"] = _ex("with option overrides (each variant's options: listVariants)",
                         {"variant": registry.GAMES[0].variants[0], "options": {"turn_timeout_s": 30}})
    out["private"] = _ex("a private table of the API key sent in Meow-Key: unlisted, joined with its invite code",
                         {"variant": registry.GAMES[0].variants[0], "private": True})
    return out


EXAMPLES: dict[str, dict[str, dict[str, Any]]] = {
    "createGame": _create_examples(),
    "takeSeat": {
        "human": _ex("take a seat (anyone; with the owner token it is the owner's own)", {"name": "Ann"}),
        "bot": _ex("add a bot (owner token)", {"bot": {"strength": "medium"}}),
        "player": _ex("take a seat for one of the API key's players (Meow-Key header)", {"name": "Ann", "player": "user-1842"}),
        "remote": _ex("seat a registered remote bot (owner token, and the bot's API key in Meow-Key)",
                      {"bot": {"remote": "b1a2b3c4d5e6f"}}),
        "invite": _ex("take a seat at a private table with its invite code", {"name": "Ann",
                                                                               "invite": "Xq2n8EXAMPLEinviteCode"}),
    },
    "createKey": {
        "default": _ex("a key with the server's default quotas for keys", {"name": "acme portal"}),
        "quotas": _ex("a key with quotas of its own", {"name": "acme portal", "quotas": {
            "creates_per_minute": 1200, "reads_per_minute": 60000}}),
    },
    "quickPlay": {
        "public": _ex("a seat at any open public table", {"variant": registry.GAMES[0].variants[0], "name": "Ann"}),
        "player": _ex("with an API key: at the key's own tables, for one of its players",
                      {"variant": registry.GAMES[0].variants[0], "name": "Ann", "player": "user-1842"}),
    },
    "registerBot": {
        "bot": _ex("a bot that plays two variants (GET /v1/variants)",
                   {"name": "Felix", "url": "https://bots.example.com/meow", "games": list(registry.GAMES[0].variants[:2])}),
    },
    "act": {
        "play": _ex("play a card", {"type": "play", "card": "7H:0"}),
        "wild": _ex("play a wild jack and call a suit, announcing the last card",
                    {"type": "play", "card": "JS:1", "called_suit": "H", "announce": True}),
        "draw": _ex("draw, guarded by the version last seen", {"type": "draw", "expected_version": 42}),
        "pass": _ex("pass", {"type": "pass"}),
        "take_penalty": _ex("take the pending sevens", {"type": "take_penalty"}),
        "accept_skip": _ex("accept the skip", {"type": "accept_skip"}),
        "announce": _ex("announce the last card", {"type": "announce"}),
        "challenge": _ex("catch seat 2, who has not announced his last card (challenge mode)",
                         {"type": "challenge", "target": 2}),
        "pass_card": _ex("pass a cat of kind k2 in step 4", {"type": "pass_card", "kind": "k2", "step": 4}),
        "slap": _ex("slap, having seen step 4", {"type": "slap", "seen_step": 4}),
    },
}
"""Request body examples of every operation that takes a body (shown by the docs and fuzzers)."""


# webhooks (service/api/webhooks.py): every operation takes the API key; answers carry a signing
# secret or the key's own deliveries (never kept by a cache)
WEBHOOK_OPERATIONS = ("createWebhook", "listWebhooks", "deleteWebhook", "rotateWebhookSecret", "enableWebhook",
                      "listWebhookDeliveries", "replayWebhookDelivery")
SECURITY.update({op: [_KEY] for op in WEBHOOK_OPERATIONS})
KEYED = KEYED | frozenset(WEBHOOK_OPERATIONS)
CREATES.update({"createWebhook": 201, "replayWebhookDelivery": 202})
EXAMPLES["createWebhook"] = {
    "ended": _ex("learn of every finished game", {"url": "https://portal.example/meow/hooks", "events": ["match.ended"]}),
    "all": _ex("every table event, described", {
        "url": "https://portal.example/meow/hooks", "description": "leaderboard",
        "events": ["match.started", "round.scored", "match.ended", "seat.joined", "seat.left", "turn.timed_out"]}),
}


# credential records (service/app/credentials.py): an API key, a remote bot, a webhook endpoint (and an
# arena, for its cancel) carry a version and change by compare-and-set; each has an audit log
RECORD_GUARDED = ("rotateKey", "revokeKey", "rotateBotSecret", "deleteBot", "rotateWebhookSecret", "deleteWebhook",
                  "enableWebhook", "cancelArena", "cancelArenaPost")
"""Changes of a versioned record: If-Match applies (a stale one: 412 ``version_conflict``)."""
RECORD_LOGS = ("getKeyLog", "getBotLog", "getWebhookLog")
SECURITY.update({"getKeyLog": [_ADMIN], "getBotLog": [_KEY], "getWebhookLog": [_KEY]})
KEYED = KEYED | frozenset(RECORD_LOGS)
_RECORD_IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
                    "schema": {"type": "string", "pattern": r'^(\*|(W/)?"?[0-9]{1,16}"?)$'},
                    "description": "the record's version last seen, as its ETag (\"3\"): 412 `version_conflict` if "
                                   "it changed since", "example": '"3"'}
_RECORD_ETAG = {"description": "the record's version after this answer, quoted", "schema": {"type": "string"}}
