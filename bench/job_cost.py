"""Worker CPU and Redis commands per bot move (issue 39 item 3), for bots-only tables and for tables
with a human.

Starts its own Redis (embedded, so that its command count is the worker's and this bench's alone) and
one fast worker with the dispatcher (`meow worker --queues fast`, as `meow run` starts it), creates
Prší tables in-process (easy bots, no bot delay; bots-only tables keep the pace floor,
MEOW_BOTS_ONLY_MIN_DELAY_MS), lets them play for ``--seconds`` and prints, per bot move, the worker's
CPU (its /proc utime + stime) and the Redis commands (INFO's total, less this bench's own: every read
of the bench runs while the worker is stopped with SIGSTOP and is counted apart). The human of a table
with a human is played by the bench whenever it is its turn (API cost: not counted). Prints figures;
never fails on timing.

    .venv/bin/python -m bench.job_cost [--tables 8] [--seconds 10]
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import redis

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOT_MOVES = {"CardPlayed", "CardDrawn", "TurnPassed", "PenaltyTaken", "AnnouncementMade"}
OPTIONS = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0}


class Counted:
    """The Redis server's command count, less the commands this bench sends while the worker is stopped."""

    def __init__(self, client: redis.Redis, worker: subprocess.Popen) -> None:
        self.client, self.worker, self.own = client, worker, 0

    def total(self) -> int:
        self.own += 1  # (this INFO itself, counted by the next one)
        return int(self.client.info("stats")["total_commands_processed"])

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The worker stopped while the block runs; the block's commands counted as the bench's."""
        os.kill(self.worker.pid, signal.SIGSTOP)
        try:
            before = self.total()
            yield
            self.own += self.total() - before - 1
        finally:
            os.kill(self.worker.pid, signal.SIGCONT)

    def cpu_s(self) -> float:
        with open(f"/proc/{self.worker.pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime


def bot_moves(app: Any, gid: str, humans: set[int]) -> int:
    store = app.extensions["meow.service"].store
    return sum(1 for e in store.read(gid) if e.type in BOT_MOVES and e.seat is not None and e.seat not in humans
               and (e.data or {}).get("reason", "turn") == "turn")


def new_table(client: Any, human: bool) -> tuple[str, str | None]:
    g = client.post("/v1/games", json={"variant": "prsi", "options": OPTIONS}).json
    auth = {"Authorization": f"Bearer {g['owner_token']}"}
    token = client.post(f"/v1/games/{g['id']}/seats", json={"name": "me"}, headers=auth).json["token"] if human else None
    for _ in range(3 if human else 4):
        client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=auth)
    assert client.post(f"/v1/games/{g['id']}/start", headers=auth).status_code == 200
    return g["id"], token


def play_humans(client: Any, tables: list[tuple[str, str | None]], rng: random.Random) -> None:
    for gid, token in tables:
        if token is None:
            continue
        view = client.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json
        legal = view.get("you", {}).get("legal_actions") or []
        if view["status"] == "running" and legal:
            client.post(f"/v1/games/{gid}/actions", json={**rng.choice(legal), "expected_version": view["version"]},
                        headers={"Authorization": f"Bearer {token}"})


def run(human: bool, tables: int, seconds: float, seed: int) -> dict[str, float]:
    from service.api.app import create_app
    from service.embedded_redis import EmbeddedRedis
    from service.settings import Settings

    server = EmbeddedRedis.start()
    env = {**os.environ, "REDIS_URL": server.url, "MEOW_KEY_PREFIX": "bench", "PYTHONPATH": ROOT}
    env.pop("MEOW_QUEUE_URL", None)
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "fast"], env=env, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        os.environ.update(REDIS_URL=server.url, MEOW_KEY_PREFIX="bench", MEOW_BOTS_ONLY_PER_OWNER="0",
                          MEOW_BOTS_ONLY_PER_ADDRESS="0")
        app = create_app(Settings.from_env())
        client, rng = app.test_client(), random.Random(seed)
        counted = Counted(redis.Redis.from_url(server.url), worker)
        time.sleep(2.0)  # the worker up
        with counted.paused():
            made = [new_table(client, human) for _ in range(tables)]
        time.sleep(1.0)
        with counted.paused():
            moves0 = sum(bot_moves(app, gid, {0} if human else set()) for gid, _ in made)
            cpu0, cmds0, own0 = counted.cpu_s(), counted.total(), counted.own
            stats0 = counted.client.info("commandstats")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if human:
                with counted.paused():
                    play_humans(client, made, rng)
            time.sleep(0.05)
        with counted.paused():
            cpu1, cmds1 = counted.cpu_s(), counted.total()
            stats1 = counted.client.info("commandstats")
            moves1 = sum(bot_moves(app, gid, {0} if human else set()) for gid, _ in made)
        own = counted.own - own0
        moves = max(1, moves1 - moves0)
        calls = {k[len("cmdstat_"):]: (v["calls"] - stats0.get(k, {}).get("calls", 0)) / moves for k, v in stats1.items()}
        top = sorted(calls.items(), key=lambda kv: -kv[1])[:14]
        return {"moves": moves, "cpu_ms": (cpu1 - cpu0) * 1000 / moves, "commands": (cmds1 - cmds0 - own) / moves,
                "top": ", ".join(f"{k} {v:.1f}" for k, v in top)}  # type: ignore[dict-item]
    finally:
        os.kill(worker.pid, signal.SIGCONT)
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=39)
    a = ap.parse_args()
    for label, human in (("bots-only easy table", False), ("table with a human", True)):
        r = run(human, a.tables, a.seconds, a.seed)
        print(f"{label:22} {int(r['moves']):6d} bot moves  {r['cpu_ms']:6.2f} ms worker CPU  "
              f"{r['commands']:6.1f} Redis commands per bot move")
        print(f"{'':22} most called per bot move (bench's reads included): {r['top']}")


if __name__ == "__main__":
    main()
