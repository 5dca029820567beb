"""What every game's view of its table shares (§2.4, §2.8): the public view's frame, a seat's row,
and the follow-ups between rounds (scoring, the next deal)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.kernel.due import Due, Kind
from service.games.kernel.state import INTERMISSION, SCORING, Seat
from service.games.kernel.views import absence_work, plain, scores_json, standings_json


def seat_row(s: Seat, hand_count: int, score: int) -> dict[str, Any]:
    """One seat of the public view: who sits there, its state (absent shown as such, §2.7), the
    size of its hand, its score and its timeouts (a game may add its own fields after these)."""
    return {"seat": s.seat, "name": s.name, "kind": s.kind, "strength": s.strength,
            "state": "absent" if s.absent and s.state == "active" else s.state,
            "hand_count": hand_count, "score": score, "timeouts": s.timeouts,
            "removal_deadline": s.removal_deadline if s.absent else None}


def public_view_of(m: Any, *, phase: str | None, seats: list[dict[str, Any]],
                   table: Callable[[Any], dict[str, Any] | None], turn: dict[str, Any] | None,
                   options: Mapping[str, Any] | None = None, announcements: list[dict[str, Any]] | None = None,
                   armed: int | None = None, record: dict[str, Any] | None = None) -> dict[str, Any]:
    """API.md GET /v1/games/{id}: the public view every game answers, from the game's parts: the
    table's identity, lifecycle, scores and seed commitment are the kernel's; ``table(m)`` is asked
    once the match has started; the intermission's deadline is shown while it runs."""
    return {
        "id": m.id, "variant": m.variant, "name": m.name, "options": plain(m.options) if options is None else options,
        "status": m.status, "phase": phase, "round": m.round_no, "version": m.version,
        "seats": seats, "table": table(m) if m.status != "open" else None, "turn": turn,
        "announcements": [] if announcements is None else announcements, "armed": armed,
        "scores": scores_json(m), "standings": standings_json(m),
        "end_reason": m.end_reason,
        "intermission_deadline": m.intermission_deadline if phase == INTERMISSION else None,
        "match_seed_commitment": m.match_seed_commitment,
        "record": record,
    }


def follow_ups(m: Any, in_round: Callable[[Any], tuple[Due, ...]]) -> tuple[Due, ...]:
    """What the dispatcher should schedule for a state (§2.8, §2.7): nothing unless the match runs;
    a round waiting in ROUND_OVER calls for its scoring job, a scored one for the next deal at the
    intermission's deadline; a live round for the game's own (``in_round``: bots, timers); and every
    open absence for its removal timer."""
    if m is None or m.status != "running" or m.rnd is None:
        return ()
    rnd = m.rnd
    phase = rnd.phase
    if phase == SCORING:
        out: tuple[Due, ...] = (Due(Kind.SCORE, str(m.round_no), rnd.phase_at, None, rnd.phase_seq),)
    elif phase == INTERMISSION:
        at = m.intermission_deadline if m.intermission_deadline is not None else rnd.phase_at
        out = (Due(Kind.DEAL, str(m.round_no + 1), at, None, rnd.phase_seq),)
    else:
        out = in_round(m)
    for s in m.seats:  # a loop, not any(...): this runs after every move (bench/engine.py)
        if s.absent:
            return out + absence_work(m)
    return out
