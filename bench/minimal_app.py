"""The ceiling of meow's architecture on this machine: a minimal Flask move endpoint.

Each move is one Lua append (expected version = the stream's last id, XADD with the explicit
id ``<seq>-0``, as service/eventstore/append.lua does, minus idempotency, tokens, follow-ups
and the lobby) plus one XRANGE of the whole stream, decoded with orjson and answered as JSON.
No rules, no auth, no redaction: whatever meow does on top of this is its own cost.

It speaks just enough of meow's API shape for bench/api.py to drive it with the same client:
``POST /v1/games`` (201 ``id``, ``owner_token``), ``POST /v1/games/<id>/seats`` (201 ``seat``,
``token``), ``POST /v1/games/<id>/start``, ``POST /v1/games/<id>/actions`` (200 ``version``,
``events``, ``game`` with ``turn.seat``, ``phase`` and ``you.legal_actions``),
``GET /v1/games/<id>/actions`` and ``GET /v1/games/<id>``. The turn alternates between the two
seats; after ``MINIMAL_ROUND_EVENTS`` events (default 200) the phase becomes ``scoring`` so the
client starts a fresh game, which keeps streams at "up to a few hundred events".

Run: ``gunicorn 'bench.minimal_app:create_app()'`` with REDIS_URL and MEOW_KEY_PREFIX set.
"""
from __future__ import annotations

import os
import secrets
import threading
import time
from typing import Any

import orjson
import redis
from flask import Flask, Response, request

APPEND = """
local last = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], "^(%d+)")) end
if version ~= tonumber(ARGV[1]) then
  return {"conflict", version}
end
version = version + 1
redis.call("XADD", KEYS[1], version .. "-0", "e", ARGV[2])
return {"ok", version}
"""

LEGAL = [{"type": "draw"}, {"type": "play", "card": "7H:0"}, {"type": "play", "card": "JS:1", "called_suit": "H"}]
SEATS = 2


def _json(body: Any, status: int = 200, version: int | None = None) -> Response:
    resp = Response(orjson.dumps(body), status=status, mimetype="application/json")
    if version is not None:
        resp.headers["ETag"] = f'"{version}"'
    return resp


def _problem(status: int, code: str, detail: str) -> Response:
    body = {"type": "about:blank", "title": code, "status": status, "detail": detail, "code": code}
    return Response(orjson.dumps(body), status=status, mimetype="application/problem+json")


def create_app() -> Flask:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise RuntimeError("REDIS_URL is not set")
    prefix = os.environ.get("MEOW_KEY_PREFIX", "meow-minimal")
    round_events = int(os.environ.get("MINIMAL_ROUND_EVENTS", "200"))
    r = redis.Redis.from_url(url, socket_timeout=10)
    append = r.register_script(APPEND)
    known: dict[str, int] = {}  # per-process last known version of each game (like meow's state cache)
    lock = threading.Lock()
    app = Flask("meow-minimal")

    def key(gid: str) -> str:
        return f"{prefix}:g:{gid}"

    def write(gid: str, event: dict[str, Any]) -> int | None:
        """One Lua append at the version this process last saw; one retry at the current version."""
        with lock:
            expected = known.get(gid, 0)
        for _ in range(2):
            event["seq"] = expected + 1
            out = append(keys=[key(gid)], args=[expected, orjson.dumps(event)])
            if out[0] == b"ok":
                return int(out[1])
            expected = int(out[1])
        return None

    def fold(gid: str, seat: int | None) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
        """One XRANGE of the whole stream, every event decoded, a tiny view derived from it."""
        rows = r.xrange(key(gid))
        events = [orjson.loads(fields[b"e"]) for _, fields in rows]
        version = len(events)
        with lock:
            if known.get(gid, 0) < version:
                known[gid] = version
        plays = sum(1 for e in events if e.get("type") == "CardPlayed")
        phase = "scoring" if version >= round_events else ("play" if version >= 2 else "open")
        game: dict[str, Any] = {
            "id": gid, "status": "running" if version >= 2 else "open", "phase": phase, "version": version,
            "turn": {"seat": version % SEATS, "deadline": None}, "table": {"plays": plays},
        }
        if seat is not None:
            game["you"] = {"seat": seat, "hand": [], "legal_actions": LEGAL if version % SEATS == seat else []}
        return version, events, game

    def seat_of() -> int | None:
        token = request.headers.get("Authorization", "").partition(" ")[2]
        _, _, seat = token.rpartition(".")
        return int(seat) if seat.isdigit() else None

    def now_ms() -> int:
        return int(time.time() * 1000)

    @app.get("/healthz")
    def healthz() -> Response:
        return _json({"status": "ok"})

    @app.post("/v1/games")
    def create() -> Response:
        gid = secrets.token_hex(8)
        version = write(gid, {"type": "MatchCreated", "at": now_ms(), "data": request.get_json(silent=True) or {}})
        if version is None:
            return _problem(409, "game_exists", "a game with this id already exists")
        return _json({"id": gid, "owner_token": f"{gid}.owner", "version": version}, 201, version)

    @app.post("/v1/games/<gid>/seats")
    def seats(gid: str) -> Response:
        seat = r.incr(f"{prefix}:seats:{gid}") - 1
        return _json({"seat": seat, "token": f"{gid}.{seat}"}, 201)

    @app.post("/v1/games/<gid>/start")
    def start(gid: str) -> Response:
        version = write(gid, {"type": "RoundStarted", "at": now_ms(), "data": {}})
        if version is None:
            return _problem(409, "version_conflict", "the game kept changing")
        version, events, game = fold(gid, None)
        return _json({"version": version, "events": events[-1:], "game": game}, 200, version)

    @app.post("/v1/games/<gid>/actions")
    def act(gid: str) -> Response:
        seat = seat_of()
        if seat is None:
            return _problem(403, "forbidden", "actions need a seat token")
        try:
            action = orjson.loads(request.get_data())
        except orjson.JSONDecodeError:
            return _problem(400, "invalid_json", "the body is not JSON")
        kind = "CardPlayed" if action.get("type") == "play" else "CardDrawn"
        version = write(gid, {"type": kind, "at": now_ms(), "seat": seat, "data": action})
        if version is None:
            return _problem(409, "version_conflict", "the game kept changing")
        version, events, game = fold(gid, seat)
        return _json({"version": version, "events": events[-1:], "game": game}, 200, version)

    @app.get("/v1/games/<gid>/actions")
    def actions(gid: str) -> Response:
        seat = seat_of()
        version, _, game = fold(gid, seat)
        return _json({"version": version, "seat": seat, "legal_actions": game.get("you", {}).get("legal_actions", [])},
                     200, version)

    @app.get("/v1/games/<gid>")
    def view(gid: str) -> Response:
        version, _, game = fold(gid, seat_of())
        return _json(game, 200, version)

    return app
