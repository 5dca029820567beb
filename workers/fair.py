"""The search lane's fair line (docs/reliability.md, "Fair search and bots-only tables").

A dispatcher holds the searches it claimed here instead of queueing them all at once, and releases
one whenever a search worker can take it: round robin across owners (the creating client's network,
service/app/fairness.py), then across that owner's tables, one job of a table per turn. Each job
released carries the search time it is granted (``granted_ms``): its table's budget while the table
is alone on the lane; while others wait or searched lately, at most ``search_slice_ms``, shrunk
further so that every waiting search fits before the earliest answer time among them, and never
below ``search_min_ms``. A table's hard bot therefore answers within its own budget plus a small
bound (about two slices and a minimum per owner ahead of it), however many tables another owner runs.
"""
from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Waiting:
    shard: str
    job_id: str
    payload: dict[str, Any]
    owner: str
    claimed_at: int

    @property
    def game(self) -> str:
        return str(self.payload.get("game", ""))


@dataclass
class FairLine:
    """Claimed searches waiting for a search worker, taken in fair order (not thread-safe: one
    dispatcher thread owns it)."""

    owner_of: Callable[[str], str]  # game id -> its owner (hashed), "-" when unknown
    slice_ms: int = 250
    min_ms: int = 25
    idle_ms: int = 5000
    owners: OrderedDict[str, OrderedDict[str, deque[Waiting]]] = field(default_factory=OrderedDict)
    ids: set[str] = field(default_factory=set)
    recent: dict[str, int] = field(default_factory=dict)  # game -> when its last search was released

    def __len__(self) -> int:
        return len(self.ids)

    def put(self, shard: str, job_id: str, payload: dict[str, Any], now: int) -> None:
        """Line up a claimed search (a job already in line is not lined up twice)."""
        if job_id in self.ids:
            return
        w = Waiting(shard, job_id, payload, self.owner_of(str(payload.get("game", ""))), now)
        self.ids.add(job_id)
        self.owners.setdefault(w.owner, OrderedDict()).setdefault(w.game, deque()).append(w)

    def take(self, now: int, workers: int = 1) -> Waiting | None:
        """The next search in fair order, with its ``granted_ms`` set in its payload."""
        if not self.owners:
            return None
        owner, tables = next(iter(self.owners.items()))
        game, jobs = next(iter(tables.items()))
        w = jobs.popleft()
        self.ids.discard(w.job_id)
        tables.pop(game)
        if jobs:
            tables[game] = jobs  # this table's next job waits for its next turn
        self.owners.pop(owner)
        if tables:
            self.owners[owner] = tables  # this owner's next table waits for the owner's next turn
        self._grant(w, now, workers)
        return w

    def held(self) -> list[Waiting]:
        return [w for tables in self.owners.values() for jobs in tables.values() for w in jobs]

    def _grant(self, w: Waiting, now: int, workers: int) -> None:
        budget = w.payload.get("budget_ms")
        for game in [g for g, at in self.recent.items() if now - at >= self.idle_ms]:
            del self.recent[game]
        alone = not self.ids and not any(g != w.game for g in self.recent)
        self.recent[w.game] = now
        if not budget:
            return
        budget = int(budget)
        if alone:
            w.payload["granted_ms"] = budget
            return
        line = [w, *self.held()]
        earliest = min(int(x.payload.get("answer_at", now)) for x in line)
        share = (earliest - now) * max(1, workers) // len(line)
        w.payload["granted_ms"] = max(min(budget, self.min_ms), min(budget, self.slice_ms, share))
