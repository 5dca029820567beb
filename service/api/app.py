"""The Flask application factory (gunicorn: ``service.api.app:create_app()``)."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask_smorest import Api

from service.api import (
    admin,
    arenas,
    bots,
    components,
    docs_page,
    errors,
    games,
    headers,
    health,
    integrators,
    keys,
    limits,
    operations,
    players,
    spec_shape,
    webhooks,
)
from service.api.codes import ApiCode
from service.api.refusals import DEFAULT, RESPONSES
from service.eventstore.ports import EventStore
from service.settings import Settings
from service.web import page as web_page


class MeowApi(Api):
    """flask-smorest with problem+json errors and string codes instead of its default body."""

    def handle_http_exception(self, error):
        return errors.from_http_exception(error)

    def _init_spec(self, **kwargs: Any) -> None:  # flask-smorest's hook (pinned <0.48)
        """The spec comes out shaped for generators (service/api/spec_shape.py), for every blueprint."""
        super()._init_spec(**kwargs)
        spec_shape.install(self.spec)

    def _register_responses(self) -> None:  # flask-smorest's hook (pinned <0.48)
        """The spec's default response is our problem+json (flask-smorest's own error schema
        and its per-status responses describe bodies this service never sends)."""
        from flask_smorest.utils import prepare_response

        from service.api.schemas import Problem

        response = {"description": DEFAULT, "schema": Problem, "headers": operations.problem_headers(500)}
        prepare_response(response, self.spec, errors.PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
        for r in RESPONSES:  # the HTTP server's own refusals, on every operation
            ex = r.example
            response = {"description": r.description, "schema": Problem,
                        "example": errors.problem_body(ex.status, ex.code, ex.detail)}
            prepare_response(response, self.spec, errors.PROBLEM)
            self.spec.components.response(r.name, response)


def create_app(settings: Settings | None = None, store: EventStore | None = None) -> Flask:
    from service.wiring import build_service

    settings = settings or Settings.from_env()
    app = Flask("meow")
    app.config.update(
        API_TITLE="meow",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_SPEC_OPTIONS={
            "info": {"description": "A card-table service for the Mau-Mau family. The HTTP contract: "
                                    "docs/http-contract.md; the rules of every game: docs/rules/ (in the repository)."},
            "components": {"securitySchemes": operations.SCHEMES},
        },
    )
    docs_page.install(app)  # Swagger UI at /docs from packaged files, the spec at /openapi.json
    web_page.install(app)  # the web table at / (service/web: static files, no operation of the spec)
    api = MeowApi(app)
    components.register(api.spec)
    api.register_blueprint(games.blp)
    api.register_blueprint(health.blp)
    api.register_blueprint(integrators.blp)
    api.register_blueprint(admin.blp)
    api.register_blueprint(players.blp)
    webhooks.install(app, api)
    api.register_blueprint(webhooks.blp)
    api.register_blueprint(bots.blp)
    api.register_blueprint(arenas.blp)
    arenas.install(app)  # an arena's games are unread until it ends
    components.register_requests(api.spec)
    errors.register(app)
    headers.install(app)  # before the gzip's, the metrics' and the limiter's hooks: it runs after them
    # the rate limits first: a request counts (and may be refused) before anything reads its body
    app.extensions["meow.limiter"] = limits.install(app, settings)
    keys.install(app)  # after the limits: a bad Meow-Key is counted by address, then refused
    _json_guard(app)
    _compress(app)
    _instrument(app)
    app.extensions["meow.service"] = (build_service(settings, store) if (store is not None or settings.redis_url)
                                      else _lazy(settings))
    app.extensions["meow.api"] = api
    app.extensions["meow.settings"] = settings
    return app


def _lazy(settings: Settings) -> Any:
    """Without REDIS_URL the app can still be built (e.g. to write openapi.yaml); the service is
    built on first use, once, and fails clearly if REDIS_URL is still missing."""
    from service.wiring import build_service

    class Lazy:
        _svc: Any = None

        def __getattr__(self, name: str) -> Any:
            if Lazy._svc is None:
                Lazy._svc = build_service(settings)
            return getattr(Lazy._svc, name)

    return Lazy()


KNOWN_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))


def _over_limit(raw: bytes) -> bool:
    """A body without Content-Length (chunked) is cut at MAX_CONTENT_LENGTH by werkzeug, silently:
    whether more was sent is one more byte read from the server's stream."""
    from flask import request

    limit = request.max_content_length
    return (request.content_length is None and limit is not None and len(raw) >= limit
            and bool(request.environ["wsgi.input"].read(1)))


def _json_guard(app: Flask) -> None:
    """A body over the limit is 413 ``payload_too_large``, chunked or not; one that is not JSON,
    nests deeper than MAX_JSON_DEPTH or holds a number beyond I-JSON's range is 400
    ``invalid_json`` before any schema sees it (service/api/json_body.py; the stdlib parser would
    raise RecursionError on deep nesting, and the encoder on a 65-bit integer)."""
    import orjson
    from flask import request
    from werkzeug.exceptions import RequestEntityTooLarge

    from service.api.json_body import check_body
    from service.app.errors import AppError

    @app.before_request
    def _check_body() -> None:
        if request.method not in ("POST", "PUT", "PATCH", "DELETE") or not request.is_json:
            return
        raw = request.get_data(cache=True)
        if _over_limit(raw):
            raise RequestEntityTooLarge()
        if not raw.strip():
            return
        try:
            body = orjson.loads(raw)  # C parser: refuses nesting beyond 1024 levels itself
        except orjson.JSONDecodeError:
            raise AppError(ApiCode.INVALID_JSON, "the request body is not valid JSON") from None
        check_body(body)


GZIP_MIN_BYTES = 1024


def _compress(app: Flask) -> None:
    """gzip JSON, problem+json and YAML (the spec) bodies over 1 KB for clients that accept it (Flask-Compress);
    never a stream (server-sent events, NDJSON history). The ETag stays the game's version
    (API.md: ``ETag: "<version>"`` names the version, whatever the encoding)."""
    from flask import Response
    from flask_compress import Compress

    app.config.update(COMPRESS_REGISTER=False, COMPRESS_ALGORITHM=["gzip"], COMPRESS_LEVEL=6,
                      COMPRESS_MIN_SIZE=GZIP_MIN_BYTES, COMPRESS_STREAMS=False,
                      COMPRESS_MIMETYPES=["application/json", errors.PROBLEM, docs_page.YAML],
                      COMPRESS_EVALUATE_CONDITIONAL_REQUEST=False)
    compress = Compress(app)

    @app.after_request
    def _gzip(resp: Response) -> Response:
        if resp.is_streamed and resp.mimetype == "application/json":  # a long answer (http.json_answer)
            return gzip_stream(resp)
        if resp.is_streamed or resp.direct_passthrough:
            return resp
        etag = resp.headers.get("ETag")
        resp = compress.after_request(resp)
        if etag is not None:
            resp.headers["ETag"] = etag
        return resp


def gzip_stream(resp: Any) -> Any:
    """A streamed JSON answer (long events and history answers), gzipped piece by piece for a
    client that accepts gzip, as Flask-Compress gzips the same answer in one piece (the bytes
    decompress to the same JSON; the ETag stays the version)."""
    import zlib

    from flask import request

    resp.vary.add("Accept-Encoding")
    if request.accept_encodings.quality("gzip") <= 0 or "Content-Encoding" in resp.headers:
        return resp
    pieces = resp.response

    def gzipped() -> Any:
        packer = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)  # gzip framing, level 6
        try:
            for piece in pieces:
                out = packer.compress(piece)
                if out:
                    yield out
            yield packer.flush()
        finally:
            pieces.close()  # (stream_with_context's: the request context ends with the answer)

    resp.response = gzipped()
    resp.headers["Content-Encoding"] = "gzip"
    return resp


def _instrument(app: Flask) -> None:
    """Count and time every request by its route template (never by raw path: bounded labels)."""
    import time

    from flask import Response, g, request

    from service import metrics

    @app.before_request
    def _start() -> None:
        g.meow_t0 = time.perf_counter()

    @app.after_request
    def _done(resp: Response) -> Response:
        route = request.url_rule.rule if request.url_rule else "unmatched"
        method = request.method if request.method in KNOWN_METHODS else "other"
        metrics.observe_request(method, route, resp.status_code, time.perf_counter() - g.get("meow_t0", time.perf_counter()))
        return resp
