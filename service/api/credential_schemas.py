"""The schemas the credential records share (service/app/credentials.py): their version and their
audit log (GET /v1/admin/keys/{id}/log, /v1/bots/{id}/log, /v1/webhooks/{id}/log)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.app import credentials


def version_field() -> fields.Integer:
    return fields.Integer(metadata={
        "description": "one more with each change (1 when created), also the answer's ETag: send it back as "
                       "If-Match to change the record only if nothing changed it since (else 412 "
                       "`version_conflict`); of two concurrent changes one succeeds, the other answers 409 "
                       "`version_conflict` with the version now held", "example": 1})


class LogEntry(Schema):
    at = fields.Integer(metadata={"description": "ms since the epoch"})
    action = fields.String(validate=validate.OneOf(credentials.ACTIONS))
    version = fields.Integer(metadata={"description": "the record's version this change made"})
    by = fields.String(metadata={"description": f"`{credentials.ADMIN}` (the admin token), an API key's id, or "
                                                f"`{credentials.DELIVERIES}` (disabled after failed deliveries)"})


class CredentialLog(Schema):
    entries = fields.List(fields.Nested(LogEntry), metadata={
        "description": f"the record's changes (created, rotated, revoked, deleted, enabled, disabled), newest "
                       f"first: the last {credentials.LOG_KEEP} only; never a secret or a hash"})
