"""How many replicas a write waits for (issue 39 item 6; docs/reliability.md, "Waiting for replicas").

MEOW_WAIT_REPLICAS set: that many. Unset: it follows the store, read once when a process starts: 1
when every primary has a replica connected (a Redis Cluster whose primaries all have replicas, or a
lone Redis with one), else 0 (asynchronous replication: a failover may lose the last writes), with
a line saying which and why. A write whose primary has no replica connected at all answers without
waiting (service/eventstore/replica_wait.py) unless MEOW_WAIT_WITHOUT_REPLICA=refuse."""
from __future__ import annotations

import sys
from typing import Any

from service.eventstore.replica_wait import ReplicaWatch
from service.settings import Settings, SettingsError


def primaries_replicas(client: Any) -> list[int]:
    """Replicas connected to each primary of the store (one number for a lone Redis)."""
    if hasattr(client, "get_primaries"):
        out = []
        for node in client.get_primaries():
            info = client.info("replication", target_nodes=node)
            if "connected_slaves" not in info and info:
                info = next(iter(info.values()))
            out.append(int(info.get("connected_slaves", 0)))
        return out
    return [int(client.info("replication").get("connected_slaves", 0))]


def wait_replicas(settings: Settings, client: Any) -> int:
    if settings.wait_replicas >= 0:
        return settings.wait_replicas
    try:
        counts = primaries_replicas(client)
    except Exception as exc:  # noqa: BLE001 - the store away at start: no wait, said
        print(f"meow: MEOW_WAIT_REPLICAS unset and the store's replicas unknown ({exc}): writes do not wait for "
              "replicas (0)", file=sys.stderr, flush=True)
        return 0
    wait = 1 if counts and min(counts) >= 1 else 0
    shape = f"{len(counts)} primar{'y' if len(counts) == 1 else 'ies'} with {', '.join(map(str, counts))} replica(s)"
    print(f"meow: MEOW_WAIT_REPLICAS unset: {wait} ({shape}; "
          f"{'a write answers once a replica holds it' if wait else 'a failover may lose the last writes'})",
          file=sys.stderr, flush=True)
    return wait


def replica_watch(settings: Settings, client: Any) -> ReplicaWatch:
    if settings.wait_without_replica not in ("answer", "refuse"):
        raise SettingsError(f"MEOW_WAIT_WITHOUT_REPLICA must be answer or refuse, not {settings.wait_without_replica!r}")
    from service import metrics

    return ReplicaWatch(client, on_unreplicated=metrics.UNREPLICATED.inc, refuse=settings.wait_without_replica == "refuse")
