"""A request counts against the rate limits before anything reads its body (a slow body cannot
slip past them), and a body over the limit is 413 however it is framed (issue 25, findings 1 and
6). The live server's timeouts and caps: tests/e2e/test_slow_clients.py."""
from __future__ import annotations

import io

import orjson

from service.settings import Settings
from tests.api.test_hostile_input import _limited_table

LIMIT = Settings().max_body_bytes


class Unreadable(io.RawIOBase):
    """A body that must not be read: reading it fails the test's request."""

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def, override]
        raise AssertionError("the body was read")


def test_a_request_over_the_rate_limit_is_refused_before_its_body_is_read() -> None:
    table = _limited_table(rate_creates_per_address="1/minute")
    assert table.client.post("/v1/games", json={"variant": "prsi"}).status_code == 201
    r = table.client.post("/v1/games", data=b'{"variant": "prsi"}', content_type="application/json",
                          environ_overrides={"wsgi.input": Unreadable()})
    assert (r.status_code, r.json["code"]) == (429, "rate_limited"), r.get_data()


def _chunked(table, body: bytes):  # type: ignore[no-untyped-def]
    """As gunicorn hands a chunked body to the app: its length unknown, ``wsgi.input_terminated``."""
    return table.client.post("/v1/games", data=body, content_type="application/json",
                             headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})


def _create(size: int) -> bytes:
    """A create body of exactly ``size`` bytes (the name pads it; too long a name is 422, not 413)."""
    bare = orjson.dumps({"variant": "prsi", "name": ""})
    return bare[:-2] + b" " * (size - len(bare)) + b'"}'


def test_a_chunked_body_over_the_limit_is_413_and_one_at_the_limit_is_read() -> None:
    table = _limited_table()
    over = _chunked(table, _create(LIMIT + 1))
    assert (over.status_code, over.json["code"]) == (413, "payload_too_large"), over.get_data()[:200]
    at = _chunked(table, _create(LIMIT))
    assert at.status_code != 413 and at.json["code"] != "invalid_json", at.get_data()[:300]
