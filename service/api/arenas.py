"""The /v1/arenas routes (docs/arenas.md): thin — schema -> ``Arenas`` -> schema. Every operation but
the leaderboard takes the API key (``Meow-Key``) that owns the arena; another key's arena is 404.
The read guard that keeps an arena's games unread until it ends is installed on the games'
routes here too (``install``)."""
from __future__ import annotations

import time
from typing import Any

import orjson
from flask import Flask, Response, has_app_context, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError, fields, validate, validates_schema

from service.api import schemas as s
from service.api.credential_schemas import version_field
from service.api.errors import PROBLEM
from service.api.http import _per_process, json_response, peer_prefix, precondition, service, settings, stream_slots
from service.api.keys import require_key
from service.api.operations import EXAMPLES, operation, problem_headers
from service.app import remote_bots
from service.app.arenas import BOARD_PAGE, BOARD_PAGE_MAX, MAX_ENTRANTS, Arenas, make_spec
from service.games import registry

blp = Blueprint("arenas", __name__, url_prefix="/v1", description="Arenas: many bots-only games, ranked")
SSE = "text/event-stream"
STRENGTHS = sorted({b for g in registry.GAMES for b in g.bots})
FEED_POLL_S = 0.5


def arenas() -> Arenas:
    """This process's ``Arenas`` (service/wiring.py), over the app's game store and integrations."""
    from service.arena_lane import enqueuer
    from service.wiring import build_arenas

    return _per_process("meow.arenas", lambda: build_arenas(settings(), enqueuer(settings()), service().store,
                                                            service().integrations))


def _forget_bot(ctx: Any, bot_id: str) -> None:
    """A deleted bot leaves the leaderboards (remote_bots.ON_DELETE; arenas need Redis; a delete
    outside a request of this app has no board to reach: a page drops the row when it meets it)."""
    if has_app_context() and settings().redis_url:
        arenas().forget_bot(bot_id)


def install(app: Flask) -> None:
    """The read guard on every route of one game (/v1/games/<game_id>...): 409 ``arena_running``
    while the game's arena runs (service/app/arenas.py ``ReadGuard``); a deleted bot's leaderboard
    rows go with it (``_forget_bot``)."""
    remote_bots.ON_DELETE["arenas"] = _forget_bot

    @app.before_request
    def _arena_guard() -> None:
        gid = (request.view_args or {}).get("game_id")
        if request.blueprint == "games" and isinstance(gid, str) and len(gid) == 16 and settings().redis_url:
            arenas().guard.check(gid)


def _errors(*codes: int):
    codes = tuple(sorted(set(codes) | {429, 500}))

    def wrap(fn):
        for code in codes:
            fn = blp.alt_response(code, schema=s.Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


# ---------------------------------------------------------------------- schemas
class EntrantSpec(s.Strict):
    strength = fields.String(metadata={
        "enum": STRENGTHS, "example": "medium",
        "description": "a built-in strength the variant offers (its `bot_strengths` in GET /v1/variants); "
                       "or else `remote`"})
    remote = fields.String(validate=validate.Length(2, 32), metadata={
        "example": "b3f9c2a7b1d04",
        "description": "a registered bot of this key (POST /v1/bots; docs/remote-bots.md) that plays the variant: "
                       "asked each turn as at a table, within MEOW_REMOTE_BOT_TIMEOUT_MS; another key's bot is 404"})
    name = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,31}$"), metadata={
        "description": "shown in the result (default: the strength, or the bot's name (its id when the name is "
                       "no valid entrant name); a repeated name gets `-<index>`)"})

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if ("strength" in data) == ("remote" in data):
            raise ValidationError("name a built-in strength or a registered bot (remote), one of them",
                                  field_name="strength")


class CreateArena(s.Strict):
    variant = fields.String(required=True, metadata={"example": "prsi", "enum": list(registry.BY_VARIANT)})
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "overrides of the preset's options for every table (the arena sets `bot_delay_ms` to "
                       "zero and `allow_join_between_rounds` to false)"})
    entrants = fields.List(fields.Nested(EntrantSpec), required=True,
                           validate=validate.Length(2, MAX_ENTRANTS))
    seats = fields.Integer(strict=True, validate=validate.Range(2, 5), metadata={
        "description": "players at each table (default: the number of entrants within the variant's range)"})
    games = fields.Integer(strict=True, required=True, validate=validate.Range(1, 100_000), metadata={
        "description": "games to play, rounded up to whole deals (a deal is played once per seat rotation: "
                       "as many games as entrants, twice as many when they outnumber the seats); "
                       "at most MEOW_ARENA_MAX_GAMES (2,000 by default)"})


class Interval(fields.List):
    def __init__(self, **kw: Any) -> None:
        super().__init__(fields.Float(), validate=validate.Length(2, 2), **kw)


class RatingOut(s.Schema):
    mu = fields.Float()
    sigma = fields.Float()
    interval_95 = Interval(metadata={"description": "mu ± 1.96 sigma"})
    display = fields.Float(metadata={"description": "the conservative rating mu − 3 sigma (openskill's ordinal)"})


class EntrantResult(s.Schema):
    entrant = fields.Integer()
    name = fields.String()
    games = fields.Integer()
    wins = fields.Float(metadata={"description": "games won; a win shared by k entrants counts 1/k"})
    win_rate = fields.Float()
    win_rate_95 = Interval(metadata={"description": "Wilson score interval"})
    points_mean = fields.Float(metadata={"description": "the mean final total of the entrant's seats, in the "
                                                        "game's own score (penalty points: lower is better; "
                                                        "a game whose totals are payoffs: higher)"})
    points_95 = Interval()
    rating = fields.Nested(RatingOut)


class HeadToHead(s.Schema):
    a = fields.String()
    b = fields.String()
    games = fields.Integer()
    a_wins = fields.Integer(metadata={"description": "games where a's best seat finished above b's"})
    b_wins = fields.Integer()
    draws = fields.Integer()


class ArenaResult(s.Schema):
    games = fields.Integer(metadata={"description": "games with a result (fewer than planned if cancelled)"})
    entrants = fields.List(fields.Nested(EntrantResult))
    head_to_head = fields.List(fields.Nested(HeadToHead))


class Progress(s.Schema):
    done = fields.Integer()
    total = fields.Integer()


class ArenaEntrant(s.Schema):
    name = fields.String()
    strength = fields.String(metadata={"description": "a built-in strength, or `remote` (a registered bot)"})
    remote = fields.String(metadata={"description": "the registered bot's id (a `remote` entrant only)"})


class ArenaView(s.Schema):
    id = fields.String(metadata={"example": "ar0123456789ab"})
    status = fields.String(metadata={"enum": ["running", "finished", "cancelled"]})
    variant = fields.String()
    options = fields.Dict(keys=fields.String())
    seats = fields.Integer()
    games = fields.Integer()
    deals = fields.Integer(metadata={"description": "distinct deals: each is played once per seat rotation"})
    duplicate = fields.Boolean(metadata={
        "description": "whether the games of a deal share their cards: false when a registered bot plays (it could "
                       "remember a deal's cards), so each game has its own, the seats still rotated"})
    entrants = fields.List(fields.Nested(ArenaEntrant))
    progress = fields.Nested(Progress)
    created_at = fields.Integer()
    ended_at = fields.Integer(allow_none=True)
    result = fields.Nested(ArenaResult, allow_none=True, metadata={"description": "null until the arena has ended"})
    version = version_field()


class ArenaList(s.Schema):
    arenas = fields.List(fields.Nested(ArenaView))


class ArenaListQuery(s.Strict):
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class SeatResult(s.Schema):
    seat = fields.Integer()
    entrant = fields.Integer()
    rank = fields.Integer()
    total = fields.Raw(metadata={"description": "the seat's final total (a number)"})


class ArenaGame(s.Schema):
    index = fields.Integer()
    game = fields.String(metadata={"description": "an ordinary game id: GET /v1/games/{game_id}/history, /verify"})
    deal = fields.Integer()
    rotation = fields.Integer()
    seats = fields.List(fields.Nested(SeatResult))
    owner_token = fields.String(metadata={"description": "the game's owner token (its history and verification)"})


class ArenaGames(s.Schema):
    games = fields.List(fields.Nested(ArenaGame))


class ArenaLeaderboardQuery(s.Strict):
    variant = fields.String(required=True, metadata={"enum": list(registry.BY_VARIANT)})
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 1_000_000),
                            metadata={"description": "rows to skip (a page's `next_offset`)"})
    limit = fields.Integer(load_default=BOARD_PAGE, validate=validate.Range(1, BOARD_PAGE_MAX),
                           metadata={"description": f"rows of this page (default: the top {BOARD_PAGE})"})


class ArenaLeaderboardRow(s.Schema):
    entrant = fields.String(metadata={"description": "a built-in strength (`easy`, `medium`, `hard`) or a "
                                                     "registered bot (`bot:<id>`)"})
    games = fields.Integer()
    wins = fields.Float()
    rating = fields.Nested(RatingOut)
    rank = fields.Integer(metadata={"description": "the place on the board, from 1"})


class ArenaLeaderboard(s.Schema):
    variant = fields.String()
    entrants = fields.List(fields.Nested(ArenaLeaderboardRow), metadata={"description": "one page, best first"})
    next_offset = fields.Integer(allow_none=True, metadata={"description": "the next page's `offset`; null on the last"})


def _examples() -> dict[str, dict[str, Any]]:
    """From the registry: the first variant with a searching strength and the first that seats three."""
    games = registry.GAMES
    two = next((g for g in games if g.searching), games[0])
    three = next((v for v in registry.variants_catalog() if int(v["min_players"]) >= 3), None)
    bodies: dict[str, dict[str, Any]] = {"ladder": {
        "variant": two.variants[0], "entrants": [{"strength": s} for s in two.bots], "seats": 2, "games": 100}}
    if three is not None:
        bodies["named"] = {"variant": three["name"], "games": 30, "seats": int(three["min_players"]),
                           "entrants": [{"strength": "easy", "name": "rookie"},
                                        {"strength": "medium", "name": "regular"}]}
    out = {}
    for name, body in bodies.items():
        spec = make_spec(str(body["variant"]), {}, body["entrants"], body["seats"], body["games"], 100_000)
        who = "every strength" if name == "ladder" else "two named entrants"
        out[name] = {"summary": f"{who} of {spec.variant}, {spec.seats} seats: {spec.games} games in {spec.deals} "
                                "deals, seats rotated", "value": body}
    return out


EXAMPLES["createArena"] = _examples()


# ---------------------------------------------------------------------- routes
@blp.route("/arenas")
class ArenasView(MethodView):
    @blp.arguments(CreateArena, examples=EXAMPLES["createArena"])
    @blp.response(202, ArenaView)
    @_errors(400, 401, 404, 413, 422, 429)
    @operation(blp, "createArena")
    def post(self, body: dict[str, Any]):
        """Start an arena (API key): answers at once with its id; its games are played as jobs on the
        workers' arena lane. An entrant is a built-in strength or a registered bot of the key (another
        key's: 404). Capped per key (MEOW_ARENAS_PER_KEY running at once: 429 `arena_limit`)
        and rate limited like table creation."""
        key = require_key()
        cfg = settings()
        bots = {b: remote_bots.owned(service(), key.id, b) for b in {e["remote"] for e in body["entrants"] if "remote" in e}}
        spec = make_spec(body["variant"], body["options"], body["entrants"], body.get("seats"), body["games"],
                         cfg.arena_max_games, bots)
        view = arenas().create(key.id, spec)
        return json_response(view, 202, Location=f"/v1/arenas/{view['id']}")

    @blp.arguments(ArenaListQuery, location="query")
    @blp.response(200, ArenaList)
    @_errors(401, 422)
    @operation(blp, "listArenas")
    def get(self, query: dict[str, Any]):
        """The key's arenas, newest first (without their result tables)."""
        return json_response({"arenas": arenas().of_key(require_key().id, query["limit"])})


@blp.route("/arenas/leaderboard")
class LeaderboardView(MethodView):
    @blp.arguments(ArenaLeaderboardQuery, location="query")
    @blp.response(200, ArenaLeaderboard)
    @_errors(422)
    @operation(blp, "getArenaLeaderboard")
    def get(self, query: dict[str, Any]):
        """The entrants of a variant's finished arenas, rated over all their games (openskill
        Plackett-Luce), best conservative rating first, a page at a time (the top 20 by default, at
        most 100 a page: `offset` and `next_offset` for the rest). A deleted bot leaves it. No key needed."""
        rows, nxt = arenas().leaderboard(query["variant"], query["offset"], query["limit"])
        return json_response({"variant": query["variant"], "entrants": rows, "next_offset": nxt})


@blp.route("/arenas/<string(length=14):arena_id>")
class ArenaOne(MethodView):
    @blp.response(200, ArenaView)
    @_errors(401, 404)
    @operation(blp, "getArena")
    def get(self, arena_id: str):
        """The arena: its spec, progress, and once it has ended its result table."""
        return json_response(arenas().view(arena_id, require_key().id))

    @blp.response(200, ArenaView)
    @_errors(401, 404, 409, 412, 422)
    @operation(blp, "cancelArena")
    def delete(self, arena_id: str):
        """Cancel: no game starts after this; the games played so far make its table. With If-Match:
        only if the arena is still at that version (else 412 `version_conflict`)."""
        out = arenas().cancel(arena_id, require_key().id, precondition(None))
        return json_response(out, version=out["version"])


@blp.route("/arenas/<string(length=14):arena_id>/cancel")
class ArenaCancel(MethodView):
    @blp.response(200, ArenaView)
    @_errors(401, 404, 409, 412, 422)
    @operation(blp, "cancelArenaPost")
    def post(self, arena_id: str):
        """The same as DELETE /v1/arenas/{arena_id}, for clients that cannot send DELETE."""
        out = arenas().cancel(arena_id, require_key().id, precondition(None))
        return json_response(out, version=out["version"])


@blp.route("/arenas/<string(length=14):arena_id>/games")
class ArenaGamesView(MethodView):
    @blp.response(200, ArenaGames)
    @_errors(401, 404, 409)
    @operation(blp, "listArenaGames")
    def get(self, arena_id: str):
        """An ended arena's games: each an ordinary game id with its seating and standings, and its
        owner token, for its history and verification. 409 `arena_running` before the end."""
        return json_response({"games": arenas().games_of(arena_id, require_key().id)})


@blp.route("/arenas/<string(length=14):arena_id>/feed")
class ArenaFeed(MethodView):
    @blp.response(200, ArenaView, content_type=SSE, description="server-sent events: `progress`, then `ended`")
    @_errors(401, 404, 429)
    @operation(blp, "streamArena")
    def get(self, arena_id: str):
        """The arena's progress as server-sent events: an `event: progress` (the arena, without
        its table) each time a game ends, then `event: ended` with the whole arena, and the stream
        closes. Counts against the key's open streams, like a game's event stream."""
        key = require_key()
        live = arenas()
        live.view(arena_id, key.id)  # 404 before the stream starts
        slots = stream_slots()
        lease = slots.acquire(f"key:{key.id}", peer_prefix())
        cfg = settings()
        resp = Response(_feed(live, arena_id, key.id, cfg.sse_heartbeat_s, cfg.sse_max_s, lambda: slots.release(lease)),
                        mimetype=SSE)
        resp.call_on_close(lambda: slots.release(lease))
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["X-Accel-Buffering"] = "no"
        return resp


def _feed(live: Arenas, arena_id: str, key_id: str, heartbeat_s: float, max_s: float, release: Any):
    """Poll the arena's record (cheap: one hash) and send what changed."""
    try:
        yield b"retry: 1000\n\n"
        deadline, last, beat = time.monotonic() + max_s, -1, time.monotonic()
        while time.monotonic() < deadline:
            view = live.view(arena_id, key_id)
            if view["status"] != "running":
                yield b"event: ended\ndata: %s\n\n" % orjson.dumps(view)
                return
            if view["progress"]["done"] != last:
                last = view["progress"]["done"]
                brief = {k: v for k, v in view.items() if k != "result"}
                yield b"event: progress\ndata: %s\n\n" % orjson.dumps(brief)
                beat = time.monotonic()
            elif time.monotonic() - beat >= heartbeat_s:
                yield b": keep-alive\n\n"
                beat = time.monotonic()
            time.sleep(FEED_POLL_S)
    finally:
        release()
