"""End-to-end: what gunicorn refuses before the app runs answers problem+json with a stable code,
on both worker classes (service/serving.py), and the server goes on serving afterwards.

Raw bytes over a socket: no HTTP client would send these requests.
"""
from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import orjson
import pytest
import requests

from service.api.codes import status_of
from tests.e2e.conftest import Stack, live_stack

HOST = b"Host: meow\r\n"
CASES = {
    "request line of 9,000 bytes": (b"GET /v1/variants?pad=" + b"a" * 9000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",
                                    "uri_too_long"),
    "a header of 10,000 bytes": (b"GET /v1/variants HTTP/1.1\r\n" + HOST + b"X-Pad: " + b"a" * 10_000 + b"\r\n\r\n",
                                 "headers_too_large"),
    "150 headers": (b"GET /v1/variants HTTP/1.1\r\n" + HOST + b"".join(b"X-H%d: 1\r\n" % i for i in range(150))
                    + b"\r\n", "headers_too_large"),
    "a garbage request line": (b"\x16\x03\x01 garbage that is not HTTP\r\n\r\n", "malformed_request"),
    "a bad HTTP version": (b"GET /v1/variants HTTP/9.Z\r\n" + HOST + b"\r\n", "malformed_request"),
    "a bad method": (b"G@T /v1/variants HTTP/1.1\r\n" + HOST + b"\r\n", "malformed_request"),
    "a bad header name": (b"GET /v1/variants HTTP/1.1\r\n" + HOST + b"Bad Name: 1\r\n\r\n", "malformed_request"),
    "an invalid Content-Length": (b"POST /v1/games HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
                                  b"Content-Length: 12abc\r\n\r\n{}", "malformed_request"),
    "a bad chunked body": (b"POST /v1/games HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
                           b"Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n", "malformed_request"),
    "an unknown transfer coding": (b"POST /v1/games HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: foo\r\n\r\n",
                                   "not_implemented"),
    "an unknown expectation": (b"POST /v1/games HTTP/1.1\r\n" + HOST + b"Expect: foo\r\nContent-Length: 2\r\n\r\n{}",
                               "expectation_failed"),
}


@pytest.fixture(scope="module", params=["gevent", "gthread"])
def served(request: pytest.FixtureRequest, redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url, MEOW_WEB_WORKER_CLASS=request.param) as s:
        yield s


def _exchange(base: str, data: bytes) -> tuple[int, dict[str, str], bytes, bytes]:
    """Send raw bytes and read the answer until the server closes: status, headers, body, all."""
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        sock.sendall(data)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body, raw


@pytest.mark.parametrize("case", list(CASES))
def test_a_refusal_is_problem_json(served: Stack, case: str) -> None:
    data, code = CASES[case]
    status, headers, body, raw = _exchange(served.base, data)
    assert status == status_of(code), raw[:300]
    assert headers["content-type"] == "application/problem+json", raw[:300]
    assert b"<html" not in raw.lower() and b"Traceback" not in raw
    problem = orjson.loads(body)
    assert {"type", "title", "status", "detail", "code"} <= set(problem)
    assert (problem["status"], problem["code"]) == (status, code)


def test_the_server_still_answers_afterwards(served: Stack) -> None:
    for data, _ in CASES.values():
        _exchange(served.base, data)
    resp = requests.get(f"{served.base}/v1/variants", timeout=30)
    assert resp.status_code == 200 and resp.json()["variants"]
