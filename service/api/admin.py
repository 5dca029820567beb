"""The operator's endpoints: API keys (service/app/api_keys.py), under /v1/admin, with the admin
token of MEOW_ADMIN_TOKEN as a bearer token. No admin token configured: every /v1/admin path
answers exactly as an unknown path does (404), so a server without one shows no admin surface; a
missing or wrong token: 401 ``unauthorized``. A key's secret is in no answer but the one that
creates or rotates it."""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from werkzeug.exceptions import NotFound

from service.api import key_schemas as ks, schemas as s
from service.api.credential_schemas import CredentialLog
from service.api.errors import PROBLEM
from service.api.http import json_response, precondition, service, settings
from service.api.operations import EXAMPLES, operation, problem_headers
from service.app import api_keys
from service.app.api_keys import ApiKey, Quotas
from service.app.codes import AppCode
from service.app.errors import AppError, not_found

blp = Blueprint("admin", __name__, url_prefix="/v1/admin", description="The operator's API keys")


def _errors(*codes: int):
    def wrap(fn):
        for code in sorted(set(codes) | {401, 404, 429, 500}):
            fn = blp.alt_response(code, schema=s.Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


@blp.before_request
def _admin_only() -> None:
    want = settings().admin_token_hash
    if want is None:
        raise NotFound()
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    given = hashlib.sha256(token.strip().encode()).hexdigest() if scheme.lower() == "bearer" else ""
    if not hmac.compare_digest(given, want):
        raise AppError(AppCode.UNAUTHORIZED, "this needs the operator's admin token: 'Authorization: Bearer <token>'")


def public(key: ApiKey) -> dict[str, Any]:
    """A key as the answers show it: its own quotas and the limits in force."""
    from dataclasses import asdict

    return {**key.public(), "limits": asdict(key.quotas.effective(settings()))}


@blp.route("/keys")
class KeysView(MethodView):
    @blp.arguments(ks.CreateKey, examples=EXAMPLES["createKey"])
    @blp.response(201, ks.KeyCreated)
    @_errors(409, 413, 422)
    @operation(blp, "createKey")
    def post(self, body: dict[str, Any]):
        """Create an API key. Its secret is in this answer only (the server keeps its SHA-256)."""
        svc = service()
        try:
            key, secret = api_keys.create(svc.api_keys, body["name"], now_ms=svc.clock(),
                                          quotas=Quotas(**body.get("quotas", {})), random_bytes=svc.random_bytes,
                                          cap=settings().max_api_keys)
        except api_keys.TooManyKeys as exc:
            raise AppError(AppCode.TOO_MANY_KEYS, f"this server holds {exc}; revoked keys count too") from None
        return json_response({"key": public(key), "secret": secret}, 201)

    @blp.response(200, ks.KeyList)
    @_errors()
    @operation(blp, "listKeys")
    def get(self):
        """Every key (revoked ones too), oldest first; never a secret."""
        return json_response({"keys": [public(k) for k in api_keys.all_keys(service().api_keys)]})


@blp.route("/keys/<key_id>")
class KeyView(MethodView):
    @blp.response(200, ks.ApiKey)
    @_errors()
    @operation(blp, "getKey")
    def get(self, key_id: str):
        """One key; never its secret. Its ETag is its version."""
        key = api_keys.get(service().api_keys, key_id)
        if key is None:
            raise not_found("key")
        return json_response(public(key), version=key.version)


@blp.route("/keys/<key_id>/rotate")
class RotateKeyView(MethodView):
    @blp.response(200, ks.KeyCreated)
    @_errors(409, 412, 422)
    @operation(blp, "rotateKey")
    def post(self, key_id: str):
        """A new secret for the key (shown this once); the old one is refused from now on. The key
        keeps its id, quotas and tables. 409 `key_revoked` for a revoked key; 409 `version_conflict`
        when another change came first (of concurrent rotations one succeeds), 412 for a stale If-Match."""
        svc = service()
        key, secret = api_keys.rotate(svc.api_keys, key_id, now_ms=svc.clock(), random_bytes=svc.random_bytes,
                                      pre=precondition(None))
        return json_response({"key": public(key), "secret": secret}, version=key.version)


@blp.route("/keys/<key_id>/revoke")
class RevokeKeyView(MethodView):
    @blp.response(200, ks.ApiKey)
    @_errors(409, 412, 422)
    @operation(blp, "revokeKey")
    def post(self, key_id: str):
        """Refuse the key from now on (401 `key_invalid`), for good: nothing brings it back. Its
        tables play on. Idempotent; a rotation racing it is refused or read again, never undoes it."""
        svc = service()
        key = api_keys.revoke(svc.api_keys, key_id, now_ms=svc.clock(), pre=precondition(None))
        return json_response(public(key), version=key.version)


@blp.route("/keys/<key_id>/log")
class KeyLogView(MethodView):
    @blp.response(200, CredentialLog)
    @_errors()
    @operation(blp, "getKeyLog")
    def get(self, key_id: str):
        """The key's audit log: its changes (created, rotated, revoked), newest first, with who made them."""
        return json_response({"entries": api_keys.audit_log(service().api_keys, key_id)})
