"""When a write waits for replicas (MEOW_WAIT_REPLICAS) and its primary has none connected at all
(issue 39 item 6; docs/reliability.md, "A primary with no replica"): the write answers without
waiting, with a warning line when the primary is found alone and another when a replica is back, and
a count of the writes answered so (``on_unreplicated``), rather than refusing every write of that
shard with 503 until a replica comes back. ``refuse=True`` (MEOW_WAIT_WITHOUT_REPLICA=refuse) keeps
refusing instead. A primary found alone is looked at again (INFO replication, one round trip) at most
once a second; the writes meanwhile skip the WAIT, so a lone primary costs no timeout per write."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("meow.store")
RECHECK_S = 1.0


class ReplicaWatch:
    """Which primaries (by node name) have no replica connected, as last read."""

    def __init__(self, client: Any, on_unreplicated: Callable[[], object] | None = None, refuse: bool = False,
                 recheck_s: float = RECHECK_S) -> None:
        self.r, self.refuse, self.recheck_s = client, refuse, recheck_s
        self.on_unreplicated = on_unreplicated or (lambda: None)
        self._alone: dict[str, float] = {}  # node name -> until when it counts as alone (monotonic)
        self._lock = threading.Lock()

    def _node(self, key: str) -> tuple[str, dict[str, Any]]:
        if hasattr(self.r, "get_node_from_key"):
            node = self.r.get_node_from_key(key)
            return str(node.name), {"target_nodes": node}
        return "redis", {}

    def replicas(self, key: str) -> int:
        """Replicas connected to the primary of ``key`` (INFO replication's ``connected_slaves``)."""
        _, target = self._node(key)
        info = self.r.info("replication", **target)
        if "connected_slaves" not in info and info:  # a cluster client's answer by node
            info = next(iter(info.values()))
        return int(info.get("connected_slaves", 0))

    def alone(self, key: str) -> bool:
        """Whether a write to ``key`` answers without waiting: its primary was found alone, and still is."""
        if self.refuse:
            return False
        name, _ = self._node(key)
        with self._lock:
            until = self._alone.get(name)
        if until is None:
            return False
        if time.monotonic() < until or self._still_alone(name, key):
            self.on_unreplicated()
            return True
        return False

    def found_short(self, key: str) -> bool:
        """A write's WAIT came back short: True (answer it) if its primary has no replica connected."""
        if self.refuse or self.replicas(key) > 0:
            return False
        name, _ = self._node(key)
        with self._lock:
            fresh = name not in self._alone
            self._alone[name] = time.monotonic() + self.recheck_s
        if fresh:
            log.warning("meow: the primary %s has no replica connected: its writes answer without waiting for one "
                        "(MEOW_WAIT_REPLICAS) until a replica is back", name)
        self.on_unreplicated()
        return True

    def _still_alone(self, name: str, key: str) -> bool:
        try:
            n = self.replicas(key)
        except Exception:  # noqa: BLE001 - the node away: the write itself will say so
            n = 0
        with self._lock:
            if n == 0:
                self._alone[name] = time.monotonic() + self.recheck_s
                return True
            self._alone.pop(name, None)
        log.warning("meow: the primary %s has %d replica(s) connected again: its writes wait for them", name, n)
        return False
