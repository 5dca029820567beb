"""Thin RQ tasks: serve one due follow-up through the application, then release its lease."""
from __future__ import annotations

import logging
import os
import time
from functools import lru_cache

from service import metrics
from service.app.codes import AppCode
from service.app.errors import AppError
from service.app.games import GameService
from service.games.kernel.due import Kind
from service.settings import Settings
from workers.leases import Renewals

log = logging.getLogger("meow.worker")


@lru_cache(maxsize=1)
def _service() -> GameService:
    from service.wiring import build_service

    return build_service(Settings.from_env())


@lru_cache(maxsize=1)
def _renewals() -> Renewals:
    return Renewals(_service().due_queue, Settings.from_env().lease_ms)


def run_due(payload: dict, shard: str, job_id: str) -> str:
    """Run a bot turn, a round's scoring or the next deal; a no-op once what it serves closed.

    The lease is released only when the work is done (or can never be done). A job that fails
    for any other reason (Redis unreachable, conflicts to the end) keeps its lease, so the
    dispatcher's watchdog dispatches it again when the lease runs out.
    """
    svc = _service()
    with _renewals().held(shard, job_id):  # its lease renewed while it runs (workers/leases.py)
        _fault_injection(payload)
        try:
            outcome = svc.run_followup(payload)
        except AppError as exc:
            if exc.code != AppCode.GAME_CORRUPTED:
                raise
            log.error("%s: game corrupted, dropping the job: %s", job_id, exc.detail)
            outcome = "corrupted"
    metrics.FOLLOWUPS.labels(payload.get("kind", "?"), outcome).inc()
    svc.due_queue.finish_due(shard, job_id)
    log.debug("%s: %s", job_id, outcome)
    return outcome


def _fault_injection(payload: dict) -> None:
    """Crash tests only: MEOW_FAULT_PAUSE_MS holds a bot job before it acts, so a test can kill it."""
    pause = int(os.environ.get("MEOW_FAULT_PAUSE_MS", "0"))
    marker = os.environ.get("MEOW_FAULT_MARKER")
    if not (pause and marker and payload.get("kind") == Kind.BOT):
        return
    tag = f"{payload.get('game')}-{payload.get('seat')}-{payload.get('opened_seq')}"
    seen: list[str] = []
    if os.path.exists(marker):
        with open(marker, encoding="utf-8") as fh:
            seen = fh.read().split()
    if tag in seen:
        return  # only the first run of a job is held (the one the test kills)
    with open(marker, "a", encoding="utf-8") as fh:
        fh.write(f"{os.getpid()} {tag}\n")
    time.sleep(pause / 1000)
