"""Fault scenario: whole workers and forked work-horses killed mid bot turn (issue 16 item 3).

Real `meow worker` processes on a real Redis (the bench's DB under a unique prefix) take the bot
turns of tables a human shares with an easy bot (no ace follow-up, no skip: every bot turn is one
command). ``MEOW_FAULT_PAUSE_MS`` holds the first run of each bot job (workers/tasks.py), so every
worker of a round is holding one when the round SIGKILLs them all: the workers themselves
(``simple``: a new worker is started for each) or their work-horses (``fork``: the worker lives
on). Checked for every killed turn: within 30 s the table moves on, and the bot's turn holds
exactly one recorded command, the bot's (the lease runs out, the dispatcher hands the job out
again, the re-run acts once; a run that had acted would make the re-run a no-op).

Kills per lane (issue 39 item 7): ``python -m bench.fault_workers --lanes [--rounds 5] [--seed 39]``
runs one supervised `meow run` (tools/kills.py) and, each round, SIGKILLs the process of every lane
(tables, remote, arena, hooks) at seeded random moments; the supervisor starts each again and the
lane's leases bring its work back. Printed: each lane's recovery (the kill to the lane's next
progress) per kill, its median and max, and whether every round's outcomes held (tables finished and
verified, the arena finished unread, every delivery arrived).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.api import RedisUnderTest
from service.api.app import create_app
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
        "ace_plays_again": False, "eight_skips": False, "turn_timeout_s": None}  # (no timer wakes an old table)
PAUSE_MS = 3000


class Fleet:
    def __init__(self, redis_ut: RedisUnderTest) -> None:
        self.prefix = f"{redis_ut.uid}-w"
        self.marker = Path(tempfile.mkdtemp(prefix="meow-kills-")) / "held"
        self.env = dict(os.environ, REDIS_URL=redis_ut.url, MEOW_KEY_PREFIX=self.prefix, MEOW_QUEUE=self.prefix,
                        PYTHONPATH=str(ROOT), MEOW_FAULT_PAUSE_MS=str(PAUSE_MS), MEOW_FAULT_MARKER=str(self.marker))
        self.app = create_app(Settings(redis_url=redis_ut.url, key_prefix=self.prefix, queue_name=self.prefix,
                                       rate_limits="off", compact_after_s=-1))
        self.svc = self.app.extensions["meow.service"]
        self.procs: list[subprocess.Popen] = []

    def worker(self, cls: str) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env={**self.env, "MEOW_WORKER_CLASS": cls},
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        return proc

    def held(self) -> list[tuple[int, str]]:
        if not self.marker.exists():
            return []
        return [(int(p), tag) for p, tag in (line.split() for line in self.marker.read_text().splitlines() if line.strip())]

    def bots_turn(self) -> tuple[str, int, int]:
        """A table whose bot has its turn open; (game, version, the bot's seat)."""
        c = self.app.test_client()
        g = c.post("/v1/games", json={"variant": "prsi", "options": FAST}).json
        gid, owner = g["id"], {"Authorization": f"Bearer {g['owner_token']}"}
        me = c.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers=owner).json
        c.post(f"/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers=owner)
        c.post(f"/v1/games/{gid}/start", headers=owner)
        view = c.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {me['token']}"}).json
        if view["turn"]["seat"] == me["seat"]:
            draw = next(a for a in view["you"]["legal_actions"] if a["type"] == "draw")
            c.post(f"/v1/games/{gid}/actions", json=draw, headers={"Authorization": f"Bearer {me['token']}"})
        return gid, c.get(f"/v1/games/{gid}").json["version"], 1 - me["seat"]

    def moved_once(self, gid: str, version: int, bot: int, deadline: float) -> str | None:
        """None if the bot's turn ended by exactly one command of the bot before ``deadline``; else why not."""
        while time.monotonic() < deadline:
            stored = self.svc.store.read_stored(gid, after=version)
            if any(s.event.type in ("TurnStarted", "RoundEnded") and s.event.data.get("seat") != bot for s in stored):
                time.sleep(1.0)  # a duplicate would have landed by now
                stored = self.svc.store.read_stored(gid, after=version)
                end = next(i for i, s in enumerate(stored) if s.event.type in ("TurnStarted", "RoundEnded"))
                commands = [s.command for s in stored[:end] if s.command]
                if len(commands) != 1 or commands[0].get("seat") != bot:
                    return f"{gid}: the bot's turn has commands {commands}"
                return None
            time.sleep(0.1)
        return f"{gid}: the table did not move on within 30 s"

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()


def worker_kills(kills: int, per_round: int, out: Any) -> Any:
    """``out`` is a bench.faults.Outcome; one trial per killed turn (each round: half simple workers,
    half forking ones)."""
    redis_ut = RedisUnderTest()
    fleet = Fleet(redis_ut)
    t0 = time.perf_counter()
    try:
        while out.trials < kills:
            workers = [fleet.worker(("simple", "fork")[i % 2]) for i in range(per_round)]
            seen = len(fleet.held())
            tables = [fleet.bots_turn() for _ in range(per_round)]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not all(
                    any(tag.startswith(gid) for _, tag in fleet.held()[seen:]) for gid, _, _ in tables):
                time.sleep(0.05)
            held = fleet.held()[seen:]
            pids = {w.pid for w in workers}
            for pid, _tag in held:
                os.kill(pid, signal.SIGKILL)
                out.statuses["killed workers (simple)" if pid in pids else "killed work-horses (fork)"] += 1
            for pid, _tag in held:  # a killed worker is gone: a new one takes over
                if pid in pids:
                    next(w for w in workers if w.pid == pid).wait(10)
                    fleet.worker("simple")
            deadline = time.monotonic() + 30
            for gid, version, bot in tables:
                out.trials += 1
                why = fleet.moved_once(gid, version, bot, deadline)
                if why is None and any(tag.startswith(gid) for _, tag in held):
                    out.ok += 1
                else:
                    out.fail(why or f"{gid}: its bot job was not held and killed")
            for p in fleet.procs:
                if p.poll() is None:
                    p.terminate()
            for p in fleet.procs:  # outcomes are measured above; a stop that hangs is counted, then killed
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:  # seen twice under the loaded full suite, never alone; suspected:
                    # a forking worker's horse forked while the parent's lane threads held a lock (the
                    # default worker class is simple, which never forks)
                    out.statuses["workers that did not stop on SIGTERM within 15 s (killed)"] += 1
                    p.kill()
                    p.wait(15)
            fleet.procs.clear()
    finally:
        fleet.close()
        out.seconds = time.perf_counter() - t0
        redis_ut.cleanup()
    return out


def lane_kills(rounds: int, seed: int) -> int:
    """``rounds`` rounds of one kill per lane on one supervised stack; prints the recovery per lane; 1
    if an outcome failed."""
    import statistics

    from tools import kills
    from tools.stack import supervised_stack

    redis_ut = RedisUnderTest()
    rng = kills.seeded(seed)
    times: dict[str, list[float]] = {lane: [] for lane in kills.LANES}
    failed = 0
    t0 = time.perf_counter()
    try:
        with supervised_stack(redis_ut.url, tag="bench-kills", **kills.ENV) as run:
            scene = kills.Scene(run)
            try:
                for k in range(rounds):
                    rnd = scene.start(tables=3, arena_games=30)
                    got = scene.strike(rnd, rng)
                    problems = scene.outcomes(rnd)
                    stuck = [lane for lane in kills.LANES if lane not in got and lane not in rnd.idle]
                    problems += [f"{lane}: no progress within 120 s of its kill" for lane in stuck]
                    failed += bool(problems)
                    print(f"round {k + 1}: " + ", ".join(
                        f"{lane} {got[lane]:.1f} s" if lane in got else f"{lane} idle" if lane in rnd.idle else f"{lane} -"
                        for lane in kills.LANES)
                          + (f"; PROBLEMS: {problems}" if problems else "; outcomes ok"), flush=True)
                    for lane, s in got.items():
                        times[lane].append(s)
            finally:
                scene.close()
    finally:
        redis_ut.cleanup()
    print(f"\n{rounds * len(kills.LANES)} kills (seed {seed}, leases {kills.LEASE_MS} ms), "
          f"{time.perf_counter() - t0:.0f} s; recovery from the SIGKILL to the lane's next progress:")
    print("| lane | kills | recovered (the others: the lane's work was done) | median | max |\n|---|---|---|---|---|")
    for lane, ts in times.items():
        med = f"{statistics.median(ts):.1f} s" if ts else "-"
        top = f"{max(ts):.1f} s" if ts else "-"
        print(f"| {lane} | {rounds} | {len(ts)} | {med} | {top} |")
    print(f"rounds whose outcomes failed: {failed} of {rounds}")
    return 1 if failed else 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="worker kills: one per lane per round, on one supervised stack")
    ap.add_argument("--lanes", action="store_true", help="the per-lane kills (the only mode run from here)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of four kills (default 5: 20 kills)")
    ap.add_argument("--seed", type=int, default=39)
    args = ap.parse_args()
    raise SystemExit(lane_kills(args.rounds, args.seed))
