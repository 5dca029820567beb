"""The one redaction layer: every outbound event and view passes through here."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from service.games import engine
from service.games.kernel.model import Event
from service.games.kernel.state import TableState


@dataclass(frozen=True, slots=True)
class Viewer:
    """What a caller may see: a seat's private fields, or everything (finished-game history)."""

    seat: int | None = None
    reveal_all: bool = False



def rfc3339(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def project_event(event: Event, viewer: Viewer) -> dict[str, Any]:
    """The event as this viewer may see it: public data, plus own private fields."""
    out: dict[str, Any] = {
        "seq": event.seq,
        "type": event.type,
        "at": rfc3339(event.at),
        "round": event.round,
        "seat": event.seat,
        "data": dict(event.data),
    }
    if viewer.reveal_all:
        if event.to_seat:
            out["private"] = {str(k): dict(v) for k, v in event.to_seat.items()}
        if event.secret:
            out["secret"] = dict(event.secret)
    elif viewer.seat is not None and viewer.seat in event.to_seat:
        out["private"] = {str(viewer.seat): dict(event.to_seat[viewer.seat])}
    return out


def project_view(state: TableState, viewer: Viewer, now: int, record: bool = False,
                 notices: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The game view: the public part for all (with the round's public record on request),
    ``you`` for a seated caller, and the server's public notices (service/app/fairness.py), the
    same for every viewer: only their code, a number of ms and its sentence pass."""
    view = engine.public_view(state, now, record)
    if notices:
        view["notices"] = [{"code": str(n["code"]), "budget_ms": int(n["budget_ms"]), "detail": str(n["detail"])}
                           for n in notices]
    if viewer.seat is not None:
        view["you"] = engine.private_view(state, viewer.seat, now)
    return view


def name_players(view: dict[str, Any], refs: Mapping[int, str]) -> dict[str, Any]:
    """The seats' player refs (service/app/players.py), shown only to the API key that set them:
    ``refs`` holds that key's own, and a caller without it is given none (a ref is the integrator's
    id for one of its users: no other caller, spectator or seat, learns it or can follow it from
    table to table)."""
    if refs:
        view["players"] = [{"seat": seat, "player": ref} for seat, ref in sorted(refs.items())]
    return view
