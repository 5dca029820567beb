"""Frozen state shared by every game: fast copies of frozen dataclasses, seats, scored rounds."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
_new = object.__new__
_set = object.__setattr__


def rep(obj: T, **changes: Any) -> T:
    """A copy of a frozen (dict-backed) dataclass with ``changes``: fast, never validates."""
    d = obj.__dict__.copy()
    d.update(changes)
    new = _new(type(obj))
    _set(new, "__dict__", d)
    return new


def rep_round(m: Any, seq: int, changes: Mapping[str, Any]) -> Any:
    """evolve's one step for an in-round event: ``m.rnd`` with ``changes``, the version ``seq``.

    Builds the new Round and the new Match directly (two dict copies, no keyword plumbing).
    """
    rnd = m.rnd
    d = rnd.__dict__.copy()
    d.update(changes)
    new_rnd = _new(type(rnd))
    _set(new_rnd, "__dict__", d)
    md = m.__dict__.copy()
    md["version"] = seq
    md["rnd"] = new_rnd
    new = _new(type(m))
    _set(new, "__dict__", md)
    return new


def rep_version(m: Any, seq: int) -> Any:
    """evolve's step for an event that changes nothing but the version."""
    md = m.__dict__.copy()
    md["version"] = seq
    new = _new(type(m))
    _set(new, "__dict__", md)
    return new


@dataclass(frozen=True)
class Seat:
    """One seat of the table (§2.1, §3.10)."""

    seat: int
    name: str
    kind: str  # human | bot
    strength: str | None
    state: str  # active | waiting | eliminated | left
    total: int = 0
    creator: bool = False
    elim_round: int | None = None
    timeouts: int = 0  # §2.7: consecutive timeouts of this seat
    absent: bool = False  # §2.7: marked absent after max_consecutive_timeouts (public "absent")
    absences: int = 0  # how many absences this seat has had (the n of its removal timer key)
    removal_deadline: int | None = None  # §2.7: absent_removal_s after the marking TimedOut


@dataclass(frozen=True)
class ScoreEntry:
    """One scored round: points and running totals per seat."""

    round: int
    points: tuple[tuple[int, int], ...]
    totals: tuple[tuple[int, int], ...]
