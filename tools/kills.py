"""Kills on one supervised stack, one per lane (issue 39 item 7): the kill tests (tests/e2e/test_kills.py)
and the bench (bench/fault_workers.py ``--lanes``) share this scene.

One `meow run` (tools/stack.py ``supervised_stack``: its supervisor starts again what dies) with two fast
workers (the first also runs the remote lane), a webhook worker and an arena worker, leases of
``LEASE_MS``. An API key owns everything: bots-only Prší tables (the tables lane), a crazy-eights table
with a remote bot served here (the remote lane: each call answered after ``REMOTE_S``), an arena of
30 games of easy bots (the arena lane), and a webhook receiver here subscribed to ``match.ended`` and
``arena.finished`` (the hooks lane: each delivery answered after ``HOOK_S``, so one is in flight when
its worker dies). A round SIGKILLs each lane's process at a seeded moment and times how long until
that lane moves again (recovery: the kill to the first progress after it; the supervisor's restart
and the lease's retake inside). The outcomes are checked with a generous wait: every table finished
with a history 1..N that verifies (a move doubled would not replay), the arena finished with no read
of it, and every delivery arrived at least once.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests

LEASE_MS = 3000
LANES = {"tables": "fast worker 2", "remote bots": "fast worker 1", "arena games": "arena worker 1",
         "webhooks": "webhook worker 1"}
"""Each lane's process in `meow run` (service/cli.py ``_children``) with ``ENV``."""
ENV = {"MEOW_LEASE_MS": str(LEASE_MS), "MEOW_FAST_WORKERS": "2", "MEOW_SEARCH_WORKERS": "0", "MEOW_HOOK_WORKERS": "1",
       "MEOW_ARENA_WORKERS": "1", "MEOW_ARENA_PARALLEL": "1", "WEB_CONCURRENCY": "1", "MEOW_RATE_LIMITS": "off",
       "MEOW_OUTBOUND_ALLOW_PRIVATE": "1", "MEOW_WEBHOOK_RETRY_BASE_MS": "200", "MEOW_REMOTE_BOT_TIMEOUT_MS": "3000",
       "MEOW_REMOTE_BOT_FAILURES": "1000"}
TABLE = {"bot_delay_ms": {"easy": [40, 40]}, "announce_grace_ms": 0, "round_intermission_s": 0,
         "match_end_mode": "single_round"}
REMOTE_TABLE = {"bot_delay_ms": {"easy": [0, 0]}}
REMOTE_S = 0.15
HOOK_S = 0.3


@dataclass
class Round:
    tables: dict[str, str]  # game id -> owner token
    remote: str  # the remote bot's table
    arena: str
    kills: dict[str, float] = field(default_factory=dict)  # lane -> when killed (monotonic)
    recovered: dict[str, float] = field(default_factory=dict)  # lane -> seconds from the kill to progress
    idle: set[str] = field(default_factory=set)  # lanes whose round's work was all done when killed


class Scene:
    """The stack's key, receiver and remote bot; rounds of tables, a remote table and an arena."""

    def __init__(self, run: Any) -> None:
        from examples.remote_bot import make_server, random_legal
        from service.app import api_keys
        from service.eventstore.arenas import RedisArenas
        from service.settings import Settings
        from service.wiring import build_store, redis_client
        from tools.webhook_receiver import Receiver, Script

        self.run, self.s = run, requests.Session()
        settings = Settings(redis_url=run.env["REDIS_URL"], key_prefix=run.prefix)
        self.store = build_store(settings)
        self.arenas = RedisArenas(redis_client(run.env["REDIS_URL"]), run.prefix)
        self.key = {"Meow-Key": api_keys.create(self.store, "kills", now_ms=int(time.time() * 1000))[1]}
        self.receiver = Receiver(script=Script(delay_s=HOOK_S)).__enter__()
        hook = self.s.post(f"{run.base}/v1/webhooks", headers=self.key,
                           json={"url": self.receiver.url, "events": ["match.ended", "arena.finished"]})
        assert hook.status_code == 201, hook.text
        self.receiver.set_secret(hook.json()["secret"])
        holder: dict[str, str] = {}

        def slow(request: dict[str, Any]) -> Any:
            time.sleep(REMOTE_S)
            return random_legal(request)

        self.bot_server = make_server(lambda: holder.get("secret", ""), 0, slow)
        threading.Thread(target=self.bot_server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        made = self.s.post(f"{run.base}/v1/bots", headers=self.key, json={
            "name": "kills", "url": f"http://127.0.0.1:{self.bot_server.server_address[1]}/meow",
            "games": ["crazy-eights"]})
        assert made.status_code == 201, made.text
        holder["secret"], self.bot_id = made.json()["secret"], made.json()["id"]

    def close(self) -> None:
        self.receiver.__exit__(None, None, None)
        self.bot_server.shutdown()
        self.bot_server.server_close()

    # ------------------------------------------------------------------ a round
    def start(self, tables: int = 3, arena_games: int = 30) -> Round:
        base, ids = self.run.base, {}
        for _ in range(tables):
            g = self.s.post(f"{base}/v1/games", headers=self.key,
                            json={"variant": "prsi", "options": TABLE, "max_players": 2}).json()
            owner = {"Authorization": f"Bearer {g['owner_token']}"}
            for _ in range(2):
                assert self.s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
                                   headers=owner).ok
            assert self.s.post(f"{base}/v1/games/{g['id']}/start", headers=owner).ok
            ids[g["id"]] = g["owner_token"]
        g = self.s.post(f"{base}/v1/games", headers=self.key,
                        json={"variant": "crazy-eights", "options": REMOTE_TABLE, "max_players": 2}).json()
        owner = {"Authorization": f"Bearer {g['owner_token']}", **self.key}
        assert self.s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"remote": self.bot_id}}, headers=owner).ok
        assert self.s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=owner).ok
        assert self.s.post(f"{base}/v1/games/{g['id']}/start", headers=owner).ok
        ids[g["id"]] = g["owner_token"]
        arena = self.s.post(f"{base}/v1/arenas", headers=self.key, json={
            "variant": "prsi-traditional", "options": {"announce_grace_ms": 0}, "seats": 2, "games": arena_games,
            "entrants": [{"strength": "easy", "name": "east"}, {"strength": "easy", "name": "west"}]})
        assert arena.status_code == 202, arena.text
        return Round(ids, g["id"], arena.json()["id"])

    def progress(self, rnd: Round, lane: str) -> int:
        """A number that grows while the lane works (read without touching the arena through the API)."""
        if lane == "tables":
            return sum(self.store.version(gid) for gid in rnd.tables if gid != rnd.remote)
        if lane == "remote bots":  # the remote bot's own moves (seat 0)
            return sum(1 for s in self.store.read_stored(rnd.remote, after=0) if s.command and s.command.get("seat") == 0)
        if lane == "arena games":
            rec = self.arenas.get(rnd.arena) or {}
            return int(rec.get("done", 0)) + (1000 if rec.get("status") != "running" else 0)
        return sum(self.receiver.state.attempts.values())

    def finished(self, rnd: Round, lane: str) -> bool:
        """Whether the lane's work of the round is all done."""
        if lane == "tables":
            return all(self._status(gid) == "finished" for gid in rnd.tables if gid != rnd.remote)
        if lane == "remote bots":
            return self._status(rnd.remote) == "finished"
        if lane == "arena games":
            return (self.arenas.get(rnd.arena) or {}).get("status") != "running"
        return all(self.finished(rnd, other) for other in ("tables", "remote bots", "arena games")) and \
            len(self._delivered(rnd)) >= len(rnd.tables) + 1

    def _status(self, gid: str) -> str:
        return str(self.s.get(f"{self.run.base}/v1/games/{gid}").json()["status"])

    def strike(self, rnd: Round, rng: random.Random, window_s: float = 2.5, timeout_s: float = 120) -> dict[str, float]:
        """SIGKILL every lane's process, in a seeded order at seeded moments within ``window_s``; the
        seconds from each kill until its lane moves again (absent: it did not within ``timeout_s``)."""
        order = list(LANES)
        rng.shuffle(order)
        at = sorted(rng.uniform(0.2, window_s) for _ in order)
        t0, before = time.monotonic(), {}
        for lane, moment in zip(order, at, strict=True):
            time.sleep(max(0.0, t0 + moment - time.monotonic()))
            before[lane] = self.progress(rnd, lane)
            if self.finished(rnd, lane):
                rnd.idle.add(lane)  # nothing left to do: no progress to wait for (still killed)
            self.run.kill(LANES[lane])
            rnd.kills[lane] = time.monotonic()
        deadline = time.monotonic() + timeout_s
        while len(rnd.recovered) + len(rnd.idle) < len(LANES) and time.monotonic() < deadline:
            for lane in LANES:
                if lane not in rnd.recovered and lane not in rnd.idle and self.progress(rnd, lane) > before[lane]:
                    rnd.recovered[lane] = time.monotonic() - rnd.kills[lane]
            time.sleep(0.05)
        return rnd.recovered

    def outcomes(self, rnd: Round, timeout_s: float = 120) -> list[str]:
        """What went wrong (nothing: []), waiting up to ``timeout_s`` for the round to end."""
        deadline = time.monotonic() + timeout_s
        wanted = len(rnd.tables)  # one match.ended per table, and the arena's end

        def done() -> bool:
            ended = all(self.s.get(f"{self.run.base}/v1/games/{gid}").json()["status"] == "finished"
                        for gid in rnd.tables)
            rec = self.arenas.get(rnd.arena) or {}
            return ended and rec.get("status") == "finished" and len(self._delivered(rnd)) >= wanted + 1

        while time.monotonic() < deadline and not done():
            time.sleep(0.25)
        why = []
        for gid, token in rnd.tables.items():
            status = self.s.get(f"{self.run.base}/v1/games/{gid}").json()["status"]
            if status != "finished":
                why.append(f"{gid}: {status}, not finished")
                continue
            seqs = [s.event.seq for s in self.store.read_stored(gid, after=0)]
            if seqs != list(range(1, len(seqs) + 1)):
                why.append(f"{gid}: its history is not 1..N")
            rep = self.s.get(f"{self.run.base}/v1/games/{gid}/verify", headers={"Authorization": f"Bearer {token}"})
            if not rep.ok or not rep.json().get("ok"):
                why.append(f"{gid}: does not verify: {rep.text[:300]}")
        rec = self.arenas.get(rnd.arena) or {}
        if rec.get("status") != "finished":
            why.append(f"arena {rnd.arena}: {rec.get('status')} at {rec.get('done')} games")
        got = self._delivered(rnd)
        if len(got) < wanted + 1:
            why.append(f"{len(got)} of {wanted + 1} deliveries arrived")
        return why

    def _delivered(self, rnd: Round) -> set[str]:
        """The round's games and arena that a delivery arrived for (at least once)."""
        out = set()
        for r in self.receiver.kept():
            body = r.json()
            data = body.get("data", body)
            for ident in (data.get("game", {}).get("id") if isinstance(data.get("game"), dict) else data.get("game"),
                          data.get("arena", {}).get("id") if isinstance(data.get("arena"), dict) else None):
                if ident in rnd.tables or ident == rnd.arena:
                    out.add(str(ident))
        return out


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


Check = Callable[[], bool]
