"""What gunicorn refuses before the app runs has a stable code, a status from api/codes.py, and a
place in the spec (the live answers: tests/e2e/test_server_refusals.py)."""
from __future__ import annotations

import inspect

import orjson
import pytest
import yaml
from gunicorn.http import errors as g

from service.api.codes import STATUS
from service.api.refusals import DEFAULT, RESPONSES, body_refusal, refusal
from service.serving import WORKERS, answer, worker_class

APP_FAULTS = (g.InvalidResponseHeader, g.InvalidResponseHeaderName)  # 500: the app sent a bad header


def _parse_errors() -> list[type[BaseException]]:
    """Every request error gunicorn defines (derived from its module, so a new one is checked too)."""
    return [c for c in vars(g).values() if inspect.isclass(c) and issubclass(c, g.ParseException)
            and c is not g.ParseException and not issubclass(c, APP_FAULTS)]


def _bare(kind: type[BaseException]) -> BaseException:
    return kind.__new__(kind)  # no constructor arguments: refusal looks at the class only


@pytest.fixture(scope="module")
def spec() -> dict:
    from service.cli import openapi_yaml

    return yaml.safe_load(openapi_yaml())


def test_every_request_error_of_gunicorn_has_a_listed_code():
    kinds = _parse_errors()
    assert len(kinds) > 15  # the scan really finds gunicorn's errors
    for kind in kinds:
        found = refusal(_bare(kind))
        assert found is not None, f"gunicorn's {kind.__name__} has no refusal in service/api/refusals.py"
        assert found.code in STATUS, f"{found.code} is not in service/api/codes.py"
    assert all(refusal(_bare(k)) is None for k in APP_FAULTS)  # the app's fault: internal_error


@pytest.mark.parametrize("exc, status, code", [
    (g.LimitRequestLine(8192, 4094), 414, "uri_too_long"),
    (g.LimitRequestHeaders("limit request headers fields"), 431, "headers_too_large"),
    (g.LimitRequestHeaders("limit request headers fields size"), 431, "headers_too_large"),
    (g.InvalidRequestLine("\x01garbage"), 400, "malformed_request"),
    (g.InvalidHTTPVersion("HTTP/9.Z"), 400, "malformed_request"),
    (g.InvalidHeader("CONTENT-LENGTH"), 400, "malformed_request"),
    (g.InvalidChunkSize(b"ZZ"), 400, "malformed_request"),
    (g.ExpectationFailed("foo"), 417, "expectation_failed"),
    (g.UnsupportedTransferCoding("foo"), 501, "not_implemented"),
])
def test_statuses_are_gunicorns_own(exc, status, code):
    found = refusal(exc)
    assert found is not None and (found.status, found.code) == (status, code)


def test_details_echo_nothing_the_client_sent():
    secret = "s3cr3t-client-bytes"
    for kind in _parse_errors():
        exc = _bare(kind)
        for attr in ("hdr", "req", "method", "version", "data", "msg", "info"):
            setattr(exc, attr, secret)
        assert secret not in refusal(exc).detail
    assert "Content-Length" in refusal(g.InvalidHeader("CONTENT-LENGTH")).detail


def test_inside_the_app_only_a_body_gunicorn_could_not_parse_is_the_clients_fault():
    import ssl

    assert body_refusal(g.InvalidChunkSize(b"ZZ")).code == "malformed_request"
    assert body_refusal(ssl.SSLError("the app's own TLS, to Redis")) is None
    assert body_refusal(ValueError("a bug")) is None


def test_the_answer_is_problem_json_and_closes_the_connection():
    raw = answer(refusal(g.LimitRequestLine(9000, 4094)))
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 414 ")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close" and int(headers["content-length"]) == len(body)
    problem = orjson.loads(body)
    assert set(problem) == {"type", "title", "status", "detail", "code"}
    assert problem["status"] == 414 and problem["code"] == "uri_too_long"
    assert problem["type"].endswith("/uri_too_long")


def test_every_refusal_code_is_in_the_spec(spec):
    responses = spec["components"]["responses"]
    codes = {refusal(_bare(k)).code for k in _parse_errors()} - {"forbidden", "internal_error"}
    listed = {r.example.code for r in RESPONSES}
    assert {"malformed_request", "uri_too_long", "headers_too_large"} <= listed
    for r in RESPONSES:
        media = responses[r.name]["content"]["application/problem+json"]
        assert media["schema"] == {"$ref": "#/components/schemas/Problem"}
        assert media["example"]["code"] == r.example.code and media["example"]["status"] == r.example.status
        assert f"`{r.example.code}`" in responses[r.name]["description"]
    assert responses["DEFAULT_ERROR"]["description"] == DEFAULT
    for code in codes - listed:  # rarer ones: named by every operation's default response
        assert f"`{code}`" in DEFAULT


def test_every_operation_lists_the_servers_refusals(spec):
    ops = [op for item in spec["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op]
    assert len(ops) > 10
    for op in ops:
        for r in RESPONSES:
            assert op["responses"][str(r.example.status)] == {"$ref": f"#/components/responses/{r.name}"}, \
                (op["operationId"], r.name)


def test_both_worker_classes_answer_in_problem_json():
    from gunicorn.util import load_class

    from service.serving import ProblemRefusals

    for name in ("gevent", "gthread"):
        assert issubclass(load_class(worker_class(name)), ProblemRefusals)
    assert set(WORKERS) == {"gevent", "gthread"}
    assert worker_class("gunicorn.workers.sync.SyncWorker") == "gunicorn.workers.sync.SyncWorker"


def test_every_refusal_fits_every_operation_of_the_committed_spec(spec):
    """The bytes serving.py writes, checked like every answer of the API suite (openapi-core)."""
    from tests.api.spec_check import check

    samples = {refusal(_bare(k)).code: refusal(_bare(k)) for k in _parse_errors()}
    for path, item in spec["paths"].items():
        concrete = path.replace("{game_id}", "0123456789abcdef").replace("{seat}", "0").replace("{bot_id}", "b0123456789ab")
        for method in (m for m, op in item.items() if isinstance(op, dict) and "operationId" in op):
            for found in samples.values():
                body = answer(found).split(b"\r\n\r\n", 1)[1]
                check(method, concrete, {}, found.status, "application/problem+json", body, {})
