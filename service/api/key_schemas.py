"""The schemas of API keys, their own lobby and private tables (docs/integrators.md)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.credential_schemas import version_field
from service.api.schemas import LobbyEntry, Strict

_QUOTA_HELP = {
    "creates_per_minute": "tables created per minute (POST /v1/games)",
    "writes_per_minute": "writes per minute (seats, starts, actions, ...)",
    "reads_per_minute": "reads per minute (views, lobby, events, ...)",
    "cost_per_minute": "cost units per minute of history, verify, state?at and events (100 events each)",
    "max_streams": "open event streams at once",
}
MAX_QUOTA = 10_000_000


def _quota(name: str, *, nullable: bool) -> fields.Integer:
    help_ = _QUOTA_HELP[name] + (" (null: the server's default for keys)" if nullable else "")
    return fields.Integer(strict=True, validate=validate.Range(1, MAX_QUOTA), allow_none=nullable,
                          metadata={"description": help_, "example": 600})


class QuotasIn(Strict):
    """A new key's own quotas; each one left out takes the server's default for keys."""

    creates_per_minute = _quota("creates_per_minute", nullable=False)
    writes_per_minute = _quota("writes_per_minute", nullable=False)
    reads_per_minute = _quota("reads_per_minute", nullable=False)
    cost_per_minute = _quota("cost_per_minute", nullable=False)
    max_streams = _quota("max_streams", nullable=False)


class Quotas(Schema):
    creates_per_minute = _quota("creates_per_minute", nullable=True)
    writes_per_minute = _quota("writes_per_minute", nullable=True)
    reads_per_minute = _quota("reads_per_minute", nullable=True)
    cost_per_minute = _quota("cost_per_minute", nullable=True)
    max_streams = _quota("max_streams", nullable=True)


class Limits(Schema):
    creates_per_minute = _quota("creates_per_minute", nullable=False)
    writes_per_minute = _quota("writes_per_minute", nullable=False)
    reads_per_minute = _quota("reads_per_minute", nullable=False)
    cost_per_minute = _quota("cost_per_minute", nullable=False)
    max_streams = _quota("max_streams", nullable=False)


class CreateKey(Strict):
    name = fields.String(required=True, validate=validate.Length(1, 80), metadata={"example": "acme portal"})
    quotas = fields.Nested(QuotasIn)


class ApiKey(Schema):
    id = fields.String(metadata={"description": "public: names the key in /metrics and in the admin endpoints",
                                 "example": "k3f9a0c12de"})
    name = fields.String()
    created_at = fields.Integer(metadata={"description": "ms since the epoch"})
    rotated_at = fields.Integer(allow_none=True, metadata={"description": "ms since the epoch: the last rotation"})
    revoked_at = fields.Integer(allow_none=True, metadata={"description": "ms since the epoch: revoked keys are refused"})
    active = fields.Boolean()
    quotas = fields.Nested(Quotas, metadata={"description": "the key's own quotas (null: the server's default)"})
    limits = fields.Nested(Limits, metadata={"description": "the quotas in force, defaults filled in"})
    version = version_field()


class KeyCreated(Schema):
    key = fields.Nested(ApiKey)
    secret = fields.String(metadata={"description": "the key to send in `Meow-Key`: shown this once (only a hash "
                                                    "is kept)", "example": "meow_k3f9a0c12de_3q2-7wEXAMPLEsecretPart"})


class KeyList(Schema):
    keys = fields.List(fields.Nested(ApiKey))


class KeyGamesQuery(Strict):
    limit = fields.Integer(validate=validate.Range(1, 50), load_default=20)
    cursor = fields.String(validate=validate.Regexp(r"^\d{1,16}:[0-9a-f]{16}$", error="not a cursor from a previous page"))


class KeyLobbyEntry(LobbyEntry):
    private = fields.Boolean(metadata={"description": "unlisted: in no public lobby, joined with its invite code"})


class KeyGamesPage(Schema):
    games = fields.List(fields.Nested(KeyLobbyEntry))
    next_cursor = fields.String(allow_none=True)


class InviteCode(Schema):
    invite_code = fields.String(metadata={"description": "the new invite code (the old one is refused from now on)"})


class SpectatorToken(Schema):
    spectator_token = fields.String(metadata={"description": "the new spectator token (the old one is refused "
                                                             "from now on)"})
