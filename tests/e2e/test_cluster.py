"""Issue 15: a Prší match end to end on a 3-primary Redis Cluster (started on loopback), with two
API processes and two workers (each with its dispatcher), RQ's queues on their own Redis
(MEOW_QUEUE_URL: the tests' single Redis); a live stream from the other API process; verify."""
from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator

import pytest
import requests

from tests.e2e.conftest import AUDIT
from tools.stack import live_stack

FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0, "penalty_limit": 50}


def _auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.fixture(scope="module")
def fleet(redis_cluster, redis_url: str) -> Iterator[list[str]]:
    with live_stack(redis_cluster.url, queue_url=redis_url, apis=2, api_workers=1, workers=2, tag="cl", audit=AUDIT,
                    full_speed_bots=False) as stack:
        yield stack.bases


def test_a_prsi_match_plays_to_the_end_on_the_cluster_across_two_apis_and_two_workers(fleet, redis_cluster) -> None:
    a, b = fleet
    s = requests.Session()
    g = s.post(f"{a}/v1/games", json={"variant": "prsi", "options": FAST}).json()
    gid, owner = g["id"], g["owner_token"]
    me = s.post(f"{b}/v1/games/{gid}/seats", json={"name": "ann"}, headers=_auth(owner)).json()
    for _ in range(2):
        assert s.post(f"{a}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}},
                      headers=_auth(owner)).status_code == 201
    streamed: list[dict] = []

    def listen() -> None:  # a spectator's live stream from the other API process
        with requests.get(f"{b}/v1/games/{gid}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=(5, 60)) as r:
            for line in r.iter_lines():
                if line.startswith(b"data:"):
                    streamed.append(json.loads(line[5:]))
                    if streamed[-1].get("type") == "SeedsRevealed":
                        return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert s.post(f"{b}/v1/games/{gid}/start", headers=_auth(owner)).status_code == 200
    rng = random.Random(15)
    deadline = time.monotonic() + 240
    view: dict = {}
    turn = 0
    while time.monotonic() < deadline:
        base = fleet[turn % 2]  # every request to the other process in turn
        turn += 1
        view = s.get(f"{base}/v1/games/{gid}", headers=_auth(me["token"])).json()
        if view["status"] == "finished":
            break
        legal = view["you"]["legal_actions"]
        if legal:
            r = s.post(f"{base}/v1/games/{gid}/actions", json=rng.choice(legal), headers=_auth(me["token"]))
            assert r.status_code in (200, 409), r.text
        else:
            s.get(f"{base}/v1/games/{gid}/events", params={"after": view["version"], "wait": 5})
    assert view["status"] == "finished", view
    history = s.get(f"{a}/v1/games/{gid}/history", headers=_auth(me["token"])).json()["events"]
    assert [e["seq"] for e in history] == list(range(1, len(history) + 1))
    assert "RoundScored" in {e["type"] for e in history}  # the scoring job ran on a worker
    assert {e["seat"] for e in history if e["type"] == "CardPlayed"} >= {1, 2}  # bots moved
    assert s.get(f"{b}/v1/games/{gid}/verify", headers=_auth(me["token"])).json()["ok"]
    listener.join(timeout=30)
    assert [e["seq"] for e in streamed] == [e["seq"] for e in history][:len(streamed)] and streamed
    assert streamed[-1]["type"] == "SeedsRevealed"
    # the game's stream is on the cluster
    from service.redis_urls import cluster_client

    c = cluster_client(redis_cluster.url)
    slots = {c.keyslot(k) for k in c.scan_iter(match=f"*:g:{gid}", target_nodes=c.ALL_NODES)}
    c.close()
    assert len(slots) == 1
