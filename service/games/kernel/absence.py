"""§2.7 for every game: consecutive timeouts, absent seats, their removal timers and the autopilot.

The one owner of the absence timer's key, ``absent-<seat>-<n>`` for a seat's n-th absence (§2.6(4)):
``absence_key`` writes it and ``parse_absence_key`` reads it; nothing else spells it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Event, LeaveSeat, RuleViolation
from service.games.kernel.state import Seat, rep

ABSENCE = "absent"
"""The first part of an absence timer's key."""


def absence_key(seat: int, n: int) -> str:
    """The key of the removal timer of ``seat``'s ``n``-th absence."""
    return f"{ABSENCE}-{seat}-{n}"


def parse_absence_key(key: object) -> tuple[int, int] | None:
    """(seat, n) of an absence timer's key; None for any other key."""
    if not isinstance(key, str):
        return None
    parts = key.split("-")
    if len(parts) != 3 or parts[0] != ABSENCE or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return int(parts[1]), int(parts[2])


def autopiloted(m: Any, seat: int) -> bool:
    """§2.7: an absent seat under ``bot_autopilot`` is played by an ``easy`` bot."""
    s = m.seats[seat]
    return s.absent and s.state == "active" and m.options.get("absent_policy") == "bot_autopilot"


def plays_at_once(m: Any, seat: int) -> bool:
    """§2.7: an absent seat under ``default_actions`` gets its default with no waiting."""
    s = m.seats[seat]
    return s.absent and m.options.get("absent_policy", "default_actions") == "default_actions"


def absent_seat(m: Any, key: object) -> int | None:
    """The seat whose open absence ``key`` names, or None (another key, or that absence has closed)."""
    parsed = parse_absence_key(key)
    if parsed is None:
        return None
    seat, n = parsed
    if seat >= len(m.seats):
        return None
    s = m.seats[seat]
    ok = s.absent and s.state == "active" and s.absences == n
    return seat if ok else None


def fire_absence(tx: Any, key: object, leave: Callable[[Any, LeaveSeat], None]) -> bool:
    """§2.7/§3.10: the removal timer of an open absence removes its seat (``leave``, as the game
    leaves) once due; False when ``key`` names no open absence. Early, it is ``nothing_to_do``."""
    m = tx.m
    seat = absent_seat(m, key)
    if seat is None:
        return False
    if tx.at < (m.seats[seat].removal_deadline or 0):
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
    leave(tx, LeaveSeat(seat, "absent_removed"))
    return True


def marks_absent(m: Any, seat: int, at: int) -> dict[str, Any]:
    """§2.7: the fields of the TimedOut that reaches max_consecutive_timeouts (bots never go absent)."""
    s = m.seats[seat]
    limit = m.options.get("max_consecutive_timeouts")
    if s.absent or s.kind != "human" or limit is None or s.timeouts + 1 < int(limit):
        return {}
    return {"absent": True, "removal_deadline": at + int(m.options.get("absent_removal_s", 300)) * 1000}


def timed_out_seats(seats: tuple[Seat, ...], e: Event) -> tuple[Seat, ...]:
    """§2.7: count the timeout; ``absent`` starts an absence with its removal deadline."""
    d = e.data
    s = d["seat"]
    old = seats[s]
    kw: dict[str, object] = {"timeouts": old.timeouts + 1}
    if d.get("absent"):
        kw.update(absent=True, absences=old.absences + 1, removal_deadline=d.get("removal_deadline"))
    out = list(seats)
    out[s] = rep(old, **kw)
    return tuple(out)


def present(m: Any, e: Event) -> Any:
    """§2.7: an accepted action of the seat itself (not a default, not the autopilot) clears its
    consecutive timeouts and its absence, which closes the removal timer."""
    seat = e.seat
    if seat is None or seat >= len(m.seats):
        return m
    old = m.seats[seat]
    if (not old.timeouts and not old.absent) or e.data.get("auto"):
        return m
    seats = list(m.seats)
    seats[seat] = rep(old, timeouts=0, absent=False, removal_deadline=None)
    return rep(m, seats=tuple(seats))
