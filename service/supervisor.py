"""`meow run`'s supervisor (issue 39 item 5; docs/reliability.md, "`meow run` supervises"): it owns the
embedded Redis, the API (gunicorn) and the workers, starts again whatever dies, and stops them all in
order on Ctrl-C.

- A worker or the API that exits on its own is started again after a back-off (1 s, doubling to 30 s
  while it keeps dying), with one line saying so; the others go on (the API keeps answering while a
  worker is away: its work waits in Redis, under leases).
- The embedded Redis that dies is started again on the same port and data folder (its AOF brings the
  data back); one that cannot start again stops everything, saying so.
- Only a process that dies ``MAX_DEATHS`` times within ``WINDOW_S`` stops everything (status 1): a
  fault that a restart cannot mend (a port taken, a setting refused) is not retried forever.
- Ctrl-C (SIGINT) or SIGTERM stops the workers, then the API, then the embedded Redis, each waited
  for. Every child runs in a session of its own, so a terminal's Ctrl-C reaches the launcher alone
  (not Redis before the workers, nor workers mid-job with a KeyboardInterrupt); a child whose launcher
  dies gets SIGTERM (Linux: PR_SET_PDEATHSIG).
"""
from __future__ import annotations

import contextlib
import ctypes
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

WINDOW_S = 60.0
MAX_DEATHS = 5
BACKOFF_S = (1.0, 30.0)  # the first restart's delay, and the longest


def die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Child:
    """One supervised process: its name in messages, its command, its role (``worker`` or ``api``)."""

    name: str
    argv: list[str]
    role: str = "worker"
    proc: subprocess.Popen | None = None
    deaths: deque[float] = field(default_factory=deque)
    restart_at: float | None = None


class Supervisor:
    """Start, watch and stop ``children`` (with ``env``) and the embedded Redis (``redis``, if any)."""

    def __init__(self, children: Sequence[Child], env: dict[str, str], redis: Any = None,
                 say: Callable[[str], None] | None = None, on_change: Callable[[], object] | None = None,
                 window_s: float = WINDOW_S, max_deaths: int = MAX_DEATHS,
                 backoff_s: tuple[float, float] = BACKOFF_S) -> None:
        self.children, self.env, self.redis = list(children), env, redis
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.on_change = on_change or (lambda: None)
        self.window_s, self.max_deaths, self.backoff_s = window_s, max_deaths, backoff_s
        self.redis_deaths: deque[float] = deque()
        self.stopping = False

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)
        self.on_change()

    def _spawn(self, child: Child) -> None:
        child.proc = subprocess.Popen(child.argv, env=self.env, start_new_session=True,
                                      preexec_fn=die_with_parent if sys.platform.startswith("linux") else None)
        child.restart_at = None

    def pids(self) -> dict[str, int]:
        return {c.name: c.proc.pid for c in self.children if c.proc is not None and c.proc.poll() is None}

    def stop(self, *_: object) -> None:
        self.stopping = True

    def watch(self, poll_s: float = 0.2) -> int:
        """Until ``stop()`` (0) or a process that keeps dying (1)."""
        while not self.stopping:
            why = self.step(time.monotonic())
            if why:
                self.say(f"meow: {why}; stopping everything")
                return 1
            time.sleep(poll_s)
        return 0

    def step(self, now: float) -> str | None:
        """One look at every process: note the deaths, start again those due; why everything must stop."""
        why = self._redis(now)
        if why:
            return why
        changed = False
        for child in self.children:
            proc = child.proc
            if proc is not None and child.restart_at is None and proc.poll() is not None:
                n = self._died(child.deaths, now)
                if n >= self.max_deaths:
                    return f"{child.name} stopped {n} times within {self.window_s:.0f} s (last status {proc.returncode})"
                delay = min(self.backoff_s[1], self.backoff_s[0] * 2 ** (n - 1))
                child.restart_at = now + delay
                self.say(f"meow: {child.name} exited (status {proc.returncode}); starting it again in {delay:g} s")
            if child.restart_at is not None and now >= child.restart_at:
                self._spawn(child)
                changed = True
        if changed:
            self.on_change()
        return None

    def _died(self, deaths: deque[float], now: float) -> int:
        deaths.append(now)
        while deaths and now - deaths[0] > self.window_s:
            deaths.popleft()
        return len(deaths)

    def _redis(self, now: float) -> str | None:
        """The embedded Redis dead: started again on its port and data folder (its AOF), or why not."""
        if self.redis is None or self.redis.process.poll() is None:
            return None
        n = self._died(self.redis_deaths, now)
        if n >= self.max_deaths:
            return f"the embedded Redis stopped {n} times within {self.window_s:.0f} s (see {self.redis.data_dir}/redis.log)"
        self.say(f"meow: the embedded Redis exited (status {self.redis.process.returncode}); starting it again "
                 f"on the same port and data ({self.redis.data_dir})")
        try:
            self.redis.restart()
        except Exception as exc:  # noqa: BLE001 - said, and everything stops
            return f"the embedded Redis could not start again: {exc}"
        return None

    def shutdown(self, timeout_s: float = 15) -> None:
        """Workers first, then the API, then the embedded Redis: each group asked (SIGTERM), waited
        for, and killed if it does not stop within ``timeout_s``."""
        for role in ("worker", "api"):
            group = [c.proc for c in self.children if c.role == role and c.proc is not None]
            for proc in group:
                if proc.poll() is None:
                    proc.terminate()
            deadline = time.monotonic() + timeout_s
            for proc in group:
                try:
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        if self.redis is not None:
            self.redis.stop()
