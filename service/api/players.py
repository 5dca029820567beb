"""Players, rematch and quick play (issue 30 items 4, 5): thin routes over service/app/players.py,
rematch.py and quickplay.py. A player's record and the leaderboard are an API key's own (``Meow-Key``
required); quick play takes a key optionally (the key's own tables, or the public ones)."""
from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.client import client_prefix
from service.api.errors import PROBLEM
from service.api.http import authenticate, game_id_or_404, json_response, peer, service, settings
from service.api.keys import current_key, require_key
from service.api.operations import EXAMPLES, operation, problem_headers
from service.api.schemas import DisplayName, Problem, SeatTaken, Strict
from service.app.auth import SPECTATOR
from service.app.errors import AppError
from service.app.players import PAGE_MAX, REF_PATTERN
from service.games import registry
from service.games.kernel.codes import KernelCode

blp = Blueprint("players", __name__, url_prefix="/v1", description="Players, rematch and quick play")

FIRST = registry.GAMES[0].variants[0]
PLAYER_REF = fields.String(validate=validate.Regexp(REF_PATTERN, error="1-64 letters, digits or ._:@-"),
                           metadata={"example": "user-1842", "description": "the key's own id for a player "
                                                                            "(needs the Meow-Key header)"})


def _errors(*codes: int):
    codes = tuple(sorted(set(codes) | {429, 500}))

    def wrap(fn):
        for code in codes:
            fn = blp.alt_response(code, schema=Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


class Rematch(Schema):
    id = fields.String(metadata={"description": "the rematch's game id (the old view's `rematch`)",
                                 "example": "9f2c4e1a7b3d5e60"})
    created = fields.Boolean(metadata={"description": "false when an earlier ask made it (the same rematch)"})
    invite_code = fields.String(metadata={
        "description": "a private table's rematch: its fresh invite code (the old one admits no one there), "
                       "only in the answer that made it (`created: true`); rotate it with "
                       "`POST /v1/games/{id}/invite` if that answer was lost"})
    spectator_token = fields.String(metadata={
        "description": "a private table's rematch: its fresh spectator token, as `invite_code`"})


class QuickPlay(Strict):
    variant = fields.String(required=True, metadata={"example": FIRST, "enum": list(registry.BY_VARIANT)})
    name = DisplayName(40, required=True)
    player = PLAYER_REF


class QuickSeat(SeatTaken):
    id = fields.String(metadata={"description": "the table's game id"})


class PlayerQuery(Strict):
    variant = fields.String(required=True, metadata={"example": FIRST})


class BoardQuery(Strict):
    variant = fields.String(required=True, metadata={"example": FIRST})
    offset = fields.Integer(validate=validate.Range(0, 1_000_000), load_default=0)
    limit = fields.Integer(validate=validate.Range(1, PAGE_MAX), load_default=20)


class PlayerRecord(Schema):
    player = fields.String(metadata={"example": "user-1842"})
    games = fields.Integer(metadata={"description": "finished matches counted"})
    wins = fields.Integer(metadata={"description": "matches finished at rank 1 (a shared first place counts)"})
    rating = fields.Float(metadata={"description": "the conservative rating mu - 3 sigma (0 for a new player)"})
    mu = fields.Float(metadata={"description": "openskill's skill estimate (a new player: 25)"})
    sigma = fields.Float(metadata={"description": "its uncertainty (a new player: 8.333)"})
    interval95 = fields.List(fields.Float(), metadata={"description": "mu ± 1.96 sigma"})
    rank = fields.Integer(metadata={"description": "the place on the leaderboard (leaderboard rows only)"})


class Leaderboard(Schema):
    variant = fields.String()
    players = fields.List(fields.Nested(PlayerRecord))
    next_offset = fields.Integer(allow_none=True, metadata={"description": "the next page's offset; null on the last"})


@blp.route("/games/<game_id>/rematch")
class RematchView(MethodView):
    @blp.response(201, Rematch)
    @blp.alt_response(200, schema=Rematch, description="asked before: the same rematch")
    @_errors(401, 403, 404, 409)
    @operation(blp, "rematchGame")
    def post(self, game_id: str):
        """A rematch of a finished table (owner token): a new table with the same variant, options,
        name and seats, linked from this one's view (`rematch`). Asking again gives the same one.
        Tokens carry over: the owner token owns the rematch, each human's seat token holds the same
        seat there, bots are seated again; the owner starts it as usual. A private table's rematch is
        private with a fresh invite code and spectator token, returned once, to the ask that made it."""
        gid = game_id_or_404(game_id)
        caller = authenticate(gid, required=True)
        rid, made, codes = service().rematch(gid, caller)
        return json_response({"id": rid, "created": made, **codes}, 201 if made else 200, Location=f"/v1/games/{rid}")


@blp.route("/quickplay")
class QuickPlayView(MethodView):
    @blp.arguments(QuickPlay, examples=EXAMPLES["quickPlay"])
    @blp.response(201, QuickSeat)
    @_errors(401, 409, 413, 422)
    @operation(blp, "quickPlay")
    def post(self, body: dict[str, Any]):
        """A seat at once at the open quick-play table of a variant (the key's own with `Meow-Key`,
        else the public one), or at a new table; a table no second human joins starts with bots after
        the server's wait (MEOW_QUICKPLAY_WAIT_MS), one that fills starts at once. Returns the seat's
        token exactly once (no Idempotency-Key: a retry takes another seat). One address takes at most
        MEOW_QUICKPLAY_SEATS_PER_ADDRESS (1) seats of one public table: its next seat is steered to
        another table, 429 `quickplay_limit` only when every open table of the variant holds its share."""
        key = require_key() if body.get("player") is not None else current_key()
        svc = service()
        address = client_prefix(peer(), 32, settings().prefix_v6)  # an address; an IPv6 host's: its /64
        out = svc.quick_play(body["variant"], key, body["name"], body.get("player"), address)
        render = svc.render(out, SPECTATOR, False)
        render["id"] = out.game_id
        return json_response(render, 201, render["version"], Location=f"/v1/games/{out.game_id}")


@blp.route("/players/<player>")
class PlayerView(MethodView):
    @blp.arguments(PlayerQuery, location="query")
    @blp.response(200, PlayerRecord)
    @_errors(401, 404, 422)
    @operation(blp, "getPlayer")
    def get(self, query: dict[str, Any], player: str):
        """One of the key's players in a variant: games, wins and rating (404 before a game of it is counted)."""
        key = require_key()
        found = service().player(key.id, query["variant"], player)
        if found is None:
            raise AppError(KernelCode.NOT_FOUND, "no game of this player is counted in this variant")
        return json_response(found)


@blp.route("/leaderboard")
class LeaderboardView(MethodView):
    @blp.arguments(BoardQuery, location="query")
    @blp.response(200, Leaderboard)
    @_errors(401, 422)
    @operation(blp, "getLeaderboard")
    def get(self, query: dict[str, Any]):
        """The key's players in a variant, best rating first (the conservative mu - 3 sigma), a page at a time."""
        key = require_key()
        page, nxt = service().leaderboard(key.id, query["variant"], query["offset"], query["limit"])
        return json_response({"variant": query["variant"], "players": page, "next_offset": nxt})

