"""The event store's ports: one small Protocol per concern, each in its own module. A caller
depends on the narrowest port it uses; a backend (memory.py, redis_store.py) is one object that
implements them all (``EventStore``). Each port has its own contract test class, run on every
backend (tests/contract)."""
from __future__ import annotations

from typing import Protocol

from service.eventstore.ports.api_keys import ApiKeys
from service.eventstore.ports.append_feed import AppendFeed
from service.eventstore.ports.due_queue import DueQueue
from service.eventstore.ports.event_log import EventLog
from service.eventstore.ports.idempotency import IdempotencyRecords
from service.eventstore.ports.leases import Leases
from service.eventstore.ports.lobby import Lobby
from service.eventstore.ports.reports import Reports
from service.eventstore.ports.retention import Retention
from service.eventstore.ports.snapshots import Snapshots
from service.eventstore.ports.tokens import Tokens

PORTS: tuple[type, ...] = (EventLog, AppendFeed, DueQueue, Leases, Tokens, IdempotencyRecords, Snapshots,
                           Reports, Lobby, Retention, ApiKeys)


class EventStore(EventLog, AppendFeed, DueQueue, Leases, Tokens, IdempotencyRecords, Snapshots, Reports, Lobby,
                 Retention, ApiKeys, Protocol):
    """A whole backend: every port (what the composition root builds and hands out)."""


__all__ = ["PORTS", "ApiKeys", "AppendFeed", "DueQueue", "EventLog", "EventStore", "IdempotencyRecords", "Leases", "Lobby",
           "Reports", "Retention", "Snapshots", "Tokens"]
