"""Every error leaves as application/problem+json (RFC 9457) with a stable string ``code``."""
from __future__ import annotations

import logging
from typing import Any

import orjson
from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from service.app.codes import AppCode
from service.app.errors import AppError
from service.eventstore.contract import NotReplicated
from service.games.kernel.codes import DomainCode, KernelCode

from .codes import NO_RETRY_AFTER, STORE_RETRY_AFTER_S, ApiCode, status_of
from .headers import retry_after
from .refusals import body_refusal

log = logging.getLogger("meow.api")

PROBLEM = "application/problem+json"
HTTP_CODES: dict[int, DomainCode] = {  # werkzeug's errors (routing, limits) by their status
    400: ApiCode.INVALID_JSON,
    401: AppCode.UNAUTHORIZED,
    403: AppCode.FORBIDDEN,
    404: KernelCode.NOT_FOUND,
    405: ApiCode.METHOD_NOT_ALLOWED,
    409: ApiCode.CONFLICT,
    412: AppCode.VERSION_CONFLICT,
    413: ApiCode.PAYLOAD_TOO_LARGE,
    414: ApiCode.URI_TOO_LONG,
    415: ApiCode.UNSUPPORTED_MEDIA_TYPE,
    422: KernelCode.INVALID_REQUEST,
    429: AppCode.RATE_LIMITED,
    431: ApiCode.HEADERS_TOO_LARGE,
}


def problem_body(status: int, code: DomainCode, detail: str, title: str | None = None, **extra: Any) -> dict[str, Any]:
    """The problem+json object of every error, the app's and the HTTP server's (service/serving.py)."""
    if not isinstance(code, DomainCode):
        raise TypeError(f"{code!r} is not a declared DomainCode member (service/games/kernel/codes.py)")
    body = {
        "type": f"https://meow.example/problems/{code}",
        "title": title or code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": str(code),
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem(code: DomainCode, detail: str, status: int | None = None, title: str | None = None,
            **extra: Any) -> Response:
    """The problem+json answer of a declared code; its status is the code's own (codes.py) unless
    the caller passes the one it must keep (a stale If-Match, a werkzeug error's). A code that is
    not a declared member is a TypeError (problem_body)."""
    status = status_of(code) if status is None else status
    body = problem_body(status, code, detail, title, **extra)
    # (a nested list's field errors are keyed by item index: OPT_NON_STR_KEYS writes them as "0")
    resp = Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status=status, mimetype=PROBLEM)
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
        return problem(KernelCode.INVALID_REQUEST, f"invalid fields: {names}", errors=errors)
    if status == 400 and messages:
        return problem(ApiCode.INVALID_JSON, "the request body is not valid JSON")
    code = HTTP_CODES.get(status, ApiCode.HTTP_ERROR)
    resp = problem(code, exc.description or code, status=status)
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
                        rx.TryAgainError, rx.ReadOnlyError, NotReplicated)):
        return True
    # a cluster in a failover: a slot nobody serves yet, a node marked failing, redirections that
    # outlived the client's retries, a primary down (ClusterDownError and MasterDownError are
    # ClusterErrors; SlotNotCoveredError is a RedisClusterException)
    # (ClusterCrossSlotError, a command spanning slots, is a bug: not one of these)
    return isinstance(exc, (rx.ClusterError, rx.RedisClusterException, rx.AskError)) or (
        # Redis 6.2 reports a script refused at its first write as "Error running script ... -OOM ..."
        # (a plain ResponseError; 7.0 gives the OOM error itself, which redis-py maps above)
        isinstance(exc, rx.ResponseError) and "OOM command not allowed" in str(exc))


def register(app: Flask) -> None:
    @app.errorhandler(AppError)
    def _app_error(exc: AppError) -> Response:
        resp = problem(exc.code, exc.detail, status=status_of(exc.code, exc.precondition), **exc.extra)
        resp.headers.update({k: v for k, v in exc.headers.items() if k != "Retry-After"})
        if "Retry-After" in exc.headers:  # the refusal's own, whatever the rate limiter's window says
            retry_after(resp, exc.headers["Retry-After"])
        elif exc.code in NO_RETRY_AFTER:  # no delay is true for it: none, whatever the limiter's window
            retry_after(resp, "")
        return resp

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            return from_http_exception(exc)
        refused = body_refusal(exc)  # gunicorn failed to parse the body the app was reading
        if refused is not None:
            log.warning("request refused while reading its body: %s", refused.code)
            return problem(refused.code, refused.detail)
        if _store_unavailable(exc):
            log.warning("event store unavailable: %s", type(exc).__name__)
            what = ("the write was not confirmed by the replicas in time (it may have gone through)"
                    if isinstance(exc, NotReplicated) else "the event store is unreachable or full")
            resp = problem(ApiCode.STORE_UNAVAILABLE,
                           f"{what}: retry later (with the same Idempotency-Key, a write that did go "
                           "through returns its first answer)")
            return retry_after(resp, STORE_RETRY_AFTER_S)
        log.exception("unhandled error")
        return problem(ApiCode.INTERNAL_ERROR, "the server failed to answer this request")
