"""Remote bots in process (service/app/remote_bots.py): the in-memory store, the due work served by
hand as the workers serve it, and the reference bot (examples/remote_bot.py) on loopback. A legal
answer is applied; a failing bot gets the seat's default action, counts, goes away after
``remote_bot_failures`` in a row (its seat then plays as the autopilot) and comes back once a health
check finds it answering; the secret is in no answer but the first; a private URL is refused."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from examples.remote_bot import make_server, random_legal
from service.app import remote_bots
from service.app.auth import Caller
from service.app.errors import AppError
from service.app.games import GameService
from service.eventstore.contract import SHARDS
from service.eventstore.memory import MemoryEventStore
from service.games.kernel.due import Kind, Lane
from service.integrations.remote_bots.jobs import health_check
from service.settings import Settings
from service.wiring import integrations

KEY = "k0123456789"
NO_DELAY = {"easy": [0, 0], "medium": [0, 0], "hard": [0, 0]}  # the clock moves little: the bot checks timestamps


@pytest.fixture
def bot_server() -> Iterator[Callable[..., str]]:
    servers = []

    def start(secret: str, choose: Callable[[dict[str, Any]], Any] = random_legal) -> str:
        server = make_server(secret, 0, choose)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/turn"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def service(**over: Any) -> GameService:
    settings = Settings(outbound_allow_private=True, remote_bot_failures=2, remote_bot_timeout_ms=5000,
                        bots_only_min_delay_ms=0, remote_bot_health_ms=1000, **over)
    return GameService(MemoryEventStore(), settings, clock=Clock(), integrations=integrations())


class Clock:
    """Real time to start with (the bot checks the signature's timestamp), moved on by hand."""

    def __init__(self) -> None:
        self.now = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.now


def serve_due(svc: GameService, until: Callable[[], bool], jobs: int = 5000) -> list[tuple[str, str]]:
    """Serve the due work in order of due time, the clock moved on to each (a turn timer fires when
    due), until ``until()``; (lane, outcome) of each job."""
    clock = svc.clock
    assert isinstance(clock, Clock)
    seen: list[tuple[str, str]] = []
    while len(seen) < jobs:
        if until():
            return seen
        nexts = [(n, shard) for shard in SHARDS if (n := svc.due_queue.next_due(shard)) is not None]
        assert nexts, f"no more work: {seen[-10:]}"
        due, shard = min(nexts)
        clock.now = max(clock.now, due)
        for claimed in svc.due_queue.claim_due(shard, clock.now, 60_000, limit=1):
            payload = dict(claimed.payload)
            seen.append((str(payload.get("lane", Lane.FAST)), svc.run_followup(payload)))
            svc.due_queue.finish_due(shard, claimed.job_id)
    raise AssertionError(f"still not done after {jobs} jobs: {seen[-10:]}")


def table_with(svc: GameService, bot_id: str, variant: str = "prsi") -> str:
    out = svc.create(variant, {"bot_delay_ms": NO_DELAY}, 2, None, None)
    gid = out.game_id
    owner = Caller("owner", None, "h")
    remote_bots.seat_remote_bot(svc, gid, owner, KEY, bot_id)
    svc.join(gid, owner, None, {"strength": "easy"}, None)
    svc.start(gid, owner)
    return gid


def test_a_remote_bot_plays_a_whole_match_with_legal_signed_answers(bot_server: Callable[..., str]) -> None:
    svc = service()
    secrets: list[str] = []
    bot, secret = remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:1/x", ["prsi"])
    secrets.append(secret)
    url = bot_server(secret)
    svc.bot_records.bot_change(KEY, bot.id, 1, remote_bots.RemoteBot(bot.id, KEY, bot.name, url, bot.games,
                                                                     bot.created_at, secret, 1).record(), b"{}", 10)
    gid = table_with(svc, bot.id)
    seen = serve_due(svc, lambda: svc.load(gid).status == "finished")
    assert any(lane == Lane.REMOTE and outcome == "moved" for lane, outcome in seen)
    stats = remote_bots.show(svc, KEY, bot.id)["stats"]
    # (on a loaded machine even a good bot may miss a call's time: only that failure is allowed)
    assert stats["answered"] > 0 and stats["failures"] == stats["failed_timeout"]
    assert secret not in orjson.dumps(remote_bots.listing(svc, KEY)).decode()
    state = svc.load(gid)
    assert state.seats[0].strength == remote_bots.KIND and state.seats[0].kind == "bot"


@pytest.mark.parametrize("answer", ["garbage", "illegal", "error"])
def test_a_failing_bot_gets_the_default_then_goes_away_then_comes_back(bot_server: Callable[..., str],
                                                                         answer: str) -> None:
    svc = service()
    failing = {"on": True}

    def choose(request: dict[str, Any]) -> Any:
        if not failing["on"]:
            return random_legal(request)
        if answer == "garbage":
            return "a card, please"
        if answer == "illegal":
            return {"type": "play", "card": "XX:9"}
        raise RuntimeError("boom")  # the reference server answers 500... as any crashing bot does

    bot, secret = remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:1/x", ["prsi"])
    url = bot_server(secret, choose)
    svc.bot_records.bot_change(KEY, bot.id, 1, remote_bots.RemoteBot(bot.id, KEY, bot.name, url, bot.games,
                                                                     bot.created_at, secret, 1).record(), b"{}", 10)
    gid = table_with(svc, bot.id)
    seen = serve_due(svc, lambda: remote_bots.show(svc, KEY, bot.id)["status"] == "away")
    assert seen.count((Lane.REMOTE, "default")) == 2  # each failure: the seat's default at once (RULES §2.7)
    stats = remote_bots.show(svc, KEY, bot.id)["stats"]
    why = {"garbage": "malformed", "illegal": "illegal", "error": "status"}[answer]
    assert stats["failures"] == 2 and stats[f"failed_{why}"] + stats["failed_timeout"] == 2 and stats[f"failed_{why}"]
    # away: the autopilot plays its seat; the health check brings it back once it answers
    failing["on"] = False
    seen = serve_due(svc, lambda: remote_bots.show(svc, KEY, bot.id)["status"] == "ok")
    assert (Lane.REMOTE, "back") in seen
    before = remote_bots.show(svc, KEY, bot.id)["stats"]["answered"]
    serve_due(svc, lambda: remote_bots.show(svc, KEY, bot.id)["stats"]["answered"] > before
              or svc.load(gid).status == "finished")


def test_a_private_url_is_refused_unless_allowed_and_the_cap_holds() -> None:
    closed = GameService(MemoryEventStore(), Settings(outbound_allow_private=False), integrations=integrations())
    with pytest.raises(AppError) as refused:
        remote_bots.register(closed, KEY, "Felix", "http://127.0.0.1:8080/", ["prsi"])
    assert refused.value.code == "url_refused"
    with pytest.raises(AppError):
        remote_bots.register(closed, KEY, "Felix", "http://10.1.2.3/", ["prsi"])
    svc = service(remote_bots_per_key=1)
    remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:8080/", ["prsi"])
    with pytest.raises(AppError) as capped:
        remote_bots.register(svc, KEY, "Tom", "http://127.0.0.1:8081/", ["prsi"])
    assert capped.value.code == "bot_limit"
    with pytest.raises(AppError) as unknown:
        remote_bots.register(service(), KEY, "Tom", "http://127.0.0.1:8081/", ["no-such-game"])
    assert unknown.value.code == "invalid_request"


def test_only_the_owning_key_seats_its_bot_and_only_in_its_games() -> None:
    svc = service()
    bot, _ = remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:8080/", ["prsi"])
    gid = svc.create("sakapuss", {}, 3, None, None).game_id
    owner = Caller("owner", None, "h")
    with pytest.raises(AppError) as other_key:
        remote_bots.seat_remote_bot(svc, gid, owner, "k9999999999", bot.id)
    assert other_key.value.code == "not_found"
    with pytest.raises(AppError) as other_game:
        remote_bots.seat_remote_bot(svc, gid, owner, KEY, bot.id)
    assert other_game.value.code == "invalid_request"
    with pytest.raises(AppError) as not_owner:
        remote_bots.seat_remote_bot(svc, svc.create("prsi", {}, 2, None, None).game_id, Caller("seat", 0, "x"),
                                    KEY, bot.id)
    assert not_owner.value.code == "forbidden"


def test_its_turn_jobs_run_on_the_remote_lane() -> None:
    svc = service()
    bot, _ = remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:9/", ["prsi"])
    gid = table_with(svc, bot.id)
    state = svc.load(gid)
    lanes = {}
    for shard in SHARDS:
        for c in svc.due_queue.claim_due(shard, svc.clock() + 10**7, 60_000):
            lanes[(c.payload["kind"], c.payload.get("seat"))] = c.payload.get("lane", Lane.FAST)
    if state.rnd.current == 0:
        assert lanes[(Kind.BOT, 0)] == Lane.REMOTE
    else:
        assert lanes[(Kind.BOT, 1)] == Lane.FAST


def test_the_reference_bot_refuses_a_forged_signature(bot_server: Callable[..., str]) -> None:
    import httpx

    from service.outbound.signing import sign

    url = bot_server("whsec_right")
    body = orjson.dumps({"type": "ping", "bot": "b1"})
    now = int(time.time())
    forged = sign("whsec_wrong", body, timestamp=now, delivery_id="d1")
    assert httpx.post(url, content=body, headers=forged).status_code == 401
    stale = sign("whsec_right", body, timestamp=now - 3600, delivery_id="d2")
    assert httpx.post(url, content=body, headers=stale).status_code == 401
    assert httpx.post(url, content=body).status_code == 401
    good = sign("whsec_right", body, timestamp=now, delivery_id="d3")
    assert httpx.post(url, content=body, headers=good).status_code == 200


def test_a_remote_lane_job_belongs_to_its_bots_owner() -> None:
    """The remote lane shares its threads by the key owning the bot a job calls (workers/remote_lane.py)."""
    from service.app import followups as fu

    svc = service()
    bot, _ = remote_bots.register(svc, KEY, "Felix", "http://127.0.0.1:9/", ["prsi"])
    gid = table_with(svc, bot.id)
    seat = next(i for i, s in enumerate(svc.load(gid).seats) if s.strength == remote_bots.KIND)
    assert remote_bots.owner_of_job(svc, fu.remote_turn(gid, seat, 1, 0).payload) == KEY
    assert remote_bots.owner_of_job(svc, health_check(bot.id, 0).payload) == KEY
    assert remote_bots.owner_of_job(svc, health_check("bdeadbeef0000", 0).payload) == ""
