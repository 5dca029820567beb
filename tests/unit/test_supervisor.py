"""Issue 39 item 5: `meow run`'s supervisor (service/supervisor.py) starts again a process that dies,
after a back-off and with one line, leaving the others alone; a process that keeps dying within the
window stops everything; the embedded Redis SIGKILLed comes back on its port with its data (AOF); the
stop ends the workers, then the API, then Redis. Time is the test's (``step(now)``), not waited for."""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from service.embedded_redis import EmbeddedRedis
from service.supervisor import Child, Supervisor

SLEEP = [sys.executable, "-c", "import time; time.sleep(120)"]
CRASH = [sys.executable, "-c", "raise SystemExit(3)"]


def _dead(proc: object) -> None:
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.02)


def test_a_dead_worker_is_started_again_and_one_that_keeps_dying_stops_everything() -> None:
    said: list[str] = []
    sup = Supervisor([Child("the API", SLEEP, role="api"), Child("fast worker 1", SLEEP), Child("crasher", CRASH)],
                     dict(os.environ), say=said.append, window_s=60, max_deaths=3)
    sup.start()
    try:
        api, fast = sup.children[0].proc, sup.children[1].proc
        assert api is not None and fast is not None
        os.kill(fast.pid, signal.SIGKILL)
        _dead(fast)
        _dead(sup.children[2].proc)
        t = 1000.0
        assert sup.step(t) is None
        assert sorted(said) == ["meow: crasher exited (status 3); starting it again in 1 s",
                                "meow: fast worker 1 exited (status -9); starting it again in 1 s"]
        assert sup.children[1].proc is fast  # not before its back-off
        assert sup.step(t + 1) is None
        assert sup.children[1].proc is not fast and sup.children[1].proc.poll() is None  # type: ignore[union-attr]
        assert sup.children[0].proc is api and api.poll() is None  # the API was left alone
        _dead(sup.children[2].proc)
        assert sup.step(t + 2) is None and said[-1].endswith("starting it again in 2 s")  # backing off
        assert sup.step(t + 4) is None
        _dead(sup.children[2].proc)
        why = sup.step(t + 5)  # a third death within the window
        assert why is not None and why.startswith("crasher stopped 3 times within 60 s")
    finally:
        sup.shutdown(timeout_s=10)
    assert all(c.proc is not None and c.proc.poll() is not None for c in sup.children)


def test_the_embedded_redis_killed_comes_back_with_its_data(tmp_path: Path) -> None:
    import redis

    server = EmbeddedRedis.start(data_dir=str(tmp_path / "redis"), aof=True, own_session=True)
    sup = Supervisor([], {}, server, say=lambda line: None)
    try:
        client = redis.Redis(port=server.port)
        client.config_set("appendfsync", "always")
        client.set("meowtest-kept", "yes")
        port, old = server.port, server.process
        os.kill(old.pid, signal.SIGKILL)
        old.wait(10)
        assert sup.step(1000.0) is None
        assert server.process is not old and server.port == port
        assert client.get("meowtest-kept") == b"yes"
        client.close()
    finally:
        sup.shutdown()
    assert server.process.poll() is not None
