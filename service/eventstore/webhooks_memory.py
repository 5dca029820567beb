"""The webhooks port in memory (mixed into MemoryEventStore): the same promises as on Redis."""
from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from service.eventstore import versioned


@dataclass
class _Owner:
    hooks: dict[str, bytes] = field(default_factory=dict)
    health: dict[str, dict[str, int]] = field(default_factory=dict)
    deliveries: dict[str, tuple[int, bytes]] = field(default_factory=dict)  # id -> (position, record)
    seq: int = 0
    audit: dict[str, list[bytes]] = field(default_factory=dict)  # hook id -> its audit log, newest first


class MemoryWebhooks:
    _wh_lock = threading.Lock()

    def _owner(self, owner: str) -> _Owner:
        owners: dict[str, _Owner] = self.__dict__.setdefault("_wh_owners", {})
        return owners.setdefault(owner, _Owner())

    def hook_create(self, owner: str, hook_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        with self._wh_lock:
            o = self._owner(owner)
            if hook_id in o.hooks or hook_id in o.audit or (cap > 0 and len(o.hooks) >= cap):
                return False
            o.hooks[hook_id] = bytes(record)
            versioned.push(o.audit.setdefault(hook_id, []), entry, keep)
            return True

    def hook_change(self, owner: str, hook_id: str, expect: int, record: bytes | None, entry: bytes, keep: int,
                    health: Mapping[str, int] | None = None) -> versioned.Changed:
        with self._wh_lock:
            o = self._owner(owner)
            status = versioned.check(o.hooks.get(hook_id), expect)
            if status != versioned.OK:
                return versioned.Changed(status, o.hooks.get(hook_id))
            if record is None:
                del o.hooks[hook_id]
                o.health.pop(hook_id, None)
            else:
                o.hooks[hook_id] = bytes(record)
                h = o.health.setdefault(hook_id, {})
                for k, v in (health or {}).items():
                    if v:
                        h[k] = int(v)
                    else:
                        h.pop(k, None)
            versioned.push(o.audit.setdefault(hook_id, []), entry, keep)
            return versioned.Changed(status, None if record is None else bytes(record))

    def hook_log(self, owner: str, hook_id: str, limit: int) -> list[bytes]:
        with self._wh_lock:
            return list(self._owner(owner).audit.get(hook_id, [])[:max(0, limit)])

    def hook_get(self, owner: str, hook_id: str) -> bytes | None:
        with self._wh_lock:
            return self._owner(owner).hooks.get(hook_id)

    def hook_all(self, owner: str) -> dict[str, bytes]:
        with self._wh_lock:
            return dict(self._owner(owner).hooks)

    def hook_health(self, owner: str, hook_id: str) -> dict[str, int]:
        with self._wh_lock:
            return dict(self._owner(owner).health.get(hook_id, {}))

    def hook_health_add(self, owner: str, hook_id: str, name: str, by: int) -> int:
        with self._wh_lock:
            h = self._owner(owner).health.setdefault(hook_id, {})
            h[name] = h.get(name, 0) + by
            return h[name]

    def hook_health_set(self, owner: str, hook_id: str, values: Mapping[str, int]) -> None:
        with self._wh_lock:
            h = self._owner(owner).health.setdefault(hook_id, {})
            for k, v in values.items():
                if v:
                    h[k] = int(v)
                else:
                    h.pop(k, None)

    def delivery_add(self, owner: str, delivery_id: str, record: bytes, *, keep: int) -> int:
        with self._wh_lock:
            o = self._owner(owner)
            if delivery_id in o.deliveries:
                return 0
            o.seq += 1
            o.deliveries[delivery_id] = (o.seq, bytes(record))
            over = len(o.deliveries) - max(1, keep)
            for gone, _ in sorted(o.deliveries.items(), key=lambda kv: kv[1][0])[:max(0, over)]:
                del o.deliveries[gone]
            return o.seq

    def delivery_get(self, owner: str, delivery_id: str) -> bytes | None:
        with self._wh_lock:
            found = self._owner(owner).deliveries.get(delivery_id)
            return found[1] if found else None

    def delivery_put(self, owner: str, delivery_id: str, record: bytes) -> bool:
        with self._wh_lock:
            o = self._owner(owner)
            if delivery_id not in o.deliveries:
                return False
            o.deliveries[delivery_id] = (o.deliveries[delivery_id][0], bytes(record))
            return True

    def delivery_page(self, owner: str, before: int | None, limit: int) -> list[tuple[int, bytes]]:
        with self._wh_lock:
            rows = sorted(self._owner(owner).deliveries.values(), key=lambda pr: -pr[0])
            return [pr for pr in rows if before is None or pr[0] < before][:max(1, limit)]
