"""The /v1/bots routes: an API key's remote bots (service/app/remote_bots.py, docs/remote-bots.md).
Thin: the key (``Meow-Key``) -> the application -> the answer. A bot's secret is in the answers of
registerBot and rotateBotSecret only."""
from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.credential_schemas import CredentialLog, version_field
from service.api.errors import PROBLEM
from service.api.http import json_response, precondition, service
from service.api.keys import require_key
from service.api.operations import EXAMPLES, operation, problem_headers
from service.api.schemas import DisplayName, Problem, Strict
from service.app import remote_bots

blp = Blueprint("bots", __name__, url_prefix="/v1", description="Remote bots: your bots, called over HTTP each turn")


class RegisterBot(Strict):
    name = DisplayName(remote_bots.MAX_NAME, required=True)
    url = fields.String(required=True, validate=validate.Length(8, 2048), metadata={
        "example": "https://bots.example.com/meow",
        "description": "where its turns are POSTed (HTTPS or HTTP; no private, loopback or link-local "
                       "address unless the operator allows them: else 422 `url_refused`)"})
    games = fields.List(fields.String(), required=True,  # each checked against the variants (422 invalid_request)
                        validate=validate.Length(1, remote_bots.MAX_GAMES), metadata={
                            "description": "the variants it plays (GET /v1/variants); a table of another is refused"})


class BotStats(Schema):
    calls = fields.Integer(metadata={"description": "turns asked, answered or not"})
    answered = fields.Integer(metadata={"description": "legal answers applied"})
    failures = fields.Integer(metadata={"description": "turns that got the seat's default action instead"})
    consecutive = fields.Integer(metadata={"description": "failures in a row (MEOW_REMOTE_BOT_FAILURES of them: away)"})
    went_away = fields.Integer(metadata={"description": "times it went away (and was played by the autopilot)"})
    failed_timeout = fields.Integer()
    failed_status = fields.Integer()
    failed_malformed = fields.Integer()
    failed_illegal = fields.Integer()
    failed_refused = fields.Integer()


class Bot(Schema):
    id = fields.String(metadata={"example": "b1a2b3c4d5e6f"})
    name = fields.String()
    url = fields.String()
    games = fields.List(fields.String())
    created_at = fields.Integer(metadata={"description": "ms since the Unix epoch"})
    status = fields.String(metadata={"enum": ["ok", "away"], "description": "away: too many failures in a row; "
                                     "its seats play as the autopilot until a health check finds it answering"})
    stats = fields.Nested(BotStats)
    version = version_field()


class BotWithSecret(Bot):
    secret = fields.String(metadata={"description": "signs every call to the bot (Meow-Signature): shown only "
                                                    "here, once; rotateBotSecret replaces it"})


class BotList(Schema):
    bots = fields.List(fields.Nested(Bot))


def _errors(*codes: int):
    def wrap(fn: Any) -> Any:
        for code in sorted(set(codes) | {401, 429, 500}):
            fn = blp.alt_response(code, schema=Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


@blp.route("/bots")
class BotsView(MethodView):
    @blp.arguments(RegisterBot, examples=EXAMPLES["registerBot"])
    @blp.response(201, BotWithSecret)
    @_errors(409, 413, 422)
    @operation(blp, "registerBot")
    def post(self, body: dict[str, Any]) -> Response:
        """Register a remote bot of your key: its id, and its signing secret (shown this once).
        Capped per key (409 `bot_limit`)."""
        key = require_key()
        svc = service()
        bot, secret = remote_bots.register(svc, key.id, body["name"], body["url"], body["games"])
        return json_response({**bot.public({}), "secret": secret}, 201, version=bot.version,
                             Location=f"/v1/bots/{bot.id}")

    @blp.response(200, BotList)
    @_errors()
    @operation(blp, "listBots")
    def get(self) -> Response:
        """Your key's remote bots, with their counters (never their secrets)."""
        key = require_key()
        return json_response({"bots": remote_bots.listing(service(), key.id)})


@blp.route("/bots/<bot_id>")
class BotView(MethodView):
    @blp.response(200, Bot)
    @_errors(404)
    @operation(blp, "getBot")
    def get(self, bot_id: str) -> Response:
        """One of your key's bots: status (`ok`, `away`) and counters."""
        key = require_key()
        shown = remote_bots.show(service(), key.id, bot_id)
        return json_response(shown, version=shown["version"])

    @blp.response(204)
    @_errors(404, 409, 412, 422)
    @operation(blp, "deleteBot")
    def delete(self, bot_id: str) -> Response:
        """Unregister one of your key's bots, for good: the seats it holds play as the autopilot from
        their next turn. A rotation racing it never brings it back."""
        key = require_key()
        remote_bots.delete(service(), key.id, bot_id, precondition(None))
        return Response(status=204)


@blp.route("/bots/<bot_id>/rotate")
class RotateView(MethodView):
    @blp.response(200, BotWithSecret)
    @_errors(404, 409, 412, 422)
    @operation(blp, "rotateBotSecret")
    def post(self, bot_id: str) -> Response:
        """A new signing secret for one of your key's bots (shown this once); the old one stops at once.
        409 `version_conflict` when another change came first (of concurrent rotations one succeeds)."""
        key = require_key()
        svc = service()
        bot, secret = remote_bots.rotate(svc, key.id, bot_id, precondition(None))
        return json_response({**bot.public(svc.bot_records.bot_counts(bot.id)), "secret": secret},
                             version=bot.version)


@blp.route("/bots/<bot_id>/log")
class BotLogView(MethodView):
    @blp.response(200, CredentialLog)
    @_errors(404)
    @operation(blp, "getBotLog")
    def get(self, bot_id: str) -> Response:
        """The bot's audit log: its changes (created, rotated, deleted), newest first. A deleted bot's
        log stays readable by its key for 30 days; another key's bot: 404."""
        key = require_key()
        return json_response({"entries": remote_bots.audit_log(service(), key.id, bot_id)})
