"""Thin RQ tasks: serve one due follow-up through the application, then release its lease."""
from __future__ import annotations

import logging
from functools import lru_cache

from service.app.games import GameService
from service.settings import Settings

log = logging.getLogger("meow.worker")


@lru_cache(maxsize=1)
def _service() -> GameService:
    from service.wiring import build_service

    return build_service(Settings.from_env())


def run_due(payload: dict, shard: str, job_id: str) -> str:
    """Run a bot turn, a round's scoring or the next deal; a no-op once what it serves closed."""
    svc = _service()
    try:
        outcome = svc.run_followup(payload)
        log.debug("%s: %s", job_id, outcome)
        return outcome
    finally:
        svc.store.finish_due(shard, job_id)
