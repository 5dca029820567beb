"""The arena lane's thin task: one step of an arena (play one game to its end, record it, queue the
next step), service/app/arenas.py."""
from __future__ import annotations

import logging

from service.arena_lane import worker_arenas

log = logging.getLogger("meow.arena")


def run_arena(arena_id: str) -> str:
    outcome = worker_arenas().step(arena_id)
    log.debug("arena %s: %s", arena_id, outcome)
    return str(outcome)
