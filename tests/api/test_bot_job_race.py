"""Issue 24 (1b): a bot job whose race-tolerant action is refused because the table moved on ends as
"closed" — no traceback, no retry — and the table goes on (RULES §2.6(4), DESIGN "Conflicts in jobs").

Sakapuss, two humans and one easy bot; the bot reacts after ``bot_min_reaction_ms`` (5 s), the pass
step times out a second later. Both humans pass; the bot's job is dispatched into RQ and served by a
burst ``SimpleWorker`` against the real Redis (REDIS_URL), exactly as `meow worker` serves it. The
conflicting append is the pass timer's follow-up, run through the application as another worker
would: it auto-passes the bot and opens step 2. It lands either before the bot job looks (the job
answers "closed" at its first look) or while the job decides (the job has seen step 1 open and
chosen its pass; the pass is refused as ``wrong_step`` against the later state, and the job looks
again). The second case is the one that crashed with ``AttributeError`` while the job read
``exc.status`` (which AppError never had) instead of looking again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from prometheus_client import REGISTRY
from rq import SimpleWorker
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from service.api.app import create_app
from service.app.entropy import Seeded
from service.app.games import GameService
from service.eventstore.contract import SHARDS
from service.games.sakapuss.state import complete
from service.settings import Settings
from service.wiring import build_store
from workers import tasks
from workers.dispatcher import Dispatcher
from workers.main import make_queues

from .conftest import Clock, Table

REACTION_MS = 5000
PASS_TIMEOUT_S = 6  # the timer falls due a second after the bot's reaction


class SlowWorkerService(GameService):
    """The worker's application: right after its first look at the game, ``meanwhile`` runs once —
    another worker appending while this job is still deciding on what it saw."""

    def __init__(self, store: Any, settings: Settings, clock: Clock) -> None:
        super().__init__(store, settings, clock)
        self.meanwhile: Callable[[], None] | None = None

    def load_with_head(self, game_id: str) -> Any:  # (``load`` reads through it too)
        loaded = super().load_with_head(game_id)
        hook, self.meanwhile = self.meanwhile, None
        if hook is not None:
            hook()
        return loaded


def _served(kind: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("meow_followups_total", {"kind": kind, "outcome": outcome}) or 0.0


def _sakapuss(table: Table, node_seed: int) -> tuple[str, list[str], int]:
    """A started table whose bot was not dealt a set (it would slap, not pass): the first such deal
    of this test's seed."""
    for attempt in range(20):
        table.service.random_bytes = Seeded(f"{node_seed}/{attempt}")
        g = table.create("sakapuss", {"bot_min_reaction_ms": REACTION_MS, "pass_timeout_s": PASS_TIMEOUT_S})
        gid, owner = g["id"], g["owner_token"]
        humans = [table.join(gid, "ann", owner)["token"], table.join(gid, "bob")["token"]]
        bot = table.add_bot(gid, owner)["seat"]
        table.start(gid, owner)
        if not complete(table.service.load(gid).rnd.hands[bot]):
            return gid, humans, bot
    raise AssertionError(f"seed {node_seed}: every deal gave the bot a set")


def _forget_jobs(conn: Any, gid: str, queues: Any = ()) -> None:
    """RQ keeps jobs under ``rq:job:<id>`` whatever the queue, and a seeded game id repeats on every
    run: a leftover of an interrupted run would make the dispatch a duplicate. Afterwards the test's
    queues leave RQ's list of queues too (their keys go with the test's key prefix)."""
    for key in conn.scan_iter(match=f"rq:*{gid}*", count=1000):
        conn.delete(key)
    if queues:
        conn.srem("rq:queues", *[q.key for q in queues])


def _events(table: Table, gid: str) -> list[dict]:
    return table.client.get(f"/v1/games/{gid}/events?after=0").json["events"]


@pytest.mark.parametrize("lands", ["before the job looks", "while the job decides"])
def test_a_bot_pass_refused_after_the_pass_timer_moved_the_table_ends_closed(
        redis_url: str, key_prefix: str, clock: Clock, node_seed: int, monkeypatch: pytest.MonkeyPatch,
        lands: str) -> None:
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix, queue_name=key_prefix, rate_limits="off")
    app = create_app(settings)
    app.extensions["meow.service"].clock = clock
    table = Table(app, clock)  # the humans' API, and "another worker"
    worker_app = SlowWorkerService(build_store(settings), settings, clock)
    monkeypatch.setattr(tasks, "_service", lambda: worker_app)
    queues = make_queues(settings)
    dispatcher = Dispatcher(worker_app.store, queues, settings.lease_ms, clock=clock)

    def burst() -> None:
        worker = SimpleWorker(list(queues.values()), connection=queues["fast"].connection,
                              serializer=JSONSerializer)
        worker.work(burst=True, logging_level="WARNING")

    gid, humans, bot = _sakapuss(table, node_seed)
    conn = queues["fast"].connection
    _forget_jobs(conn, gid)
    try:
        _serve_the_race(table, worker_app, dispatcher, burst, gid, humans, bot, lands)
    finally:
        _forget_jobs(conn, gid, queues.values())


def _serve_the_race(table: Table, worker_app: SlowWorkerService, dispatcher: Dispatcher,
                    burst: Callable[[], None], gid: str, humans: list[str], bot: int, lands: str) -> None:
    clock, queues, settings = table.clock, dispatcher.queues, worker_app.settings
    for token in humans:
        you = table.view(gid, token)["you"]
        ok = table.act(gid, token, {"type": "pass_card", "kind": you["hand"][0].split(":")[1], "step": 1})
        assert ok.status_code == 200, ok.json

    fired: list[int] = []

    def pass_timer_fires() -> None:  # another worker serves the step's timer, due a second later
        clock.advance(1000)
        fired.append(table.drain())

    clock.advance(REACTION_MS)
    assert dispatcher.tick() == 1  # the bot's job only: the timer is not due yet
    if lands == "before the job looks":
        pass_timer_fires()
    else:
        worker_app.meanwhile = pass_timer_fires
    closed, moved = _served("bot", "closed"), _served("bot", "moved")
    burst()

    assert fired == [1], "the pass timer ran once, between the dispatch and the bot's answer"
    assert (_served("bot", "closed") - closed, _served("bot", "moved") - moved) == (1, 0)
    assert all(FailedJobRegistry(queue=q).count == 0 for q in queues.values()), "the job failed"
    far = clock.now + 10 * settings.lease_ms
    assert [c for s in SHARDS for c in worker_app.store.recover_expired(s, far)] == [], \
        "the job's lease was kept: the watchdog would run it again"
    events = _events(table, gid)
    steps = [e for e in events if e["type"] in ("PassSubmitted", "PassesResolved")]
    assert [(e["type"], e["data"].get("seat"), e["data"].get("auto")) for e in steps][-2:] == [
        ("PassSubmitted", bot, True), ("PassesResolved", None, None)], "the timer auto-passed the bot"

    # the table moves on: step 2 is open and the bot acts in it, from the next dispatch
    assert table.view(gid)["table"]["step"] == 2
    clock.advance(REACTION_MS)
    assert dispatcher.tick() == 1
    burst()
    assert _served("bot", "moved") - moved == 1
    last = [e for e in _events(table, gid) if e["type"] == "PassSubmitted"][-1]
    assert (last["data"]["seat"], last["data"]["step"], last["data"]["auto"]) == (bot, 2, False)
