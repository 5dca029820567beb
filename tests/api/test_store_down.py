"""Redis down: every route that needs the store answers 503 problem+json ``store_unavailable``
with Retry-After, never a stack trace; liveness still answers, readiness says not ready."""
from __future__ import annotations

import socket
from typing import Any

from service.api.app import create_app
from service.settings import Settings

from .spec_check import SpecCheckingClient


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens once the socket is closed


def test_an_unreachable_store_is_503_everywhere():
    app = create_app(Settings(redis_url=f"redis://127.0.0.1:{_closed_port()}/0"))
    app.test_client_class = SpecCheckingClient
    c = app.test_client()
    gid = "0123456789abcdef"
    answers = [
        c.get("/v1/games"),
        c.post("/v1/games", json={"variant": "prsi"}),
        c.get(f"/v1/games/{gid}"),
        c.post(f"/v1/games/{gid}/seats", json={"name": "ann"}),
        c.get(f"/v1/games/{gid}/events?after=0"),
        c.get(f"/v1/games/{gid}/state?at=1"),
    ]
    for r in answers:
        assert r.status_code == 503, (r.request.path, r.status_code, r.data[:300])
        assert r.mimetype == "application/problem+json" and r.json["code"] == "store_unavailable"
        assert r.headers.get("Retry-After") == "1", (r.request.path, dict(r.headers), r.json)
        assert b"Traceback" not in r.data and b"redis" not in r.data.lower()
    assert c.get("/healthz").status_code == 200
    ready = c.get("/readyz")
    assert ready.status_code == 503 and ready.json["code"] == "not_ready"


def _cluster_errors() -> list[type[Exception]]:
    """Every error redis-py's cluster client raises while a cluster fails over (derived from
    redis.exceptions: ClusterError and RedisClusterException, and what a slot's move answers)."""
    import redis.exceptions as rx

    found = {c for c in vars(rx).values() if isinstance(c, type) and issubclass(c, (rx.ClusterError, rx.RedisClusterException))}
    return sorted(found | {rx.TryAgainError, rx.AskError, rx.MovedError}, key=lambda c: c.__name__)


class _FailingStore:
    """A store every call of which raises ``exc`` (a cluster whose node for this slot is away)."""

    def __init__(self, exc: type[Exception]) -> None:
        self.exc = exc

    def __getattr__(self, name: str) -> Any:
        def fail(*args: object, **kw: object) -> None:
            raise self.exc("1234 127.0.0.1:7000") if self.exc.__name__ in ("AskError", "MovedError") else self.exc("down")
        return fail


def test_every_cluster_error_is_503():
    """Issue 26: SlotNotCoveredError, RedisClusterException, ClusterError (and its kin) were 500s."""
    errors = _cluster_errors()
    assert {e.__name__ for e in errors} >= {"SlotNotCoveredError", "RedisClusterException", "ClusterError",
                                            "ClusterDownError", "MasterDownError", "TryAgainError"}
    gid = "0123456789abcdef"
    for exc in errors:
        app = create_app(Settings(), store=_FailingStore(exc))
        app.test_client_class = SpecCheckingClient
        c = app.test_client()
        for r in (c.get(f"/v1/games/{gid}"), c.post("/v1/games", json={"variant": "prsi"}),
                  c.get(f"/v1/games/{gid}/events?after=0")):
            assert r.status_code == 503, (exc.__name__, r.request.path, r.status_code, r.data[:300])
            assert r.json["code"] == "store_unavailable" and r.headers.get("Retry-After") == "1"
