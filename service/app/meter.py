"""What a request's work costs, counted where the application decides to do it: events folded,
projected or written out, and events replayed by a verification (several times dearer). The API
charges a request's cost to its cost budget (service/api/limits.py); outside a request (workers,
tools) nothing is counted. Work that runs off the event loop (service/app/compute.py) is charged
by its caller, in the request's own context.

One cost unit is ``UNIT`` events of plain work (about 1 ms of CPU on the reference machine,
docs/reliability.md "Cost-aware limits"); a request is charged whole units, rounded down, so a
request that touches fewer than ``UNIT`` events costs nothing."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

UNIT = 100  # events of plain work per cost unit
PLAIN = 1  # weight of an event folded, projected or written out (history, events, state?at)
REPLAY = 5  # weight of an event replayed by verify (decide + evolve + compare + hash)


@dataclass
class Meter:
    work: int = 0  # weighted events

    @property
    def units(self) -> int:
        return self.work // UNIT


_current: ContextVar[Meter | None] = ContextVar("meow_meter", default=None)


def start() -> Meter:
    """A fresh meter for the request that begins in this context."""
    meter = Meter()
    _current.set(meter)
    return meter


def stop() -> None:
    _current.set(None)


def charge(events: int, weight: int = PLAIN) -> None:
    """Count ``events`` events of work of ``weight`` against the current request, if any."""
    meter = _current.get()
    if meter is not None and events > 0:
        meter.work += events * weight
