"""service/serving.py's guards in themselves (the live server: tests/e2e/test_slow_clients.py): open
connections counted per client address and per prefix, a trusted proxy not capped, a cap of 0 off,
and a read timeout answered 408 ``request_timeout`` in problem+json (issue 25, finding 1)."""
from __future__ import annotations

import orjson

from service.api.refusals import ReadTimeout, body_refusal, refusal
from service.serving import ConnectionCaps, Refusal, answer


def test_connections_are_capped_per_address_and_per_prefix() -> None:
    caps = ConnectionCaps(per_address=2, per_prefix=3)
    held = [caps.admit("198.51.100.1"), caps.admit("198.51.100.1")]
    assert all(isinstance(k, tuple) for k in held)
    over = caps.admit("198.51.100.1")
    assert isinstance(over, Refusal) and over.code == "too_many_connections" and over.status == 429
    assert isinstance(caps.admit("198.51.100.2"), tuple)  # the next address, the same /24: its third
    assert isinstance(caps.admit("198.51.100.3"), Refusal)  # the /24 is full
    assert isinstance(caps.admit("203.0.113.9"), tuple)  # another /24
    assert isinstance(caps.admit("2001:db8:0:1::1"), tuple)
    caps.release(held[0])  # a connection closes: its address and prefix may open one more
    assert isinstance(caps.admit("198.51.100.3"), tuple)


def test_ipv6_counts_per_64_and_a_trusted_proxy_or_a_zero_cap_is_not_capped() -> None:
    caps = ConnectionCaps(per_address=0, per_prefix=1, trusted=("10.0.0.0/8",))
    assert isinstance(caps.admit("2001:db8:0:1::1"), tuple)
    assert isinstance(caps.admit("2001:db8:0:1::2"), Refusal)  # the same /64
    assert isinstance(caps.admit("2001:db8:0:2::1"), tuple)
    assert all(caps.admit("10.1.2.3") == () for _ in range(5))  # behind a proxy: the proxy's limits count
    off = ConnectionCaps(per_address=0, per_prefix=0)
    assert all(off.admit("198.51.100.1") == () for _ in range(5))
    assert caps.open == {"p:2001:db8:0:1::/64": 1, "p:2001:db8:0:2::/64": 1}


def test_a_read_timeout_is_408_request_timeout_in_problem_json() -> None:
    for found in (refusal(ReadTimeout("line and headers", 10)), body_refusal(ReadTimeout("body", 2.5))):
        assert found is not None and (found.status, found.code) == (408, "request_timeout")
    raw = answer(refusal(ReadTimeout("body", 2.5)))  # type: ignore[arg-type]
    head, body = raw.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 ") and b"Connection: close" in head
    problem = orjson.loads(body)
    assert problem["code"] == "request_timeout" and "2.5 s" in problem["detail"]


def test_a_flood_of_refused_connections_is_not_a_flood_of_log_lines() -> None:
    """Issue 37 item 8: 1,000 slow connections from one address, re-opened as soon as refused, were
    hundreds of thousands of log lines (one a refusal); now one line a second per process, with the
    count since the last."""
    import socket

    from service.api.codes import ApiCode
    from service.serving import Guards

    class Log:
        def __init__(self) -> None:
            self.lines: list[str] = []

        def warning(self, msg: str, *args: object) -> None:
            self.lines.append(msg % args)

        def debug(self, *args: object) -> None:
            pass

    guards = Guards()
    guards.log = Log()
    refused = Refusal(ApiCode.TOO_MANY_CONNECTIONS, "too many open connections from this address (128)")
    for _ in range(200):
        server, client = socket.socketpair()
        client.close()  # the client is gone: the refusal's linger ends at once
        guards.refuse_at_accept(server, ("198.51.100.1", 4000), refused)
    assert len(guards.log.lines) < 5, guards.log.lines[:3]  # (200 before)
    assert "198.51.100.1" in guards.log.lines[0]
