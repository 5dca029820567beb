"""Issue 25, finding 1: while one client holds a thousand slow connections (headers dribbled, bodies
stalled) from one /24, another client's moves and /healthz answer, and the slow connections are cut:
against gunicorn alone (service/serving.py: read timeouts, connections per address and prefix) and
through nginx (deploy/nginx/meow.conf, with MEOW_TRUSTED_PROXIES naming it).

The API's connection pool is scaled down with the attack (MEOW_WEB_CONNECTIONS: 100 per process,
two processes): a thousand slow connections exhaust it when nothing cuts or caps them, as 23,000
exhausted the default one in the review. The timeouts are 2 s. The attacker: tools/slow_clients.py
(bench/slow_clients.py measures with it).
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from service.games import registry
from tests.e2e.conftest import Stack, live_stack
from tools import nginx
from tools.slow_clients import Attack, Victim, hold, raise_fd_limit
from tools.stack import free_port

SLOW = 1000
TIMEOUT_S = 2
GUARDS = {"MEOW_HEADER_TIMEOUT_S": str(TIMEOUT_S), "MEOW_BODY_TIMEOUT_S": str(TIMEOUT_S),
          "MEOW_MAX_CONNS_PER_ADDRESS": "8", "MEOW_MAX_CONNS_PER_PREFIX": "40", "MEOW_WEB_CONNECTIONS": "100",
          "MEOW_TRUSTED_PROXIES": "127.0.0.1/32"}  # nginx reaches the API from 127.0.0.1; nobody else does
CUT_WITHIN_S = TIMEOUT_S + 15  # generous: every slow connection is closed by then


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    raise_fd_limit(4 * SLOW + 1024)
    with live_stack(redis_url, **GUARDS) as s:
        yield s


@contextlib.contextmanager
def _front(stack: Stack, shape: str) -> Iterator[int]:
    api = int(stack.base.rsplit(":", 1)[1])
    if shape == "gunicorn":
        yield api
        return
    port = free_port()
    with nginx.serve(f"127.0.0.1:{api}", port, connections=4 * SLOW,
                     client_header_timeout=f"{TIMEOUT_S}s", client_body_timeout=f"{TIMEOUT_S}s",
                     **{"limit_conn meow_address": "8", "limit_conn meow_prefix": "40"}):
        yield port


@pytest.mark.parametrize("shape", ["gunicorn", "nginx"])
def test_a_thousand_slow_connections_neither_starve_another_client_nor_stay(stack: Stack, shape: str) -> None:
    with _front(stack, shape) as port:
        victim = Victim(port, timeout=30)
        gid, tokens = victim.table(registry.GAMES[0].variants[0])
        with hold(port, SLOW, CUT_WITHIN_S) as attack:
            answers = [victim.call("GET", "/healthz")[0], victim.move(gid, tokens)[0],
                       victim.call("GET", "/healthz")[0], victim.move(gid, tokens)[0]]
        assert answers == [200, 200, 200, 200]
    _assert_cut(attack, shape)


def _assert_cut(attack: Attack, shape: str) -> None:
    assert attack.still_open == 0, f"{attack.still_open} slow connections still open after {CUT_WITHIN_S} s"
    assert sum(attack.answers.values()) == SLOW
    assert set(attack.answers) <= {408, 429, "none"}, attack.answers  # never served
    assert attack.answers[429] > 0, attack.answers  # over the per-prefix cap: refused at once
    if shape == "gunicorn":
        assert attack.answers[408] > 0, attack.answers  # the ones let in: cut at the timeout, with an answer
