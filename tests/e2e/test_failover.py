"""Issue 26: a lost Redis primary costs clients a few seconds of 503, never a false 429, a 500, a
stuck table or a silently shortened game. A local cluster of 3 primaries with a replica each
(node timeout 1 s), an API process and a worker writing with MEOW_WAIT_REPLICAS=1; Prší tables of
a human (this test, long-polling between its moves) and a bot. Mid-play the replica of the primary
holding the most tables stops applying its primary's stream (CLIENT PAUSE WRITE: the writes that
follow reach no replica), then that primary is SIGKILLed: its replica is promoted without them,
the killed node comes back as the new primary's replica. Every answer is 200, 409 or 503; every
table finishes; every move acknowledged with 200 is in the final history, event for event.
Kill rounds with figures: bench/fault_failover.py."""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import requests

from tests.e2e.conftest import AUDIT
from tools.stack import live_stack

FAST = {"bot_delay_ms": {"easy": [150, 250]}, "announce_grace_ms": 0, "round_intermission_s": 0,
        "match_end_mode": "single_round", "turn_timeout_s": None}
TABLES = 4  # on 3 primaries: one holds two at least
# (the bots take 150-250 ms a move, so a round outlasts the 2.5 s of play before the kill: the outage is seen)


@dataclass
class Fleet:
    base: str
    cluster: object
    prefix: str


@pytest.fixture(scope="module")
def fleet(redis_url: str) -> Iterator[Fleet]:
    from service.embedded_cluster import LocalCluster

    cluster = LocalCluster.start(3, replicas=1, node_timeout_ms=1000)
    try:
        with live_stack(cluster.url, queue_url=redis_url, api_workers=1, tag="fo", audit=AUDIT, full_speed_bots=False,
                        MEOW_WAIT_REPLICAS="1", MEOW_WAIT_TIMEOUT_MS="300", MEOW_RATE_LIMITS="off") as stack:
            yield Fleet(stack.base, cluster, stack.prefix)
    finally:
        cluster.stop()


@dataclass(eq=False)
class Player(threading.Thread):
    """A human seat: moves when it may (each move under its own Idempotency-Key, retried with the
    same key after a 503), long-polls the events when it may not, until the table finishes."""

    base: str
    gid: str
    token: str
    seed: int
    deadline: float
    statuses: Counter = field(default_factory=Counter)
    acked: dict[int, dict] = field(default_factory=dict)  # seq -> event, as 200 answers gave them
    finished: bool = False

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def _call(self, method: str, path: str, **kw: object) -> requests.Response | None:
        try:
            r = requests.request(method, f"{self.base}{path}", headers={"Authorization": f"Bearer {self.token}",
                                 **kw.pop("headers", {})}, timeout=30, **kw)  # type: ignore[arg-type]
        except requests.RequestException:
            self.statuses["no answer"] += 1
            return None
        self.statuses[r.status_code] += 1
        if r.status_code >= 500 and r.status_code != 503:  # what broke (a failure names it)
            self.statuses[f"{r.status_code} {method} {path.rsplit('/', 1)[-1]}: {r.text[:300]}"] += 1
        if r.status_code == 429:  # which refusal, and on what (a failure names it)
            body = r.json()
            self.statuses[f"429 {body.get('code')} {method} {path.rsplit('/', 1)[-1]}: {body.get('detail')}"] += 1
        return r

    def run(self) -> None:
        rng = random.Random(self.seed)
        while time.monotonic() < self.deadline:
            r = self._call("GET", f"/v1/games/{self.gid}")
            if r is None or r.status_code != 200:
                time.sleep(0.2)
                continue
            view = r.json()
            if view["status"] == "finished":
                self.finished = True
                return
            legal = view["you"]["legal_actions"]
            if not legal:
                self._call("GET", f"/v1/games/{self.gid}/events", params={"after": view["version"], "wait": 2})
                continue
            action = {**rng.choice(legal), "expected_version": view["version"]}
            key = f"{self.gid}-{view['version']}-{uuid.uuid4().hex[:6]}"
            for _ in range(100):
                r = self._call("POST", f"/v1/games/{self.gid}/actions", json=action, headers={"Idempotency-Key": key})
                if r is not None and r.status_code == 503:
                    time.sleep(0.2)  # the same key again: a write that went through answers as it did
                    continue
                if r is not None and r.status_code == 200:
                    for e in r.json()["events"]:
                        self.acked[e["seq"]] = e
                break


def _node_of(fleet: Fleet, gid: str) -> int:
    from service.eventstore.keys import Keys
    from service.redis_urls import cluster_client

    c = cluster_client(fleet.cluster.url)  # type: ignore[attr-defined]
    try:
        return int(c.get_node_from_key(Keys(fleet.prefix).stream(gid)).port)
    finally:
        c.close()


def _replica_of(fleet: Fleet, primary: int) -> int:
    import redis

    for port in fleet.cluster.ports:  # type: ignore[attr-defined]
        info = redis.Redis(port=port).info("replication")
        if info.get("role") == "slave" and int(info.get("master_port", 0)) == primary:
            return int(port)
    raise AssertionError(f"no replica of {primary}")


def test_a_primary_killed_mid_play_strands_nothing_and_loses_no_acknowledged_move(fleet: Fleet) -> None:
    import redis

    s = requests.Session()
    players: list[Player] = []
    deadline = time.monotonic() + 150
    for i in range(TABLES):
        g = s.post(f"{fleet.base}/v1/games", json={"variant": "prsi", "options": FAST}).json()
        me = s.post(f"{fleet.base}/v1/games/{g['id']}/seats", json={"name": "ann"},
                    headers={"Authorization": f"Bearer {g['owner_token']}"}).json()
        assert s.post(f"{fleet.base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
                      headers={"Authorization": f"Bearer {g['owner_token']}"}).status_code == 201
        assert s.post(f"{fleet.base}/v1/games/{g['id']}/start",
                      headers={"Authorization": f"Bearer {g['owner_token']}"}).status_code == 200
        players.append(Player(fleet.base, g["id"], me["token"], 26 + i, deadline))
    nodes = Counter(_node_of(fleet, p.gid) for p in players)
    victim = nodes.most_common(1)[0][0]
    replica = _replica_of(fleet, victim)
    for p in players:
        p.start()
    time.sleep(1.5)  # play on every table

    rep = redis.Redis(port=replica)
    rep.execute_command("CLIENT", "PAUSE", 20_000, "WRITE")  # the replica stops applying its primary's writes
    time.sleep(1.0)  # writes to the victim now reach no replica: WAIT answers 503
    fleet.cluster.kill(victim)  # type: ignore[attr-defined]
    promoted = time.monotonic() + 30
    while rep.info("replication")["role"] != "master":
        assert time.monotonic() < promoted, "the replica was not promoted"
        time.sleep(0.05)
    rep.execute_command("CLIENT", "UNPAUSE")
    fleet.cluster.restart(victim)  # type: ignore[attr-defined]  # back as the promoted one's replica
    rep.close()

    for p in players:
        p.join(timeout=max(1.0, deadline - time.monotonic()))
    statuses = sum((p.statuses for p in players), Counter())
    # Never 429: a failed stream attempt gives its token's slot back even while the address's lease
    # set is on the lost primary (service/app/stream_slots.py: one node away holds back only its
    # own sets: before, a client retrying through the outage filled its token's set with them).
    assert not {k for k in statuses if isinstance(k, str) and k.startswith("429")}, statuses
    assert {k for k in statuses if isinstance(k, int)} <= {200, 409, 503}, statuses  # never 500
    assert statuses[503] > 0, statuses  # the outage was seen (the test exercised what it says)
    for p in players:
        assert p.finished, (p.gid, p.statuses)
        got = _read(s, f"{fleet.base}/v1/games/{p.gid}/history", p.token)
        events = {e["seq"]: e for e in got.json()["events"]}
        assert sorted(events) == list(range(1, len(events) + 1))
        lost = [seq for seq, e in p.acked.items() if seq not in events or events[seq]["type"] != e["type"]
                or events[seq].get("card") != e.get("card")]
        assert not lost, (p.gid, lost)  # acknowledged moves are all there, as acknowledged
        assert _read(s, f"{fleet.base}/v1/games/{p.gid}/verify", p.token).json()["ok"]


def _read(s: requests.Session, url: str, token: str) -> requests.Response:
    """A read, retried while it answers 503 (a node may still be settling)."""
    for _ in range(50):
        got = s.get(url, headers={"Authorization": f"Bearer {token}"})
        if got.status_code != 503:
            break
        time.sleep(0.2)
    assert got.status_code == 200, got.text
    return got
