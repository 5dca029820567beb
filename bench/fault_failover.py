"""Fault scenario: a Redis Cluster primary SIGKILLed under load, its replica promoted (issue 26).

A local cluster of 3 primaries with one replica each (service/embedded_cluster.py, node timeout
1 s, no persistence: the replica is the only copy), client threads playing two-seat single-round
Prší tables through the application (bench/fault_redis.py's players: every 200 noted with its
events; follow-ups run in the same threads). Each round: the replica of one primary stops applying
its primary's stream (CLIENT PAUSE WRITE: "the replica link cut"), ``cut_s`` later the primary is
SIGKILLed, the replica is promoted, the pause is lifted and the killed node is started again (it
comes back as the new primary's replica). Figures per setting of MEOW_WAIT_REPLICAS (0 and 1):
promotion time (kill -> the replica says it is a primary), 503 answers per kill, acknowledged
events lost (a 200 whose events the store no longer holds), and every other answer (a 500 or a
429 fails the scenario). ``wait_cost`` measures moves/s and a move's p50 with each setting on a
healthy cluster.

    python -m bench.faults --only failover [--failover-kills 10] [--write docs/reliability.md]
"""
from __future__ import annotations

import logging
import statistics
import threading
import time
from collections import Counter
from typing import Any

from bench.fault_redis import Player, check_games, measure_moves
from service.api.app import create_app
from service.settings import Settings
from tools.stack import fault_rounds

CUT_S = 1.0  # the replica stops applying writes this long before its primary is killed


def _role(port: int) -> tuple[str, int, str]:
    import redis

    c = redis.Redis(port=port, socket_connect_timeout=0.5, socket_timeout=2)
    try:
        info = c.info("replication")
        return str(info.get("role")), int(info.get("master_port", 0) or 0), str(info.get("master_link_status", ""))
    except redis.exceptions.RedisError:
        return "down", 0, ""
    finally:
        c.close()


def _pairs(ports: list[int]) -> list[tuple[int, int]]:
    """(primary, its replica) as the nodes say now."""
    return sorted((master, port) for port in ports for role, master, link in [_role(port)] if role == "slave")


def _wait(check: Any, timeout: float) -> float:
    t0 = time.monotonic()
    while not check():
        if time.monotonic() - t0 > timeout:
            raise RuntimeError("timed out")
        time.sleep(0.02)
    return time.monotonic() - t0


def failover(kills: int, threads: int, waits: int, out: Any, run_s: float = 2.0, restart: bool = True,
             alone: str = "answer") -> Any:
    """``out`` is a bench.faults.Outcome; one trial per kill. ``restart=False`` (issue 39 item 6): the
    killed node stays down, so the promoted primary has no replica at all; ``alone`` is then what its
    writes do (MEOW_WAIT_WITHOUT_REPLICA: answer without waiting, or refuse with 503)."""
    import redis

    from service.embedded_cluster import LocalCluster

    logging.getLogger("meow").setLevel(logging.CRITICAL)  # (a line per refused request and per failing shard)
    cluster = LocalCluster.start(3, replicas=1, node_timeout_ms=1000)
    settings = Settings(redis_url=cluster.url, key_prefix=f"meow-fo{waits}", rate_limits="off", compact_after_s=-1,
                        wait_replicas=waits, wait_timeout_ms=300, redis_pool_size=threads * 4 + 8,
                        wait_without_replica=alone)
    app = create_app(settings)
    stop, down = threading.Event(), threading.Event()
    players = [Player(app, seed, stop, down) for seed in range(threads)]
    promotions: list[float] = []
    per_kill: list[int] = []
    t0 = time.perf_counter()
    try:
        for p in players:
            p.start()
        held: dict[str, Any] = {}  # this round's primary, replica, connection to the replica, 503s before
        gone: list[int] = []  # killed and left down (restart=False): started again once play stopped

        def arm(k: int) -> None:  # the replica stops applying its primary's stream, CUT_S before the kill
            pairs = _pairs(cluster.ports)  # (without restarts, a killed primary's pair is gone: the next one)
            primary, replica = pairs[k % 3] if restart else pairs[0]
            held.update(primary=primary, replica=replica, rep=redis.Redis(port=replica),
                        refused=sum(p.down_answers.total() for p in players))
            held["rep"].execute_command("CLIENT", "PAUSE", 30_000, "WRITE")
            time.sleep(CUT_S)

        def strike(k: int) -> None:
            primary, replica, rep = held["primary"], held["replica"], held["rep"]
            cluster.kill(primary)
            promotions.append(_wait(lambda: _role(replica)[0] == "master", 60))  # (this round's)
            rep.execute_command("CLIENT", "UNPAUSE")
            rep.close()
            if restart:
                cluster.restart(primary)
                _wait(lambda: _role(primary) == ("slave", replica, "up"), 60)  # (this round's)
            else:
                gone.append(primary)

        def settle(k: int) -> None:
            per_kill.append(sum(p.down_answers.total() for p in players) - held["refused"])

        for resumed in fault_rounds(kills, run_s, lambda: sum(p.moves for p in players), strike, arm, settle):
            out.trials += 1
            if resumed:
                out.ok += 1
            else:
                out.fail("play did not resume within 30 s of the promotion")
    finally:
        stop.set()
        for p in players:
            p.join(30)
    out.seconds = time.perf_counter() - t0
    for port in gone if not restart else ():  # (the count below reaches the cluster through its first nodes)
        cluster.restart(port)
        _wait(lambda p=port: _role(p)[0] == "slave", 60)  # type: ignore[misc]
    try:
        acked = sum(len(a) for p in players for a in p.acked.values())
        lost = _lost(settings, players)
        for p in players:
            out.statuses.update(p.down_answers)
            for why in p.bad[:3]:
                out.fail(why)
        if waits and lost:
            out.fail(f"{lost} acknowledged events lost with MEOW_WAIT_REPLICAS={waits}")
        for why in check_games(settings, players):
            if "acknowledged events lost" not in why:  # (counted above: a figure without waits)
                out.fail(why)
        moves = sum(p.moves for p in players)
        answers = sum((p.down_answers for p in players), Counter())
        others = {k: v for k, v in answers.items() if not k.startswith("503")} or "none"
        out.note = (f"promotion {_spread(promotions, 's')}; 503s per kill {_spread(per_kill, '')}; "
                    f"acknowledged events lost: {lost} of {acked} ({moves} moves, "
                    f"{sum(len(p.games) for p in players)} games); other answers: {others}")
        if out.failures:
            out.ok = 0
    finally:
        cluster.stop()
    return out


def _lost(settings: Settings, players: list[Player]) -> int:
    from service.wiring import build_store

    store = build_store(settings)
    n = 0
    for p in players:
        for gid, seen in p.acked.items():
            have = {s.event.seq: s.event.type for s in store.read_stored(gid)}
            n += sum(1 for seq, t in seen.items() if have.get(seq) != t)
    return n


def _spread(xs: list[Any], unit: str) -> str:
    if not xs:
        return "-"
    fmt = (lambda x: f"{x:.1f}{unit}") if unit else str
    return f"median {fmt(statistics.median(xs))} (min {fmt(min(xs))}, max {fmt(max(xs))})"


def wait_cost(waits: int, threads: int, seconds: float, out: Any) -> Any:
    """Accepted moves per second and a move's median latency on a healthy 3+3 cluster."""
    from service.embedded_cluster import LocalCluster

    cluster = LocalCluster.start(3, replicas=1, node_timeout_ms=1000)
    settings = Settings(redis_url=cluster.url, key_prefix=f"meow-wc{waits}", rate_limits="off", compact_after_s=-1,
                        wait_replicas=waits, wait_timeout_ms=1000, redis_pool_size=threads * 4 + 8)
    try:
        measure_moves(settings, threads, seconds, out, lambda: f"a lone write's p50 {_write_p50(cluster, waits):.2f} ms")
    finally:
        cluster.stop()
    return out


def _write_p50(cluster: Any, waits: int, n: int = 2000) -> float:
    """The median round trip (ms) of a lone SET, followed by WAIT on the same connection when
    ``waits`` (what the append adds to its script), on an otherwise idle cluster."""
    from service.redis_urls import cluster_client

    r = cluster_client(cluster.url)
    node = r.get_node_from_key("{w}k")
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        pipe = r.pipeline(transaction=False)
        pipe.set("{w}k", i)
        if waits:
            pipe.execute_command("WAIT", waits, 1000, target_nodes=node)
        pipe.execute()
        times.append(time.perf_counter() - t0)
    r.close()
    return statistics.median(times) * 1000


if __name__ == "__main__":  # the fallback measured: python -m bench.fault_failover [--kills 3]
    import argparse

    from bench.faults import Outcome

    ap = argparse.ArgumentParser(description="a primary killed and not restarted: its promoted replica is alone")
    ap.add_argument("--kills", type=int, default=3)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--run-s", type=float, default=6.0, help="play between kills (and after the last)")
    cli = ap.parse_args()
    for mode in ("answer", "refuse"):
        got = failover(cli.kills, cli.players, 1, Outcome(f"MEOW_WAIT_REPLICAS=1, old node not restarted, {mode}"),
                       run_s=cli.run_s, restart=False, alone=mode)
        print(f"| {got.scenario} | {got.trials} | {got.ok} | {got.note} | {got.seconds:.1f} s |"
              + (f" failures: {got.failures}" if got.failures else ""), flush=True)
