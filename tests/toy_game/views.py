"""Per-viewer projection (§2.4): the public view, a seat's own part, the follow-ups a state calls for."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.views import Due, absence_work, plain, scores_json, standings_json

from .decide import turn_due, turn_key
from .rules import legal_actions, sort_hand
from .state import INTERMISSION, PLAY, SCORING, ToyMatch


def _dealt(m: ToyMatch) -> bool:
    return m.status == "running" and m.rnd is not None and m.rnd.phase in (PLAY, SCORING)


def _seats(m: ToyMatch) -> list[dict[str, Any]]:
    hands = m.rnd.hands if m.rnd is not None and _dealt(m) else {}
    return [{"seat": s.seat, "name": s.name, "kind": s.kind, "strength": s.strength,
             "state": "absent" if s.absent and s.state == "active" else s.state,
             "hand_count": len(hands.get(s.seat, ())), "score": s.total, "timeouts": s.timeouts,
             "removal_deadline": s.removal_deadline if s.absent else None} for s in m.seats]


def _table(m: ToyMatch) -> dict[str, Any] | None:
    rnd = m.rnd
    if rnd is None or m.status == "open":
        return None
    n = max(len(rnd.seats), 1)
    return {"dealer": m.dealer, "trick": [{"seat": s, "card": c} for s, c in rnd.trick],
            "tricks": {str(s): len(rnd.won.get(s, ())) // n for s in rnd.seats}}


def public_view(m: ToyMatch, now: int, record: bool = False) -> dict[str, Any]:
    """What every viewer may see: seats, the open trick, tricks won, whose turn, scores."""
    rnd = m.rnd
    phase = rnd.phase if m.status == "running" and rnd is not None else None
    turn = None
    if phase == PLAY and rnd is not None:
        turn = {"seat": rnd.current, "turn_id": rnd.turn_id, "deadline": rnd.deadline}
    return {
        "id": m.id, "variant": m.variant, "name": m.name, "options": plain(m.options),
        "status": m.status, "phase": phase, "round": m.round_no, "version": m.version,
        "seats": _seats(m), "table": _table(m), "turn": turn, "announcements": [], "armed": None,
        "scores": scores_json(m), "standings": standings_json(m), "end_reason": m.end_reason,
        "intermission_deadline": m.intermission_deadline if phase == INTERMISSION else None,
        "match_seed_commitment": m.match_seed_commitment, "record": None,
    }


def private_view(m: ToyMatch, seat: int, now: int) -> dict[str, Any]:
    """The seat's ``you``: its hand and legal actions."""
    hand = m.rnd.hands.get(seat, ()) if m.rnd is not None and _dealt(m) else ()
    return {"seat": seat, "hand": sort_hand(hand), "legal_actions": legal_actions(m, seat, now)}


def pending_work(m: ToyMatch | None) -> tuple[Due, ...]:
    """The scoring, the next deal, a bot's lay, the turn timer, and the absences' removal timers."""
    if m is None or m.status != "running" or m.rnd is None:
        return ()
    rnd = m.rnd
    if rnd.phase == SCORING:
        return (Due("score", str(m.round_no), rnd.phase_at, None, rnd.phase_seq), *absence_work(m))
    if rnd.phase == INTERMISSION:
        at = m.intermission_deadline if m.intermission_deadline is not None else rnd.phase_at
        return (Due("deal", str(m.round_no + 1), at, None, rnd.phase_seq), *absence_work(m))
    if rnd.phase != PLAY:
        return absence_work(m)
    out: list[Due] = []
    st = m.seats[rnd.current]
    if st.state == "active" and (st.kind == "bot" or autopiloted(m, rnd.current)):
        out.append(Due("bot", f"{rnd.current}-{rnd.phase_seq}", rnd.phase_at, rnd.current, rnd.phase_seq))
    due = turn_due(m)
    if due is not None:
        out.append(Due("timer", turn_key(m), due, rnd.current, rnd.turn_seq))
    return (*out, *absence_work(m))
