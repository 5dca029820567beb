"""The /v1/webhooks routes (docs/integrators.md "Webhooks"): an API key's endpoints and its delivery
log. Thin: schema -> service/app/webhooks.py -> schema; every operation takes the key (Meow-Key)."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint
from marshmallow import Schema, fields, validate
from werkzeug.routing import BaseConverter

from service.api import schemas as s
from service.api.credential_schemas import CredentialLog, version_field
from service.api.errors import PROBLEM
from service.api.http import json_response, precondition, service
from service.api.keys import require_key
from service.api.operations import EXAMPLES, operation, problem_headers
from service.api.refusals import RESPONSES
from service.app import webhooks as wh

blp = Blueprint("webhooks", __name__, url_prefix="/v1", description="Webhooks: an API key's signed event deliveries")
SERVER_REFUSALS = {r.example.status for r in RESPONSES}


def _errors(*codes: int):
    codes = tuple(c for c in sorted(set(codes) | {401, 429, 500}) if c not in SERVER_REFUSALS)

    def wrap(fn):
        for code in codes:
            fn = blp.alt_response(code, schema=s.Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


class CreateWebhook(s.Strict):
    url = fields.String(required=True, validate=validate.Length(1, 2048), metadata={
        "description": "where deliveries are POSTed: http(s), no user info; an address inside the network "
                       "(loopback, private, link-local) is refused unless the operator allows it"})
    events = fields.List(fields.String(validate=validate.OneOf(wh.EVENT_TYPES)), required=True,
                         validate=validate.Length(1, len(wh.EVENT_TYPES)),
                         metadata={"description": "the event types to deliver (arena.finished: arenas)"})
    description = fields.String(validate=validate.Length(0, wh.DESCRIPTION_MAX), load_default="")


class WebhookNotice(Schema):
    code = fields.String(metadata={"description": "endpoint_disabled"})
    at = fields.String()
    detail = fields.String()


class Webhook(Schema):
    id = fields.String(metadata={"example": "wh_3f9c2a7b1d04"})
    url = fields.String()
    events = fields.List(fields.String(validate=validate.OneOf(wh.EVENT_TYPES)))
    description = fields.String()
    created_at = fields.String(metadata={"description": "RFC 3339"})
    rotated_at = fields.String(allow_none=True)
    enabled = fields.Boolean(metadata={"description": "false once disabled after deliveries given up in a row"})
    failing_since = fields.String(allow_none=True, metadata={"description": "the first failed attempt of the "
                                                                            "current run of failures"})
    failed_deliveries = fields.Integer(metadata={"description": "deliveries given up in a row"})
    notice = fields.Nested(WebhookNotice, allow_none=True)
    version = version_field()


class WebhookWithSecret(Webhook):
    secret = fields.String(metadata={"description": "the signing secret, shown only here: keep it to verify "
                                                    "Meow-Signature (docs/integrators.md)",
                                     "example": "whsec_0123456789abcdef0123456789abcdef0123456789abcdef"})


class Webhooks(Schema):
    webhooks = fields.List(fields.Nested(Webhook))


class DeliveryTry(Schema):
    at = fields.String()
    status = fields.Integer(allow_none=True, metadata={"description": "the receiver's HTTP status"})
    error = fields.String(allow_none=True, metadata={
        "description": "why the attempt failed: status (not 2xx), timeout, connect_failed, address_refused, "
                       "redirect, too_large, bad_url, interrupted (its worker stopped before the answer was recorded: "
                       "counted as failed), endpoint_deleted, endpoint_disabled"})
    ms = fields.Integer()


class Delivery(Schema):
    id = fields.String(metadata={"description": "the Meow-Delivery header: a receiver drops one it has seen"})
    webhook = fields.String()
    type = fields.String(validate=validate.OneOf(wh.EVENT_TYPES))
    status = fields.String(validate=validate.OneOf(("pending", "delivered", "failed")))
    created_at = fields.String()
    attempts = fields.Integer(metadata={"description": "attempts made, one under way included"})
    next_attempt_at = fields.String(allow_none=True)
    tries = fields.List(fields.Nested(DeliveryTry), metadata={"description": "the last few attempts"})
    body = fields.Dict(metadata={"description": "the JSON body as it was (and is) sent"})


class DeliveryPage(Schema):
    deliveries = fields.List(fields.Nested(Delivery))
    next_cursor = fields.String(allow_none=True)


class DeliveryQuery(s.Strict):
    limit = fields.Integer(validate=validate.Range(1, 100), load_default=20)
    cursor = fields.String(validate=validate.Regexp(r"^[1-9][0-9]{0,15}$", error="not a cursor from a previous page"))


class HookId(BaseConverter):
    """A webhook's id in a path (``wh_`` and 12 hex digits, service/app/webhooks.py): so that
    /v1/webhooks/deliveries is not taken for a webhook (its ``Allow`` would list DELETE)."""

    regex = rf"{wh.HOOK_ID_PREFIX}[0-9a-f]{{12}}"


def install(app: Flask, api: Api) -> None:
    """The converter, in the app's URL map and in the spec (before the blueprint is registered)."""
    app.url_map.converters["hook_id"] = HookId
    api.register_converter(HookId, lambda _c: {"type": "string", "pattern": f"^{HookId.regex}$"})


@blp.route("/webhooks")
class WebhooksView(MethodView):
    @blp.arguments(CreateWebhook, examples=EXAMPLES["createWebhook"])
    @blp.response(201, WebhookWithSecret)
    @_errors(409, 413, 422)
    @operation(blp, "createWebhook")
    def post(self, body: dict[str, Any]):
        """Subscribe a URL to event types; the answer shows the signing secret, this once."""
        key = require_key()
        return json_response(wh.create(service(), key.id, body["url"], body["events"], body["description"]), 201)

    @blp.response(200, Webhooks)
    @_errors()
    @operation(blp, "listWebhooks")
    def get(self):
        """The key's webhooks (no secrets), with their health and any notice (disabled)."""
        return json_response({"webhooks": wh.list_hooks(service(), require_key().id)})


@blp.route("/webhooks/<hook_id:hook_id>")
class WebhookView(MethodView):
    @blp.response(200, Webhook)
    @_errors(404, 409, 412, 422)
    @operation(blp, "deleteWebhook")
    def delete(self, hook_id: str):
        """Unsubscribe, for good: no more deliveries to it (those still due are dropped). The answer: the
        webhook as it was."""
        return json_response(wh.delete(service(), require_key().id, hook_id, precondition(None)))


@blp.route("/webhooks/<hook_id:hook_id>/rotate")
class RotateView(MethodView):
    @blp.response(200, WebhookWithSecret)
    @_errors(404, 409, 412, 422)
    @operation(blp, "rotateWebhookSecret")
    def post(self, hook_id: str):
        """A new signing secret, shown this once; deliveries carry the old one's signature too for a day.
        409 `version_conflict` when another change came first (of concurrent rotations one succeeds)."""
        out = wh.rotate(service(), require_key().id, hook_id, precondition(None))
        return json_response(out, version=out["version"])


@blp.route("/webhooks/<hook_id:hook_id>/enable")
class EnableView(MethodView):
    @blp.response(200, Webhook)
    @_errors(404, 409, 412, 422)
    @operation(blp, "enableWebhook")
    def post(self, hook_id: str):
        """Put a disabled webhook back in service (its failures forgotten)."""
        out = wh.enable(service(), require_key().id, hook_id, precondition(None))
        return json_response(out, version=out["version"])


@blp.route("/webhooks/<hook_id:hook_id>/log")
class WebhookLogView(MethodView):
    @blp.response(200, CredentialLog)
    @_errors(404)
    @operation(blp, "getWebhookLog")
    def get(self, hook_id: str):
        """The webhook's audit log: its changes (created, rotated, deleted, enabled, disabled), newest
        first. A deleted webhook's log stays readable by its key for 30 days; another key's: 404."""
        return json_response({"entries": wh.audit_log(service(), require_key().id, hook_id)})


@blp.route("/webhooks/deliveries")
class DeliveriesView(MethodView):
    @blp.arguments(DeliveryQuery, location="query")
    @blp.response(200, DeliveryPage)
    @_errors(422)
    @operation(blp, "listWebhookDeliveries")
    def get(self, query: dict[str, Any]):
        """The key's delivery log, newest first (the last deliveries only: the oldest go)."""
        before = int(query["cursor"]) if query.get("cursor") else None
        page, nxt = wh.log_page(service(), require_key().id, before, query["limit"])
        return json_response({"deliveries": page, "next_cursor": str(nxt) if nxt else None})


@blp.route("/webhooks/deliveries/<delivery_id>/replay")
class ReplayView(MethodView):
    @blp.response(202, Delivery)
    @_errors(404)
    @operation(blp, "replayWebhookDelivery")
    def post(self, delivery_id: str):
        """Send a logged delivery again, byte for byte and under its id (one still pending is left as it is)."""
        return json_response(wh.replay(service(), require_key().id, delivery_id), 202)
