"""What every game's views share: a bot's input, the follow-ups a state calls for, plain options."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from service.games.kernel.absence import absence_key
from service.games.kernel.due import Due as Due, Kind  # Due: re-exported for the games' views


@dataclass(frozen=True)
class SeatView:
    """The only input of a bot (§7.1): the public view, its own hand, its legal actions."""

    seat: int
    now: int
    public: Mapping[str, Any]
    hand: tuple[str, ...]
    legal_actions: tuple[Mapping[str, Any], ...]
    own: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The rest of the seat's private view (Sakapuss: ``passed_kind``, ``pass_log``)."""


def absence_work(m: Any) -> tuple[Due, ...]:
    """§2.7: the removal timer of every open absence (all games, in every phase of the match)."""
    return tuple(Due(Kind.TIMER, absence_key(s.seat, s.absences), s.removal_deadline or 0, s.seat, 0)
                 for s in m.seats if s.absent and s.state == "active")


def plain(value: Any) -> Any:
    """A JSON-ready deep copy (dicts and lists) of an option value or a read-only mapping."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def scores_json(m: Any) -> list[dict[str, Any]]:
    """The public score list of any game's view: points and running totals per scored round."""
    return [{"round": e.round, "points": {str(s): p for s, p in e.points},
             "totals": {str(s): t for s, t in e.totals}} for e in m.scores]


def standings_json(m: Any) -> list[dict[str, Any]] | None:
    """The final standings once the match is finished (null before)."""
    return [dict(x) for x in m.standings] if m.status == "finished" else None
