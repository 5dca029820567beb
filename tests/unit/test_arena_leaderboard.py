"""The arenas' public leaderboard is bounded (issue 37 item 4): a sorted set read a page at a time
(the top 20 by default, at most 100 a page, ``next_offset`` for the rest), and a deleted bot leaves
it, whether its delete's hook ran or a page meets its row later. On fakeredis and on the real Redis."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import fakeredis
import orjson
import pytest
import redis

from service.app import api_keys, arena_results, remote_bots
from service.app.arenas import BOARD_PAGE, BOARD_PAGE_MAX, Arenas, bot_identity
from service.eventstore.arenas import RedisArenas
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from service.wiring import integrations

VARIANT = "prsi-traditional"
T0 = 1_700_000_000_000


@pytest.fixture(params=["fakeredis", "redis"])
def client(request: pytest.FixtureRequest) -> Iterator[tuple[Any, str]]:
    if request.param == "fakeredis":
        yield fakeredis.FakeRedis(), "t"
        return
    r = redis.Redis.from_url(request.getfixturevalue("redis_url"))
    yield r, request.getfixturevalue("key_prefix")
    r.close()


@pytest.fixture
def arenas(client: tuple[Any, str]) -> Arenas:
    settings = Settings(outbound_allow_private=True)
    return Arenas(MemoryEventStore(), RedisArenas(*client), settings, enqueue=lambda a, j: None, clock=lambda: T0,
                  integrations=integrations())


def _rows(n: int, seed: int = 7) -> dict[str, dict[str, Any]]:
    rng = random.Random(seed)
    return {f"e{i:03d}": {"games": rng.randint(1, 50), "wins": float(rng.randint(0, 10)),
                          "mu": round(rng.uniform(15, 35), 1), "sigma": rng.choice([2.0, 4.0, 8.0])} for i in range(n)}


def _put(arenas: Arenas, rows: dict[str, dict[str, Any]]) -> None:
    arenas.arenas.update_leaderboard(VARIANT, list(rows), lambda now: rows, arena_results.board_score)


def _all(arenas: Arenas, limit: int = BOARD_PAGE) -> list[dict[str, Any]]:
    out, offset = [], 0
    while offset is not None:
        page, offset = arenas.leaderboard(VARIANT, offset, limit)
        assert len(page) <= limit
        out += page
    return out


def test_the_board_is_read_a_page_at_a_time_in_its_order(arenas: Arenas) -> None:
    rows = _rows(45)
    rows["e000"] = rows["e001"] = {"games": 1, "wins": 0.0, "mu": 25.0, "sigma": 4.0}  # a tie: by entrant
    _put(arenas, rows)
    first, nxt = arenas.leaderboard(VARIANT)
    assert len(first) == BOARD_PAGE and nxt == BOARD_PAGE  # the top 20 by default
    assert [r["rank"] for r in first] == list(range(1, BOARD_PAGE + 1))
    whole = arenas.leaderboard(VARIANT, 0, BOARD_PAGE_MAX)
    assert whole[1] is None and len(whole[0]) == 45
    expected = arena_results.leaderboard_rows(rows)
    assert [{k: v for k, v in r.items() if k != "rank"} for r in whole[0]] == expected
    assert [r["entrant"] for r in _all(arenas, 7)] == [r["entrant"] for r in expected]  # pages of 7 add up
    assert arenas.leaderboard(VARIANT, 0, 10_000)[0] == whole[0][:BOARD_PAGE_MAX]  # the cap holds in the app too
    assert arenas.leaderboard(VARIANT, 45) == ([], None)
    # an update re-ranks only the rows it names, reading no other
    _put(arenas, {"e002": {"games": 99, "wins": 99.0, "mu": 60.0, "sigma": 1.0}})
    assert arenas.leaderboard(VARIANT, 0, 1)[0][0]["entrant"] == "e002"
    assert len(_all(arenas)) == 45


def test_a_deleted_bot_leaves_the_board_and_a_new_one_is_a_new_row(arenas: Arenas,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_bots, "ON_DELETE", {"arenas": lambda ctx, bot_id: arenas.forget_bot(bot_id)})
    key, _ = api_keys.create(arenas.ctx.api_keys, "portal", now_ms=T0)
    _put(arenas, _rows(3))
    for _ in range(5):  # delete and register again, five times: the board does not grow
        bot, _ = remote_bots.register(arenas.ctx, key.id, "churn", "http://127.0.0.1:9/turn", [VARIANT])
        _put(arenas, {bot_identity(bot.id): {"games": 4, "wins": 2.0, "mu": 30.0, "sigma": 3.0}})
        assert bot_identity(bot.id) in [r["entrant"] for r in _all(arenas)]
        remote_bots.delete(arenas.ctx, key.id, bot.id)
        _, total = arenas.arenas.leaderboard_page(VARIANT, 0, 1, arena_results.board_score)
        assert total == 3  # gone from the store by the delete itself, before any page is read
        assert sorted(r["entrant"] for r in _all(arenas)) == ["e000", "e001", "e002"]


def test_a_row_of_a_bot_deleted_without_its_hook_goes_when_a_page_meets_it(arenas: Arenas,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A delete racing an arena's end (its row written after the delete's hook): the page drops it."""
    monkeypatch.setattr(remote_bots, "ON_DELETE", {})  # no hook runs
    key, _ = api_keys.create(arenas.ctx.api_keys, "portal", now_ms=T0)
    bots = [remote_bots.register(arenas.ctx, key.id, f"b{i}", "http://127.0.0.1:9/turn", [VARIANT])[0] for i in range(3)]
    _put(arenas, {bot_identity(b.id): {"games": 1, "wins": 1.0, "mu": 40.0 - i, "sigma": 1.0}
                  for i, b in enumerate(bots)} | _rows(4))
    for b in bots[:2]:
        remote_bots.delete(arenas.ctx, key.id, b.id)  # deleted, no hook ran
    page, _ = arenas.leaderboard(VARIANT, 0, 3)
    assert page[0]["entrant"] == bot_identity(bots[2].id) and len(page) == 3
    assert [r["rank"] for r in page] == [1, 2, 3]
    _, total = arenas.arenas.leaderboard_page(VARIANT, 0, 1, arena_results.board_score)
    assert total == 5  # gone from the board for good


def test_a_board_written_before_its_order_is_ranked_once(client: tuple[Any, str], arenas: Arenas) -> None:
    r, prefix = client
    rows = _rows(5)
    tag = "{" + f"{prefix}:arenas" + "}"
    r.hset(f"{tag}:lb:{VARIANT}", mapping={k: orjson.dumps(v) for k, v in rows.items()})
    assert [x["entrant"] for x in _all(arenas)] == [x["entrant"] for x in arena_results.leaderboard_rows(rows)]
    board = sorted(k.decode() for k in r.scan_iter(match=f"*{prefix}*"))
    assert board == [f"{tag}:lb:{VARIANT}", f"{tag}:lbz:{VARIANT}"]  # one hash tag: one slot in a cluster
