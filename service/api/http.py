"""Small request/response helpers shared by the routes: tokens, preconditions, idempotency, JSON."""
from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import orjson
from flask import Response, current_app, request, stream_with_context

from service.api.client import client_address, client_prefix
from service.api.codes import ApiCode
from service.api.headers import caller_seen
from service.app.auth import Caller
from service.app.codes import AppCode
from service.app.errors import AppError
from service.app.feeds import FeedHub
from service.app.games import GameService, Idempotency, Origin, Precondition
from service.app.stream_slots import StreamSlots
from service.games.kernel.codes import KernelCode
from service.settings import Settings

GAME_ID = re.compile(r"[0-9a-f]{16}")
ETAG = re.compile(r'^(?:W/)?"?(\d{1,16})"?$')  # operations.py states the same pattern in the spec


def service() -> GameService:
    return current_app.extensions["meow.service"]


_LOCK = threading.Lock()


def _per_process(name: str, build: Any) -> Any:
    """One ``build()`` per app and process, made on first use (after gunicorn forked)."""
    ext = current_app.extensions
    if name not in ext:
        with _LOCK:
            if name not in ext:
                ext[name] = build()
    return ext[name]


def feeds() -> FeedHub:
    """This process's live-feed hub."""
    return _per_process("meow.feeds", lambda: FeedHub(service().store, buffer=settings().stream_buffer))


def stream_slots() -> StreamSlots:
    """This process's share of the stream caps."""
    cfg = settings()
    return _per_process("meow.slots", lambda: StreamSlots(service().store, cfg.max_streams_per_token,
                                                          cfg.max_streams_per_address))


def settings() -> Settings:
    return current_app.extensions["meow.settings"]


def peer() -> str:
    return client_address(request.environ, settings().trusted_proxies)


def peer_prefix() -> str:
    """The network of the request's client (client_prefix): what per-address budgets count."""
    cfg = settings()
    return client_prefix(peer(), cfg.prefix_v4, cfg.prefix_v6)


def origin() -> Origin:
    """Who is creating a table, hashed (service/app/fairness.py): its network and its address."""
    return Origin.of(peer_prefix(), peer())


def game_id_or_404(game_id: str) -> str:
    if not GAME_ID.fullmatch(game_id):
        raise AppError(KernelCode.NOT_FOUND, "no such game")
    return game_id


def bearer(required: bool = False) -> str | None:
    """The request's bearer token; ``required``: an operation that takes no anonymous caller
    answers 401 for a missing token before it looks at the game."""
    header = request.headers.get("Authorization", "")
    if not header:
        if required:
            raise AppError(AppCode.UNAUTHORIZED, "this operation needs a token: 'Authorization: Bearer <token>'")
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AppError(AppCode.UNAUTHORIZED, "use 'Authorization: Bearer <token>'")
    return token.strip()


def authenticate(game_id: str, required: bool = False, invite: str | None = None) -> Caller:
    """Who the request's token is for this game (``bearer``: ``required`` answers 401 without one);
    remembered for the answer's headers (api/headers.py: a seat's answer is ``no-store``).
    ``invite``: a join's invite code (a private table without a token: service/app/private_tables.py)."""
    caller = service().authenticate(game_id, bearer(required), invite)
    caller_seen(caller)
    return caller


def precondition(body_version: int | None) -> Precondition | None:
    header = request.headers.get("If-Match")
    if header is not None and header.strip() != "*":  # present but empty is not an ETag either
        m = ETAG.match(header.strip())
        if not m:
            raise AppError(KernelCode.INVALID_REQUEST, "If-Match must be an ETag such as \"12\"",
                           errors=[{"field": "If-Match", "in": "headers", "messages": ["not a version ETag"]}])
        return Precondition(int(m.group(1)), "if_match")
    if body_version is not None:
        return Precondition(body_version, "body")
    return None


STRONG_KEY = re.compile(r"[A-Za-z0-9_-]{22,255}")
UUID_KEY = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def idempotency(anonymous: bool = False) -> Idempotency | None:
    """The request's Idempotency-Key. For an anonymous create or join the key is the only secret (its
    retry returns the new token): it must be a UUID or 22-255 characters of [A-Za-z0-9_-]."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 255:
        raise AppError(KernelCode.INVALID_REQUEST, "Idempotency-Key must have 1 to 255 characters",
                       errors=[{"field": "Idempotency-Key", "in": "headers", "messages": ["1 to 255 characters"]}])
    if anonymous and not (UUID_KEY.fullmatch(key) or STRONG_KEY.fullmatch(key)):
        raise AppError(ApiCode.WEAK_IDEMPOTENCY_KEY, "without a token, an Idempotency-Key must be a UUID or "
                       "22 to 255 characters of A-Z, a-z, 0-9, '_' and '-' (a random key: it guards the token "
                       "this request returns)",
                       errors=[{"field": "Idempotency-Key", "in": "headers", "messages": ["a UUID or [A-Za-z0-9_-]{22,255}"]}])
    raw = request.get_data(cache=True) or b""
    try:
        canonical = orjson.dumps(orjson.loads(raw), option=orjson.OPT_SORT_KEYS) if raw.strip() else b""
    except orjson.JSONDecodeError:
        canonical = raw
    digest = hashlib.sha256(request.method.encode() + b" " + request.path.encode() + b"\n" + canonical).hexdigest()
    return Idempotency(hashlib.sha256(key.encode()).hexdigest()[:40], digest,
                       hashlib.sha256(b"meow-idempotency-seal\0" + key.encode()).digest())


def prefers_minimal() -> bool:
    """RFC 7240: does the request carry the preference ``return=minimal`` (``Prefer`` may list
    several, comma-separated, each with optional ``;`` parameters; names are case-insensitive)?"""
    for header in request.headers.getlist("Prefer"):
        for pref in header.split(","):
            name, _, value = pref.split(";", 1)[0].strip().partition("=")
            if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
                return True
    return False


STREAM_CHUNK_BYTES = 64 * 1024  # a streamed answer is written in pieces of about this size


def json_answer(head: dict[str, Any], key: str, items: Iterable[Any], count: int, version: int) -> Response:
    """``{**head, key: [*items]}`` with ``ETag: "<version>"``: in one piece (``json_response``) when
    ``count`` items are few, else streamed with the items serialized a piece at a time — the same
    bytes ``json_response`` writes, never the whole answer in memory (``key`` comes last)."""
    if count <= settings().stream_answers_over:
        return json_response({**head, key: list(items)}, 200, version)
    resp = Response(stream_with_context(json_pieces(head, key, items)), mimetype="application/json")
    resp.headers["ETag"] = f'"{version}"'
    return resp


def json_pieces(head: dict[str, Any], key: str, items: Iterable[Any],
                piece_bytes: int = STREAM_CHUNK_BYTES) -> Iterator[bytes]:
    """The bytes of ``orjson.dumps({**head, key: list(items)}, option=OPT_NON_STR_KEYS)``, in
    pieces of about ``piece_bytes``: the head up to the list's ``[``, the items comma-separated,
    then ``]}``."""
    opened = orjson.dumps({**head, key: []}, option=orjson.OPT_NON_STR_KEYS)
    assert opened.endswith(b"[]}"), "the streamed list must be the last member"
    piece, size, sep = [opened[:-2]], 0, b""
    for item in items:
        dumped = orjson.dumps(item, option=orjson.OPT_NON_STR_KEYS)
        piece += (sep, dumped)
        sep, size = b",", size + len(dumped) + 1
        if size >= piece_bytes:
            yield b"".join(piece)
            piece, size = [], 0
    piece.append(b"]}")
    yield b"".join(piece)


def json_response(body: Any, status: int = 200, version: int | None = None, **headers: str) -> Response:
    resp = Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status=status, mimetype="application/json")
    if version is not None:
        resp.headers["ETag"] = f'"{version}"'
    for k, v in headers.items():
        resp.headers[k.replace("_", "-")] = v
    return resp
