"""Killed work-horses and killed workers: the bot's move appears exactly once, within 30 s."""
from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tools import stack

# no ace follow-up and no skip: every bot turn is exactly one command, so a duplicate would show
FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0, "ace_plays_again": False,
        "eight_skips": False}


class Crashable:
    def __init__(self, redis_url: str, tmp: Path) -> None:
        self.prefix = f"meowtest-crash-{uuid.uuid4().hex[:8]}"
        self.redis_url = redis_url
        self.marker = tmp / "held-jobs"
        self.env = dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=self.prefix, MEOW_QUEUE=self.prefix,
                        PYTHONPATH=stack.ROOT, MEOW_FAULT_PAUSE_MS="4000", MEOW_FAULT_MARKER=str(self.marker))
        port = stack.free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.web = stack.start_api(self.env, port, workers=1)
        self.workers: list[subprocess.Popen] = []
        stack.wait_ready(self.base, [self.web])

    def worker(self, cls: str) -> subprocess.Popen:
        proc = stack.start_worker({**self.env, "MEOW_WORKER_CLASS": cls})
        self.workers.append(proc)
        return proc

    def held(self, timeout: float = 30) -> int:
        """The pid of the process running the held bot job (the work-horse, or the worker itself)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.marker.exists() and self.marker.read_text().strip():
                return int(self.marker.read_text().split()[0])
            time.sleep(0.05)
        raise AssertionError("no bot job started")

    def close(self, redis_url: str) -> None:
        stack.stop([self.web, *self.workers])
        stack.delete_keys(redis_url, self.prefix)


@pytest.fixture
def crashable(redis_url: str, tmp_path: Path) -> Iterator[Crashable]:
    c = Crashable(redis_url, tmp_path)
    yield c
    c.close(redis_url)


def _bots_turn(c: Crashable) -> tuple[str, str, int]:
    """A human and a bot; the human moves first if needed so that the bot's turn is open."""
    s = requests.Session()
    g = s.post(f"{c.base}/v1/games", json={"variant": "prsi", "options": FAST}).json()
    gid, owner = g["id"], g["owner_token"]
    me = s.post(f"{c.base}/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Authorization": f"Bearer {owner}"}).json()
    s.post(f"{c.base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers={"Authorization": f"Bearer {owner}"})
    s.post(f"{c.base}/v1/games/{gid}/start", headers={"Authorization": f"Bearer {owner}"})
    view = s.get(f"{c.base}/v1/games/{gid}", headers={"Authorization": f"Bearer {me['token']}"}).json()
    if view["turn"]["seat"] == me["seat"]:
        draw = next(a for a in view["you"]["legal_actions"] if a["type"] == "draw")
        s.post(f"{c.base}/v1/games/{gid}/actions", json=draw, headers={"Authorization": f"Bearer {me['token']}"})
    view = s.get(f"{c.base}/v1/games/{gid}").json()
    assert view["turn"]["seat"] == 1 - me["seat"]
    return gid, me["token"], view["version"]


def _bot_moves_once(c: Crashable, gid: str, version: int, bot: int, redis_url: str) -> None:
    """Within 30 s the bot's turn ends, by exactly one recorded command of the bot's seat."""
    import redis

    from service.eventstore.redis_store import RedisEventStore

    store = RedisEventStore(redis.Redis.from_url(redis_url), prefix=c.prefix)
    deadline = time.monotonic() + 30
    moved_on = False
    while time.monotonic() < deadline and not moved_on:
        requests.get(f"{c.base}/v1/games/{gid}/events", params={"after": version, "wait": 2})
        moved_on = any(s.event.type in ("TurnStarted", "RoundEnded") and s.event.data.get("seat") != bot
                       for s in store.read_stored(gid, after=version))
    assert moved_on, "the game did not move on within 30 s"
    time.sleep(1.5)  # a duplicate move would have landed by now
    stored = store.read_stored(gid, after=version)
    # the bot's turn runs from the first stored event to the next turn (or the round's end)
    end = next(i for i, s in enumerate(stored) if s.event.type in ("TurnStarted", "RoundEnded"))
    commands = [s.command for s in stored[:end] if s.command]
    assert len(commands) == 1 and commands[0]["seat"] == bot, commands


def test_killed_work_horse_mid_bot_turn(crashable: Crashable) -> None:
    crashable.worker("fork")
    gid, _token, version = _bots_turn(crashable)
    horse = crashable.held()
    os.kill(horse, signal.SIGKILL)
    _bot_moves_once(crashable, gid, version, 1, crashable.redis_url)


def test_killed_worker_and_a_new_one(crashable: Crashable) -> None:
    first = crashable.worker("simple")
    gid, _token, version = _bots_turn(crashable)
    pid = crashable.held()
    assert pid == first.pid
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    crashable.worker("simple")
    _bot_moves_once(crashable, gid, version, 1, crashable.redis_url)
