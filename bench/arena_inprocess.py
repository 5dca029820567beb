"""Arenas run in this process through the service's own code (service/app/arenas.py: ``Arenas.create``
and ``Arenas.step``, the job the arena lane runs), on the in-memory game store and a fakeredis arena
store, the steps run here in turn instead of on RQ workers: for the ladder (bench/tournament.py,
bench/sakapuss_ladder.py), which needs no server and prints the same result table an arena's GET
shows."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: imports from the checkout

from service.app.arenas import Arenas, make_spec
from service.eventstore.arenas import RedisArenas
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from service.wiring import integrations

KEY = "kbench00000"


def run_arena(variant: str, strengths: list[str], seats: int, games: int, options: dict[str, Any]) -> dict[str, Any]:
    """One arena played to its end here; its view (with the result table)."""
    import fakeredis

    pending: list[str] = []
    settings = Settings(arena_parallel=1, arenas_per_key=0, arena_max_games=100_000)
    arenas = Arenas(MemoryEventStore(), RedisArenas(fakeredis.FakeRedis()), settings,
                    enqueue=lambda arena_id, _job: pending.append(arena_id), integrations=integrations())
    spec = make_spec(variant, options, [{"strength": s} for s in strengths], seats, games, settings.arena_max_games)
    view = arenas.create(KEY, spec)
    while pending:
        arenas.step(pending.pop(0))
    return arenas.view(view["id"], KEY)
