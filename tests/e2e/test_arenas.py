"""Arenas on the real stack (gunicorn, a `meow worker` for the follow-ups and one on the arena lane,
real Redis): an arena of 50 easy-bot games finishes with a rating table and games that verify, and
its duplicate deals really are the same; a running arena's games are unread by anyone, the
auditor included; cancel stops an arena, and its games become readable."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests
from rq import Queue
from rq.registry import StartedJobRegistry

from service.app import api_keys
from service.arena_lane import queue_name
from service.eventstore.arenas import RedisArenas
from service.settings import Settings
from service.wiring import build_store, redis_client
from tests.e2e.conftest import AUDIT, Stack, live_stack

ARENA_WORKER = ["--queues", "arena", "--no-dispatcher"]
FAST = {"announce_grace_ms": 0}  # prsi-traditional: four cards each, one round a game


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url, workers=[[], ARENA_WORKER], MEOW_ARENA_PARALLEL="2") as s:
        yield s


@pytest.fixture(scope="module")
def key(stack: Stack) -> dict[str, str]:
    settings = Settings(redis_url=stack.env["REDIS_URL"], key_prefix=stack.prefix)
    _, presented = api_keys.create(build_store(settings), "arena tests", now_ms=int(time.time() * 1000))
    return {"Meow-Key": presented}


def _arenas(stack: Stack) -> RedisArenas:
    return RedisArenas(redis_client(stack.env["REDIS_URL"]), stack.prefix)


def _wait(s: requests.Session, url: str, key: dict, done: object, timeout_s: float = 90) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        view = s.get(url, headers=key).json()
        if done(view) or time.monotonic() > deadline:
            return view
        time.sleep(0.1)


def test_an_arena_of_50_games_finishes_rated_with_games_that_verify(stack: Stack, key: dict) -> None:
    s = requests.Session()
    assert s.post(f"{stack.base}/v1/arenas", json={"variant": "prsi", "entrants": [{"strength": "easy"}],
                                                   "games": 4}, headers=key).status_code == 422
    assert s.post(f"{stack.base}/v1/arenas", json={"variant": "prsi", "entrants": [{"strength": "easy"}] * 2,
                                                   "games": 4}).status_code == 401
    r = s.post(f"{stack.base}/v1/arenas", headers=key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 50,
        "entrants": [{"strength": "easy", "name": "east"}, {"strength": "easy", "name": "west"}]})
    assert r.status_code == 202, r.text
    arena = r.json()
    assert arena["status"] == "running" and arena["deals"] == 25 and r.headers["Location"] == f"/v1/arenas/{arena['id']}"
    url = f"{stack.base}/v1/arenas/{arena['id']}"
    assert s.get(url).status_code == 401
    for r in (s.get(url, headers=key), s.get(f"{stack.base}/v1/arenas", headers=key)):  # a key's own: never cached
        assert r.headers["Cache-Control"] == "no-store" and "Meow-Key" in r.headers["Vary"], r.headers
    with s.get(f"{url}/feed", headers=key, stream=True, timeout=120) as feed:  # progress, then the end
        kinds = [line[7:] for line in feed.iter_lines(decode_unicode=True) if line.startswith("event: ")]
    assert kinds[-1] == "ended" and "progress" in kinds, kinds
    end = _wait(s, url, key, lambda v: v["status"] != "running")
    assert end["status"] == "finished", end
    table = end["result"]
    assert table["games"] == 50
    assert [e["games"] for e in table["entrants"]] == [50, 50]
    assert sum(e["wins"] for e in table["entrants"]) == pytest.approx(50)
    for e in table["entrants"]:
        lo, hi = e["win_rate_95"]
        assert lo <= e["win_rate"] <= hi
        assert e["rating"]["interval_95"][0] < e["rating"]["mu"] < e["rating"]["interval_95"][1]
    assert table["head_to_head"][0]["games"] == 50
    assert [a["id"] for a in s.get(f"{stack.base}/v1/arenas", headers=key).json()["arenas"]] == [arena["id"]]
    games = s.get(f"{url}/games", headers=key).json()["games"]
    assert sorted(g["index"] for g in games) == list(range(50))
    for g in [g for g in games if g["deal"] < 5]:  # ten of them (a verification replays the whole game)
        rep = s.get(f"{stack.base}/v1/games/{g['game']}/verify", headers={"Authorization": f"Bearer {g['owner_token']}"})
        assert rep.status_code == 200 and rep.json()["ok"], rep.text
    # the two games of a deal were dealt the same cards (their seats rotated)
    first = {}
    for g in [g for g in games if g["deal"] == 0]:
        history = s.get(f"{stack.base}/v1/games/{g['game']}/history",
                        headers={"Authorization": f"Bearer {g['owner_token']}"}).json()["events"]
        first[g["rotation"]] = next(e["data"]["commitment"] for e in history if e["type"] == "ShuffleCommitted")
    assert first[0] == first[1]
    board = s.get(f"{stack.base}/v1/arenas/leaderboard", params={"variant": "prsi-traditional"}).json()
    assert [row["entrant"] for row in board["entrants"]] == ["easy"]  # one identity: its games rate nothing


def test_a_running_arenas_games_are_unread_and_cancel_stops_it(stack: Stack, key: dict) -> None:
    s = requests.Session()
    arena = s.post(f"{stack.base}/v1/arenas", headers=key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 2000,
        "entrants": [{"strength": "easy"}, {"strength": "medium"}]}).json()
    url = f"{stack.base}/v1/arenas/{arena['id']}"
    _wait(s, url, key, lambda v: v["progress"]["done"] >= 2)
    gid = next(iter(_arenas(stack).results(arena["id"]).values()))["game"]  # store-side: the API shows none yet
    audit = {"Authorization": f"Bearer {AUDIT}"}
    for path, headers in (("", {}), ("/events", {}), ("/state?at=1", {}), ("/history", audit), ("/verify", audit),
                          ("/events", {"Accept": "text/event-stream"})):
        r = s.get(f"{stack.base}/v1/games/{gid}{path}", headers=headers)
        assert (r.status_code, r.json()["code"], r.json()["arena"]) == (409, "arena_running", arena["id"]), path
    assert s.get(f"{url}/games", headers=key).json()["code"] == "arena_running"
    cancelled = s.post(f"{url}/cancel", headers=key).json()
    assert cancelled["status"] == "cancelled" and 2 <= cancelled["result"]["games"] <= cancelled["progress"]["done"]
    assert s.delete(url, headers=key).json()["status"] == "cancelled"  # cancelling again changes nothing
    # the arena lane drains: every step sees the cancel; at most the games being recorded as it came land
    queue = Queue(queue_name(Settings(queue_name=stack.prefix)), connection=redis_client(stack.env["REDIS_URL"]))
    _wait(s, url, key, lambda v: queue.count == 0 and StartedJobRegistry(queue=queue).count == 0, timeout_s=60)
    after = s.get(url, headers=key).json()
    assert after["progress"]["done"] <= cancelled["progress"]["done"] + 2 < 2000
    assert s.get(f"{stack.base}/v1/games/{gid}").status_code == 200  # ended: readable again
    assert len(s.get(f"{url}/games", headers=key).json()["games"]) == after["progress"]["done"]


def test_another_keys_arena_keeps_playing_beside_a_hard_one(stack: Stack, key: dict) -> None:
    """Issue 37: the arena worker's slots are shared across keys. One key's arena of `hard` games (each
    long) takes two slots; another key's quick arena, created just after, plays all its games on the
    third while the hard one still runs (on one RQ worker the quick one waited for the hard
    games before its first). A key still runs at most two arenas at once."""
    s = requests.Session()
    settings = Settings(redis_url=stack.env["REDIS_URL"], key_prefix=stack.prefix)
    _, other = api_keys.create(build_store(settings), "arena tests, another key", now_ms=int(time.time() * 1000))
    other_key = {"Meow-Key": other}
    hard = s.post(f"{stack.base}/v1/arenas", headers=key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 100,
        "entrants": [{"strength": "hard"}, {"strength": "easy"}]}).json()
    quick = s.post(f"{stack.base}/v1/arenas", headers=other_key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 4,
        "entrants": [{"strength": "easy"}, {"strength": "easy"}]}).json()
    hard_url, quick_url = (f"{stack.base}/v1/arenas/{a['id']}" for a in (hard, quick))
    second = s.post(f"{stack.base}/v1/arenas", headers=key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 2000,
        "entrants": [{"strength": "easy"}, {"strength": "easy"}]}).json()
    third = s.post(f"{stack.base}/v1/arenas", headers=key, json={
        "variant": "prsi-traditional", "options": FAST, "seats": 2, "games": 4,
        "entrants": [{"strength": "easy"}, {"strength": "easy"}]})
    assert third.json()["code"] == "arena_limit", third.text  # the per-key cap holds
    s.post(f"{stack.base}/v1/arenas/{second['id']}/cancel", headers=key)
    try:
        # an outcome, not a race: the quick arena ends while the hard one (100 long games) still runs
        # (on one RQ worker it waited for every hard game before its first); how many hard games
        # finished meanwhile depends on the machine's load, so it is not asserted
        _wait(s, quick_url, other_key, lambda v: v["status"] != "running", timeout_s=180)
        end, beside = s.get(quick_url, headers=other_key).json(), s.get(hard_url, headers=key).json()
        assert end["status"] == "finished" and end["result"]["games"] == 4, end
        assert beside["status"] == "running" and beside["progress"]["done"] < 100, beside["progress"]
    finally:
        s.post(f"{hard_url}/cancel", headers=key)


BOARD_VARIANT = "prsi"  # the leaderboard test's board (the arenas above play prsi-traditional)


def test_the_leaderboard_is_paged_and_a_deleted_bot_leaves_it(stack: Stack, key: dict) -> None:
    """Issue 37 item 4 over HTTP: the public board answers a page (``limit`` at most 100, ``next_offset``),
    and ``DELETE /v1/bots/{id}`` takes the bot's row off it at once (no page read needed). A variant no
    other test's arena plays, so the other tests' boards are theirs alone."""
    from service.app import arena_results

    s, board = requests.Session(), f"{stack.base}/v1/arenas/leaderboard"
    made = s.post(f"{stack.base}/v1/bots", headers=key,
                  json={"name": "churn", "url": "http://93.184.216.34/turn", "games": [BOARD_VARIANT]})
    assert made.status_code == 201, made.text
    ident = f"bot:{made.json()['id']}"
    rows = {f"z{i:02d}": {"games": 1, "wins": 0.0, "mu": 20.0 + i / 10, "sigma": 5.0} for i in range(25)}
    rows[ident] = {"games": 9, "wins": 9.0, "mu": 80.0, "sigma": 1.0}
    store = _arenas(stack)
    store.update_leaderboard(BOARD_VARIANT, list(rows), lambda now: rows, arena_results.board_score)
    top = s.get(board, params={"variant": BOARD_VARIANT, "limit": 3}).json()
    assert top["entrants"][0]["entrant"] == ident and top["next_offset"] == 3
    assert [r["rank"] for r in top["entrants"]] == [1, 2, 3]
    assert len(s.get(board, params={"variant": BOARD_VARIANT}).json()["entrants"]) == 20  # the top 20
    too_many = s.get(board, params={"variant": BOARD_VARIANT, "limit": 101})
    assert (too_many.status_code, too_many.json()["code"]) == (422, "invalid_request")
    _, before = store.leaderboard_page(BOARD_VARIANT, 0, 1, arena_results.board_score)
    assert s.delete(f"{stack.base}/v1/bots/{made.json()['id']}", headers=key).status_code == 204
    _, after = store.leaderboard_page(BOARD_VARIANT, 0, 1, arena_results.board_score)
    assert after == before - 1
    page = s.get(board, params={"variant": BOARD_VARIANT, "limit": 100}).json()
    assert ident not in [r["entrant"] for r in page["entrants"]] and page["next_offset"] is None
