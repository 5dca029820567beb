"""What an API key sees of its own (docs/integrators.md): the key itself and its lobby (its tables,
private ones too), and the owner's hand-outs of a private table: a new invite code, a new
spectator token (service/app/private_tables.py)."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import key_schemas as ks, schemas as s
from service.api.errors import PROBLEM
from service.api.http import authenticate, game_id_or_404, json_response, service, settings
from service.api.keys import require_key
from service.api.operations import operation, problem_headers

blp = Blueprint("integrators", __name__, url_prefix="/v1", description="An API key's own tables; private tables")


def _errors(*codes: int):
    def wrap(fn):
        for code in sorted(set(codes) | {401, 429, 500}):
            fn = blp.alt_response(code, schema=s.Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


@blp.route("/keys/me")
class OwnKeyView(MethodView):
    @blp.response(200, ks.ApiKey)
    @_errors()
    @operation(blp, "getOwnKey")
    def get(self):
        """The request's API key: its id (its label in /metrics), name, own quotas and the limits in force."""
        key = require_key()
        return json_response({**key.public(), "limits": asdict(key.quotas.effective(settings()))})


@blp.route("/keys/me/games")
class OwnGamesView(MethodView):
    @blp.arguments(ks.KeyGamesQuery, location="query")
    @blp.response(200, ks.KeyGamesPage)
    @_errors(422)
    @operation(blp, "listKeyGames")
    def get(self, query: dict[str, Any]):
        """The key's own lobby: every table it created (private ones too), newest first, paginated
        by cursor; the newest ones up to a cap (MEOW_KEY_GAMES_MAX, 10 000 by default)."""
        key = require_key()
        cursor = None
        if query.get("cursor"):
            at, _, gid = query["cursor"].partition(":")
            cursor = (int(at), gid)
        page, nxt = service().key_lobby(key, cursor, query["limit"])
        return json_response({"games": page, "next_cursor": nxt})


@blp.route("/games/<game_id>/invite")
class InviteView(MethodView):
    @blp.response(200, ks.InviteCode)
    @_errors(403, 404, 409)
    @operation(blp, "rotateInvite")
    def post(self, game_id: str):
        """A private table's new invite code (owner token): a join must carry it (`invite`); the
        old code is refused from now on. 409 `not_private` for a public table."""
        gid = game_id_or_404(game_id)
        caller = authenticate(gid, required=True)
        return json_response({"invite_code": service().rotate_private(gid, caller, "invite")})


@blp.route("/games/<game_id>/spectator-token")
class SpectatorTokenView(MethodView):
    @blp.response(200, ks.SpectatorToken)
    @_errors(403, 404, 409)
    @operation(blp, "rotateSpectatorToken")
    def post(self, game_id: str):
        """A private table's new spectator token (owner token): the bearer token that lets its
        holder watch the table (view, events, past views); the old one is refused from now on."""
        gid = game_id_or_404(game_id)
        caller = authenticate(gid, required=True)
        return json_response({"spectator_token": service().rotate_private(gid, caller, "spectator")})
