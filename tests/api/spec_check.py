"""Every response of the API test suite is checked against the committed openapi.yaml: a field the
spec does not describe, a status it does not list or a body of the wrong shape fails the test
that received it (openapi-core; in tests only, never on the service's hot path)."""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import orjson
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
STREAMED = ("text/event-stream", "application/x-ndjson")  # described by content type, checked by their tests
_SPEC: list[OpenAPI] = []


def spec() -> OpenAPI:
    if not _SPEC:
        config = Config(extra_media_type_deserializers={"application/problem+json": orjson.loads})
        _SPEC.append(OpenAPI.from_file_path(str(SPEC_PATH), config=config))
    return _SPEC[0]


def check(method: str, path: str, args: dict[str, Any], status: int, mimetype: str, body: bytes,
          headers: dict[str, str]) -> None:
    """Raise AssertionError naming what in the response the spec does not allow."""
    request = MockRequest("http://localhost", method.lower(), path, args=args)
    response = MockResponse(body, status_code=status, content_type=mimetype, headers=headers)
    try:
        spec().validate_response(request, response)
    except Exception as exc:  # noqa: BLE001 - every validation failure is a test failure
        cause = exc.__cause__ or exc
        errors = getattr(cause, "schema_errors", None) or []
        detail = "; ".join(e.message[:300] for e in errors[:5]) or str(cause)[:500]
        raise AssertionError(f"{method} {path} -> {status}: the response breaks openapi.yaml: {detail}") from None


class SpecCheckingClient(FlaskClient):
    """A Flask test client whose every (non-streamed) response must match openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        resp = super().open(*args, **kwargs)
        # a long-poll's JSON answer is generated (streamed) too: buffered here and checked like the rest
        if resp.mimetype not in STREAMED and (not resp.is_streamed or resp.mimetype == "application/json"):
            req = resp.request
            body = resp.get_data()
            if resp.headers.get("Content-Encoding") == "gzip":  # a big answer, compressed for the wire
                body = gzip.decompress(body)
            check(req.method, req.path, dict(req.args), resp.status_code, resp.mimetype, body, dict(resp.headers))
        return resp
