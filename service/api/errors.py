"""Every error leaves as application/problem+json (RFC 9457) with a stable string ``code``."""
from __future__ import annotations

import logging
from typing import Any

import orjson
from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from service.app.errors import AppError

from .codes import status_of
from .refusals import body_refusal

log = logging.getLogger("meow.api")

PROBLEM = "application/problem+json"
HTTP_CODES = {
    400: "invalid_json",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    412: "version_conflict",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    431: "headers_too_large",
}


def problem_body(status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> dict[str, Any]:
    """The problem+json object of every error, the app's and the HTTP server's (service/serving.py)."""
    body = {
        "type": f"https://meow.example/problems/{code}",
        "title": title or code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem(status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> Response:
    body = problem_body(status, code, detail, title, **extra)
    resp = Response(orjson.dumps(body), status=status, mimetype=PROBLEM)
    if status == 401:
        resp.headers["WWW-Authenticate"] = 'Bearer realm="meow"'  # RFC 9110 §11.6.1
    if "version" in extra and extra["version"] is not None:
        resp.headers["ETag"] = f'"{extra["version"]}"'
    return resp


def from_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    data = getattr(exc, "data", None) or {}
    messages = data.get("messages")
    if status == 422 and messages:
        errors = _field_errors(messages)
        names = ", ".join(e["field"] for e in errors)
        return problem(422, "invalid_request", f"invalid fields: {names}", errors=errors)
    if status == 400 and messages:
        return problem(400, "invalid_json", "the request body is not valid JSON")
    code = HTTP_CODES.get(status, "http_error")
    resp = problem(status, code, exc.description or code)
    allowed = getattr(exc, "valid_methods", None)
    if status == 405 and allowed:
        resp.headers["Allow"] = ", ".join(allowed)  # RFC 9110 §15.5.6
    return resp


def _field_errors(messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Flatten webargs' {location: {field: [msgs]}} into [{field, messages}]."""
    out: list[dict[str, Any]] = []
    for location, fields in messages.items():
        if not isinstance(fields, dict):
            out.append({"field": location, "messages": fields})
            continue
        for name, msgs in fields.items():
            out.append({"field": name, "in": location, "messages": msgs})
    return out


def _store_unavailable(exc: Exception) -> bool:
    """Redis unreachable (refused, timed out, no pooled connection) or refusing writes because
    it reached maxmemory (noeviction): 503, never a stack trace. An append is one Lua script, so a
    write either happened whole or not at all; a retry with its Idempotency-Key tells which."""
    import redis.exceptions as rx

    if isinstance(exc, (rx.ConnectionError, rx.TimeoutError, rx.OutOfMemoryError, rx.BusyLoadingError,
                        rx.ClusterDownError, rx.TryAgainError, rx.MasterDownError)):
        return True
    # Redis 6.2 reports a script refused at its first write as "Error running script ... -OOM ..."
    # (a plain ResponseError; 7.0 gives the OOM error itself, which redis-py maps above)
    return isinstance(exc, rx.ResponseError) and "OOM command not allowed" in str(exc)


def register(app: Flask) -> None:
    @app.errorhandler(AppError)
    def _app_error(exc: AppError) -> Response:
        resp = problem(status_of(exc.code, exc.precondition), exc.code, exc.detail, **exc.extra)
        resp.headers.update(exc.headers)
        return resp

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            return from_http_exception(exc)
        refused = body_refusal(exc)  # gunicorn failed to parse the body the app was reading
        if refused is not None:
            log.warning("request refused while reading its body: %s", refused.code)
            return problem(refused.status, refused.code, refused.detail)
        if _store_unavailable(exc):
            log.warning("event store unavailable: %s", type(exc).__name__)
            resp = problem(status_of("store_unavailable"), "store_unavailable",
                           "the event store is unreachable or full: retry later (with the same "
                           "Idempotency-Key, a write that did go through returns its first answer)")
            resp.headers["Retry-After"] = "1"
            return resp
        log.exception("unhandled error")
        return problem(500, "internal_error", "the server failed to answer this request")
