"""Frozen state shared by every game: fast copies of frozen dataclasses, seats, scored rounds,
and the table (``TableState``) every game's match is."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
_new = object.__new__
_set = object.__setattr__

SCORING = "scoring"
"""The phase of a round that is over and waits for its scoring job (ROUND_OVER, §2.8 step 1)."""
INTERMISSION = "intermission"
"""The phase of a scored round while the next deal waits (§2.8 step 4)."""


_FIELDS: dict[type, frozenset[str]] = {}


def _fields(cls: type) -> frozenset[str]:
    """The field names of a dataclass, cached per type (``rep`` is on every fold's hot path)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


def rep(obj: T, **changes: Any) -> T:
    """A copy of a frozen (dict-backed) dataclass with ``changes``: fast, validates no value, but a
    name that is not one of its fields is a TypeError (a typo would otherwise add a stray attribute)."""
    stray = changes.keys() - _fields(type(obj))
    if stray:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(sorted(stray))}")
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


def rep_event(m: Any, e: Any, **changes: Any) -> Any:
    """``rep_round`` for the in-round event ``e``: ``m.rnd`` with ``changes``, the version ``e.seq``."""
    return rep_round(m, e.seq, changes)


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


def frozen_map(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only copy of a mapping (a state's hands, passes, parasites: frozen, DESIGN rule 4)."""
    return MappingProxyType(dict(d))


@dataclass(frozen=True, kw_only=True)
class TableState(Generic[R]):
    """The table every game's state is: the fields the application and the kernel read of any
    game (identity, options, lifecycle, seats, scores, seeds, the round in play ``rnd`` of the
    game's round type ``R``), whatever the game keeps besides.

    Each game's match class inherits it (``TableState[Hand]``) and adds only its own fields; the
    application types a loaded state as ``TableState`` and reaches the rest only through the
    game's registry entry. Its fields are keyword-only, so a game's own fields keep their order
    and their defaults. The kernel's fold (kernel/fold.py) folds these fields for every game.
    """

    id: str
    variant: str
    name: str | None
    options: Mapping[str, Any]
    max_players: int
    status: str  # open | running | finished
    version: int
    seats: tuple[Seat, ...]
    round_no: int
    dealer: int | None
    scores: tuple[ScoreEntry, ...]
    standings: tuple[Mapping[str, Any], ...]
    match_seed: str  # server-private until SeedsRevealed
    match_seed_commitment: str
    shuffle_seeds: tuple[tuple[int, str], ...]  # server-private (seq, hex)
    intermission_deadline: int | None = None
    end_reason: str | None = None
    seeds_revealed: bool = False
    created_at: int = 0  # the time of MatchCreated (ms), for the lobby
    rnd: R | None  # the round in play (or just ended): from its deal until the next one; None before
    replaced: tuple[int, ...] = ()  # seats whose human left and a bot took over (K-15, kernel seat_left)
    rules_version: int = 1  # MatchCreated.rules_version (kernel/table.py RULES_VERSION); 1 when absent

    def active_seats(self) -> tuple[int, ...]:
        """§2.1: seats that have not left, are not eliminated and are not waiting."""
        return tuple(s.seat for s in self.seats if s.state == "active")


def round_of(m: TableState[R]) -> R:
    """``m.rnd`` where a round must be under way: every in-round event, turn, action, view of a
    step and timer follows a deal, and a round stays in ``rnd`` from its deal until the next one."""
    rnd = m.rnd
    assert rnd is not None, "no round has been dealt"
    return rnd
