"""Players, rematch and quick play (issue 30 items 4, 5) on the real stack: gunicorn, a real
`meow worker` (RQ) and Redis. A bots-only match whose seats carry a key's players is counted once
in the key's leaderboard by the worker (a replayed job counts nothing), and its rematch, asked twice,
is one table with the same seats and players, linked from it; two quick-play callers at once share one table,
and a lone caller's table starts with bots after the wait (fired from the due queue)."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from service.app import api_keys
from service.eventstore.contract import shard_of
from service.eventstore.redis_store import RedisEventStore
from service.integrations.players.jobs import players_job
from tests.e2e.conftest import Stack, live_stack

WAIT_MS = 1000
ADDRESSES = {"ann": "198.51.100.1", "bob": "203.0.113.9"}  # two quick-play callers, two addresses
ONE_ROUND = {"match_end_mode": "single_round", "bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0,
             "round_intermission_s": 0, "hand_size": 4, "max_turns_per_round": 50, "turn_timeout_s": None}


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    # behind a trusted proxy (loopback) the quick-play callers come from addresses of their own: one
    # address's second seat would be steered to another table (service/app/quickplay.py)
    with live_stack(redis_url, MEOW_QUICKPLAY_WAIT_MS=str(WAIT_MS), MEOW_TRUSTED_PROXIES="127.0.0.0/8") as s:
        yield s


@pytest.fixture(scope="module")
def store(stack: Stack) -> RedisEventStore:
    return RedisEventStore(redis.Redis.from_url(stack.env["REDIS_URL"]), prefix=stack.prefix)


def _auth(token: str | None = None, key: str | None = None) -> dict[str, str]:
    return {**({"Authorization": f"Bearer {token}"} if token else {}), **({"Meow-Key": key} if key else {})}


def _until(what: str, check: Any, timeout_s: float = 60) -> Any:
    """Wait for an outcome (never for a time): ``check()``'s first truthy answer."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _finished(s: requests.Session, stack: Stack, gid: str) -> dict:
    def done() -> dict | None:
        view = s.get(f"{stack.base}/v1/games/{gid}").json()
        if view["status"] == "finished":
            return view
        s.get(f"{stack.base}/v1/games/{gid}/events", params={"after": view["version"], "wait": 5})
        return None
    return _until(f"{gid} finished", done)


def test_players_rematch_and_quick_play(stack: Stack, store: RedisEventStore) -> None:
    """One test (one stack, and quick play's wait runs while the match is played)."""
    got, lone = _quick_play_asked(stack, store)
    s = requests.Session()
    _, key = api_keys.create(store, "portal", now_ms=int(time.time() * 1000))
    g = s.post(f"{stack.base}/v1/games", json={"variant": "prsi", "options": ONE_ROUND}).json()
    gid, owner = g["id"], g["owner_token"]
    for ref in ("ann-1", "bob-2", "cid-3"):
        r = s.post(f"{stack.base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}, "player": ref},
                   headers=_auth(owner, key))
        assert r.status_code == 201, r.text
    assert s.post(f"{stack.base}/v1/games/{gid}/start", headers=_auth(owner)).status_code == 200
    view = _finished(s, stack, gid)
    assert "players" not in view  # a spectator learns no ref
    named = s.get(f"{stack.base}/v1/games/{gid}", headers=_auth(key=key)).json()["players"]
    assert [p["player"] for p in named] == ["ann-1", "bob-2", "cid-3"]

    def board() -> list[dict]:
        return s.get(f"{stack.base}/v1/leaderboard", params={"variant": "prsi"}, headers=_auth(key=key)).json()["players"]
    counted = _until("the worker counted the match", lambda: (b := board()) and len(b) == 3 and b)
    wins = {row["seat"]: row["rank"] == 1 for row in view["standings"]}
    assert {p["player"]: (p["games"], p["wins"]) for p in counted} == \
        {ref: (1, int(wins[i])) for i, ref in enumerate(("ann-1", "bob-2", "cid-3"))}
    # the job again, as RQ or the dispatcher's watchdog could run it: nothing counted twice
    job = players_job(gid, int(time.time() * 1000))
    store.schedule(job)
    shard = shard_of(gid)
    _until("the replayed job ran", lambda: store.r.zscore(store.keys.due(shard), job.job_id) is None
           and store.r.zscore(store.keys.inflight(shard), job.job_id) is None)
    assert board() == counted
    # its rematch, asked twice: one table, linked, the same seats and players, bots seated again
    asks = [s.post(f"{stack.base}/v1/games/{gid}/rematch", headers=_auth(owner)) for _ in range(2)]
    assert [a.status_code for a in asks] == [201, 200] and asks[0].json()["id"] == asks[1].json()["id"]
    rid = asks[0].json()["id"]
    assert s.get(f"{stack.base}/v1/games/{gid}").json()["rematch"] == rid
    again = s.get(f"{stack.base}/v1/games/{rid}", headers=_auth(key=key)).json()
    assert [(x["name"], x["kind"], x["strength"]) for x in again["seats"]] == \
        [(x["name"], x["kind"], x["strength"]) for x in view["seats"]]
    assert again["players"] == named and again["options"] == view["options"] and again["status"] == "open"
    assert s.post(f"{stack.base}/v1/games/{rid}/start", headers=_auth(owner)).status_code == 200  # the same owner token
    _quick_play_filled(stack, got, lone)


def _quick_play_asked(stack: Stack, store: RedisEventStore) -> tuple[list[dict], dict]:
    """Two callers at once (no key) and a lone caller with a key: their seats."""
    _, key = api_keys.create(store, "quick", now_ms=int(time.time() * 1000))
    barrier = threading.Barrier(2)
    got: list[dict] = []

    def ask(name: str) -> None:
        barrier.wait()
        r = requests.post(f"{stack.base}/v1/quickplay", json={"variant": "prsi", "name": name},
                          headers={"X-Forwarded-For": ADDRESSES[name]})
        assert r.status_code == 201, r.text
        got.append(r.json())
    threads = [threading.Thread(target=ask, args=(n,)) for n in ("ann", "bob")]
    for t in threads:
        t.start()
    lone = requests.post(f"{stack.base}/v1/quickplay", json={"variant": "prsi", "name": "cid", "player": "cid-9"},
                         headers=_auth(key=key))
    for t in threads:
        t.join()
    assert lone.status_code == 201, lone.text
    return got, lone.json()


def _quick_play_filled(stack: Stack, got: list[dict], lone: dict) -> None:
    """The two callers share one table, the lone one has its own; after the wait both start with bots."""
    assert len(got) == 2 and got[0]["id"] == got[1]["id"] != lone["id"]
    assert sorted(g["seat"] for g in got) == [0, 1]
    for gid, humans in ((got[0]["id"], 2), (lone["id"], 1)):
        view = _until(f"{gid} started with bots", lambda gid=gid: (v := requests.get(f"{stack.base}/v1/games/{gid}").json())
                      and v["status"] != "open" and v, timeout_s=30)
        kinds = [x["kind"] for x in view["seats"]]
        assert kinds[:humans] == ["human"] * humans and set(kinds[humans:]) == {"bot"}
        assert len(kinds) == view["options"]["max_players"]
