"""Arenas in process (service/app/arena_play.py, arenas.py, arena_results.py) on the in-memory store:
the seating rotation gives every entrant every seat, a deal's games get the same cards, an arena
game is reproducible event for event (hard bots search by iterations, the clock is the game's own), the
spec is checked, and the result table counts what happened."""
from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import pytest

from examples.remote_bot import make_server, random_legal
from service.app import api_keys, arena_results, remote_bots, webhooks
from service.app.arena_play import ArenaGame, DealSeeds, deal_size, seating
from service.app.arenas import Arenas, make_spec
from service.app.errors import AppError
from service.app.games import GameService
from service.eventstore.arenas import RedisArenas
from service.eventstore.contract import SHARDS
from service.eventstore.memory import MemoryEventStore
from service.games.kernel.state import TableState
from service.settings import Settings
from service.wiring import integrations
from tools.webhook_receiver import Receiver

T0 = 1_700_000_000_000


@pytest.mark.parametrize(("k", "n"), [(2, 2), (2, 4), (3, 3), (3, 2), (5, 3), (4, 5)])
def test_over_one_deal_every_entrant_sits_in_every_seat(k: int, n: int) -> None:
    size = deal_size(k, n)
    for s in range(n):  # over the games of a deal, seat s holds each entrant alike often
        assert sorted(seating(i, k, n).entrants[s] for i in range(size)) == sorted(list(range(k)) * (size // k))
    assert [seating(i, k, n).deal for i in range(2 * size)] == [0] * size + [1] * size
    if k > n:  # two entrants who meet on a deal meet in both seat orders
        met = {(g.entrants[0], g.entrants[1]) for g in (seating(i, k, n) for i in range(size))}
        assert all((b, a) in met for a, b in met)


def test_deal_seeds_are_the_same_per_label_and_differ_across_labels_and_deals() -> None:
    a, b, c = DealSeeds(b"d" * 32), DealSeeds(b"d" * 32), DealSeeds(b"e" * 32)
    for seeds in (a, b, c):
        seeds.at("deal/2")
    first = a(32)
    assert first == b(32) and first != c(32)
    b.at("deal/3")
    assert a(40) != b(40)


def _play(store: MemoryEventStore, secret: bytes, index: int, variant: str = "prsi-traditional",
          strengths: tuple[str, ...] = ("easy", "medium"), options: dict | None = None, seats: int = 2) -> TableState:
    spec = make_spec(variant, options or {}, [{"strength": s} for s in strengths], seats, 2 * len(strengths), 100)
    game = ArenaGame(store, Settings(), "ar000000000001", secret, variant, spec.table_options(),
                     [e.name for e in spec.entrants], list(strengths), seating(index, len(strengths), seats), T0,
                     integrations=integrations())
    state = game.play()
    assert state is not None and state.status == "finished"
    return state


def _first_deal(store: MemoryEventStore, state: TableState) -> str:
    return next(s.event.data["commitment"] for s in store.read_stored(state.id, after=0)
                if s.event.type == "ShuffleCommitted")


def test_the_games_of_one_deal_get_the_same_cards_and_another_deal_others() -> None:
    store = MemoryEventStore()
    secret = random.Random(7).randbytes(32)
    games = [_play(store, secret, i) for i in range(4)]  # deals 0, 0, 1, 1
    deals = [_first_deal(store, g) for g in games]
    assert deals[0] == deals[1] and deals[2] == deals[3] and deals[0] != deals[2]
    assert games[0].match_seed_commitment == games[1].match_seed_commitment
    assert [s.name for s in games[0].seats] == ["easy", "medium"] and [s.name for s in games[1].seats] == ["medium", "easy"]


def test_an_arena_game_is_reproducible_event_for_event_hard_bots_included() -> None:
    secret = random.Random(8).randbytes(32)
    opts = {"hard_bot_iterations": 30}
    one, two = MemoryEventStore(), MemoryEventStore()
    a = _play(one, secret, 1, "prsi-traditional", ("hard", "easy"), opts)
    b = _play(two, secret, 1, "prsi-traditional", ("hard", "easy"), opts)
    def log(store: MemoryEventStore, gid: str) -> list:  # (the chain hashes differ: each has a random nonce)
        events = [s.event for s in store.read_stored(gid, after=0)]
        return [(e.type, e.at, e.seat, e.data, dict(e.to_seat), e.secret) for e in events]

    assert a.version > 10 and log(one, a.id) == log(two, b.id)


def test_a_game_cut_short_is_resumed_where_it_stood() -> None:
    store = MemoryEventStore()
    secret = random.Random(9).randbytes(32)
    spec = make_spec("prsi-traditional", {}, [{"strength": "easy"}, {"strength": "easy"}], 2, 2, 100)
    calls = itertools.count()
    game = ArenaGame(store, Settings(), "ar000000000002", secret, spec.variant, spec.table_options(), ["a", "b"],
                     ["easy", "easy"], seating(0, 2, 2), T0, cancelled=lambda: next(calls) >= 1,
                     integrations=integrations())
    assert game.play() is None  # "cancelled" after 25 steps: the table stays as it stood
    again = ArenaGame(store, Settings(), "ar000000000002", secret, spec.variant, spec.table_options(), ["a", "b"],
                      ["easy", "easy"], seating(0, 2, 2), T0, integrations=integrations())
    finished = again.play()
    fresh = _play(MemoryEventStore(), secret, 0, strengths=("easy", "easy"))
    assert finished is not None
    assert [(r["rank"], r["total"]) for r in finished.standings] == [(r["rank"], r["total"]) for r in fresh.standings]
    assert finished.version == fresh.version


def test_the_spec_is_checked_and_rounded_up_to_whole_deals() -> None:
    spec = make_spec("sakapuss", {"rounds": 2}, [{"strength": "easy"}, {"strength": "hard"}, {"strength": "hard"}],
                     None, 10, 100)
    assert (spec.games, spec.deals, spec.seats, [e.name for e in spec.entrants]) == (12, 4, 3, ["easy", "hard", "hard-2"])
    assert make_spec("prsi", {}, [{"strength": "easy"}] * 3, 2, 7, 100).games == 12  # 2 seats, 3 entrants: deals of 6
    for variant, entrants, seats, games, why in (
            ("crazy-eights", ["easy", "hard"], 2, 4, "built-in strengths"),
            ("sakapuss", ["easy", "medium"], 2, 4, "seats 3 to 5"),
            ("prsi", ["easy"], 2, 4, "2 to 8 entrants"),
            ("prsi", ["easy", "medium"], 2, 101, "1 to 100 games"),
            ("prsi", ["easy", "medium"], 2, 99, "in whole deals")):
        with pytest.raises(AppError, match=why):
            make_spec(variant, {}, [{"strength": s} for s in entrants], seats, games, 100 if games != 99 else 99)
    with pytest.raises(AppError) as bad:
        make_spec("prsi", {"hand_size": 99}, [{"strength": "easy"}] * 2, 2, 2, 100)
    assert bad.value.code == "invalid_option"
    assert spec.table_options().get("allow_join_between_rounds") is None  # sakapuss has no such option
    assert make_spec("prsi", {}, [{"strength": "easy"}] * 2, 2, 2, 9).table_options()["allow_join_between_rounds"] is False


def _game(index: int, rows: list[tuple[int, int, int]]) -> dict:
    return {"index": index, "seats": [{"seat": i, "entrant": e, "rank": r, "total": t} for i, (e, r, t) in enumerate(rows)]}


def test_the_result_table_counts_wins_head_to_head_and_rates_the_stronger_higher() -> None:
    results = {i: _game(i, [(0, 1, 0), (1, 2, 10)]) for i in range(30)}  # a always first
    results[30] = _game(30, [(0, 1, 0), (1, 1, 0)])  # a tie: half a win each
    results[31] = _game(31, [(1, 1, 0), (0, 2, 5), (1, 3, 9)])  # b holds two seats: its best counts
    table = arena_results.summarize(["a", "b"], results)
    a, b = table["entrants"]
    assert (a["games"], a["wins"], b["wins"]) == (32, 30.5, 1.5)
    assert a["rating"]["mu"] > b["rating"]["mu"] and a["win_rate_95"][0] > 0.8
    assert table["head_to_head"] == [{"a": "a", "b": "b", "games": 32, "a_wins": 30, "b_wins": 1, "draws": 1}]
    assert b["points_mean"] == pytest.approx((10 * 30 + 0 + 9 + 0) / 33, abs=1e-3)
    assert arena_results.wilson(0, 0) == (0.0, 1.0)
    board = arena_results.leaderboard_change(["easy", "hard"], results)({})
    assert board["easy"]["games"] == 32 and board["easy"]["mu"] > board["hard"]["mu"]
    same = arena_results.leaderboard_change(["easy", "easy"], results)({})
    assert same["easy"]["games"] == 0  # one identity in every seat rates nothing


def test_a_game_whose_job_died_is_played_again_and_the_arena_ends_rated() -> None:
    """Issue 39 item 4: a claim is a lease (half of MEOW_LEASE_MS, renewed while its game plays); once
    it runs out the arena's next step (the lane retakes a step lost with its process) plays that game
    first. A read changes nothing."""
    now = [T0]
    queued: list[str] = []
    store = RedisArenas(fakeredis.FakeRedis(), "t")
    arenas = Arenas(MemoryEventStore(), store, Settings(arena_parallel=1, lease_ms=10_000),
                    enqueue=lambda arena_id, job: queued.append(job), clock=lambda: now[0],
                    integrations=integrations())
    spec = make_spec("prsi-traditional", {}, [{"strength": "easy"}, {"strength": "medium"}], 2, 2, 100)
    arena = arenas.create("k0000000001", spec)
    assert store.claim(arena["id"], 2, now[0]) == 0  # a job claimed game 0 and died
    assert arenas.step(arena["id"]) == "played"  # another plays game 1
    assert arenas.step(arena["id"]) == "idle"  # game 0's claim is fresh: nothing to do
    assert arenas.view(arena["id"], "k0000000001")["status"] == "running" and len(queued) == 2
    now[0] += 5_001  # game 0's claim ran out, unrenewed
    assert arenas.view(arena["id"], "k0000000001")["progress"]["done"] == 1 and len(queued) == 2  # a read: nothing
    assert arenas.step(arena["id"]) == "finished"
    end = arenas.view(arena["id"], "k0000000001")
    assert end["status"] == "finished" and end["result"]["games"] == 2
    assert [r["entrant"] for r in arenas.leaderboard("prsi-traditional")[0]] != []
    with pytest.raises(AppError, match="no such arena"):
        arenas.view(arena["id"], "k0000000002")  # another key's arena is not found


def test_an_arenas_cancel_is_versioned_and_ends_it_once() -> None:
    """The end is one store call against the state it needs (running): a cancel with a stale If-Match
    is refused, a cancel ends it at version 2, the last game's finish after it changes nothing."""
    from service.app.idempotency import Precondition

    store = RedisArenas(fakeredis.FakeRedis(), "t")
    arenas = Arenas(MemoryEventStore(), store, Settings(arena_parallel=1), enqueue=lambda a, j: None, clock=lambda: T0,
                    integrations=integrations())
    spec = make_spec("prsi-traditional", {}, [{"strength": "easy"}, {"strength": "medium"}], 2, 2, 100)
    arena = arenas.create("k0000000001", spec)
    assert arena["version"] == 1
    with pytest.raises(AppError) as stale:
        arenas.cancel(arena["id"], "k0000000001", Precondition(5, "if_match"))
    assert stale.value.code == "version_conflict" and stale.value.extra["version"] == 1
    assert arenas.view(arena["id"], "k0000000001")["status"] == "running"
    done = arenas.cancel(arena["id"], "k0000000001", Precondition(1, "if_match"))
    assert (done["status"], done["version"]) == ("cancelled", 2)
    assert not store.end(arena["id"], "finished", T0 + 1, {})  # the finish that lost the race
    assert arenas.cancel(arena["id"], "k0000000001")["version"] == 2  # an ended arena: nothing changes
    assert arenas.view(arena["id"], "k0000000001")["status"] == "cancelled"


def _hooked_arenas(clock: list[int], **over: Any) -> tuple[Arenas, GameService, str]:
    """Arenas on the in-memory store (fakeredis for their records), with an API key whose webhook
    endpoints may be on loopback: (arenas, a GameService over the same store that serves due work, key id)."""
    settings = Settings(arena_parallel=1, outbound_allow_private=True, webhook_timeout_s=5.0, **over)
    games = MemoryEventStore()
    arenas = Arenas(games, RedisArenas(fakeredis.FakeRedis(), "t"), settings, enqueue=lambda a, j: None,
                    clock=lambda: clock[0], integrations=integrations())
    key, _ = api_keys.create(games, "portal", now_ms=clock[0])
    return arenas, GameService(games, settings, clock=lambda: clock[0], integrations=integrations()), key.id


def _drain(svc: GameService) -> None:
    store = svc.store
    for _ in range(100):
        batch = [(s, c) for s in SHARDS for c in store.claim_due(s, svc.clock(), 60_000)]
        if not batch:
            return
        for shard, claimed in batch:
            svc.run_followup(dict(claimed.payload))
            store.finish_due(shard, claimed.job_id)


def test_an_ended_arena_is_announced_once_to_the_endpoints_that_subscribed() -> None:
    now = [T0]
    arenas, svc, key = _hooked_arenas(now)
    with Receiver(clock=lambda: now[0] / 1000) as receiver:
        made = webhooks.create(arenas.ctx, key, receiver.url, ["arena.finished"])
        webhooks.create(arenas.ctx, key, receiver.url, ["match.ended"])
        receiver.set_secret(made["secret"])
        spec = make_spec("prsi-traditional", {}, [{"strength": "easy"}, {"strength": "medium"}], 2, 2, 100)
        one = arenas.create(key, spec)["id"]
        while arenas.step(one) != "finished":
            pass
        arenas.finish(one, spec)  # the ending step run again: no second delivery
        two = arenas.create(key, spec)["id"]
        arenas.cancel(two, key)
        arenas.cancel(two, key)
        _drain(svc)
        kept = receiver.kept()
        assert all(r.verified for r in kept) and sum(receiver.state.repeats.values()) == 0
        got = {r.json()["arena"]["id"]: r.json() for r in kept}
        assert sorted(got) == sorted([one, two]) and len(kept) == 2  # the match.ended endpoint got nothing
        ended = got[one]
        assert ended["type"] == "arena.finished" and ended["arena"]["status"] == "finished"
        assert ended["arena"]["variant"] == "prsi-traditional" and ended["arena"]["progress"]["done"] == 2
        assert [e["name"] for e in ended["arena"]["result"]["entrants"]] == ["easy", "medium"]
        assert ended["arena"] == arenas.view(one, key)  # what GET shows, no more
        assert "secret" not in str(ended) and "owner_token" not in str(ended)
        assert got[two]["arena"]["status"] == "cancelled" and got[two]["arena"]["result"]["games"] == 0


@pytest.fixture
def reference_bot() -> Iterator[Callable[..., str]]:
    """The reference remote bot (examples/remote_bot.py) on loopback: ``start(secret, choose)`` -> its URL."""
    servers = []

    def start(secret: str | Callable[[], str], choose: Callable[[dict[str, Any]], Any] = random_legal) -> str:
        server = make_server(secret, 0, choose)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/turn"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def _bot_arena(reference_bot: Callable[..., str], choose: Callable[[dict[str, Any]], Any], games: int,
               **over: Any) -> tuple[Arenas, str, str, dict[str, Any]]:
    """An arena of ``games`` between ``easy`` and a registered bot answering with ``choose``, played to its
    end in process on the real clock (the bot checks the signature's timestamp): (arenas, key, bot id, arena)."""
    now = [int(time.time() * 1000)]
    arenas, _, key = _hooked_arenas(now, remote_bot_timeout_ms=2000, **over)
    held: dict[str, str] = {}
    url = reference_bot(lambda: held["secret"], choose)
    bot, held["secret"] = remote_bots.register(arenas.ctx, key, "Ref bot", url, ["prsi-traditional"])
    spec = make_spec("prsi-traditional", {"match_end_mode": "single_round"},
                     [{"strength": "easy"}, {"remote": bot.id}], 2, games, 100, {bot.id: bot})
    arena = arenas.create(key, spec)
    for _ in range(games):
        arenas.step(arena["id"])
    return arenas, key, bot.id, arenas.view(arena["id"], key)


def test_a_registered_bot_plays_an_arena_against_easy_and_is_rated_by_name(reference_bot: Callable[..., str]) -> None:
    arenas, key, bot_id, end = _bot_arena(reference_bot, random_legal, 4)
    assert end["status"] == "finished" and end["result"]["games"] == 4, end
    assert end["entrants"] == [{"name": "easy", "strength": "easy"},
                               {"name": "Ref bot", "strength": "remote", "remote": bot_id}]
    assert end["duplicate"] is False  # a bot that remembers a deal would know the other hand next rotation
    rows = {r["name"]: r for r in end["result"]["entrants"]}
    assert rows["Ref bot"]["games"] == 4 and rows["Ref bot"]["rating"]["sigma"] > 0
    stats = remote_bots.show(arenas.ctx, key, bot_id)["stats"]
    assert stats["calls"] == stats["answered"] > 4 and stats["failures"] == 0, stats
    for game in arenas.games_of(end["id"], key):  # the bot's seat says which bot played it, as at a table
        seat = next(s["seat"] for s in game["seats"] if s["entrant"] == 1)
        assert remote_bots.bot_of_seat(arenas.ctx, game["game"], seat).id == bot_id  # type: ignore[union-attr]
    assert f"bot:{bot_id}" in [r["entrant"] for r in arenas.leaderboard("prsi-traditional")[0]]


def test_a_failing_bot_gets_the_default_action_counted_then_plays_as_the_autopilot(
        reference_bot: Callable[..., str]) -> None:
    arenas, key, bot_id, end = _bot_arena(reference_bot, lambda request: {"type": "play", "card": "XX:9"}, 2,
                                          remote_bot_failures=3)
    assert end["status"] == "finished" and end["result"]["games"] == 2
    shown = remote_bots.show(arenas.ctx, key, bot_id)
    assert shown["status"] == "away" and shown["stats"]["failed_illegal"] == shown["stats"]["failures"] == 3
    assert shown["stats"]["went_away"] == 1 and shown["stats"]["answered"] == 0
    assert any(arenas.ctx.due_queue.next_due(s) is not None for s in SHARDS)  # its health check, on the service's lane
