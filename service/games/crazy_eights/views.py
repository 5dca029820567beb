"""Per-viewer projection (§2.4): the public view, a seat's own part, a bot's input, follow-ups."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from service.games.crazy_eights.actions import legal_actions
from service.games.crazy_eights.rules import EIGHT
from service.games.crazy_eights.state import PLAY, SCORING, EightsMatch
from service.games.kernel.absence import autopiloted
from service.games.kernel.due import Kind, bot_key
from service.games.kernel.turn_timer import turn_due, turn_key
from service.games.kernel.views import Due, SeatView, absence_work, plain, scores_json, standings_json
from service.games.shedding.cards import RANK, sort_hand


def _live(m: EightsMatch) -> bool:
    return m.status == "running" and m.rnd is not None and m.rnd.phase in (PLAY, SCORING)


def _seats(m: EightsMatch) -> list[dict[str, Any]]:
    rnd = m.rnd
    hands = rnd.hands if rnd is not None and _live(m) else {}
    return [{"seat": s.seat, "name": s.name, "kind": s.kind, "strength": s.strength,
             "state": "absent" if s.absent and s.state == "active" else s.state,
             "hand_count": len(hands.get(s.seat, ())),
             "score": s.total, "timeouts": s.timeouts,
             "removal_deadline": s.removal_deadline if s.absent else None} for s in m.seats]


def _table(m: EightsMatch) -> dict[str, Any] | None:
    rnd = m.rnd
    if rnd is None or not rnd.discard:
        return None
    top = rnd.discard[-1]
    o = m.options
    return {"top_card": top, "called_suit": rnd.suit if RANK[top] == EIGHT else None,
            "suit": rnd.suit, "pending_draw": rnd.owed, "direction": rnd.direction,
            "stock_count": len(rnd.stock), "discard_count": len(rnd.discard), "dealer": m.dealer,
            "drawn_this_turn": rnd.drawn, "max_draw_cards": int(o["max_draw_cards"]),
            "plays": rnd.plays, "max_turns": int(o["max_turns"]), "passes": rnd.passes}


def public_view(m: EightsMatch, now: int, record: bool = False) -> dict[str, Any]:
    """API.md GET /v1/games/{id}: what every viewer may see. The hand's history is its events
    (``record`` is always null for this game)."""
    rnd = m.rnd
    running = m.status == "running"
    phase = rnd.phase if running and rnd is not None else None
    turn = None
    if phase == PLAY:
        assert rnd is not None  # a phase is the hand's
        turn = {"seat": rnd.current, "turn_id": rnd.turn_id, "deadline": rnd.deadline,
                "draws_left": max(int(m.options["max_draw_cards"]) - rnd.drawn, 0) if not rnd.owed else 0}
    return {
        "id": m.id, "variant": m.variant, "name": m.name, "options": plain(m.options),
        "status": m.status, "phase": phase, "round": m.round_no, "version": m.version,
        "seats": _seats(m), "table": _table(m) if m.status != "open" else None, "turn": turn,
        "announcements": [], "armed": None,
        "scores": scores_json(m), "standings": standings_json(m),
        "end_reason": m.end_reason, "intermission_deadline": None,
        "match_seed_commitment": m.match_seed_commitment,
        "record": None,
    }


def private_view(m: EightsMatch, seat: int, now: int) -> dict[str, Any]:
    """The seat token's extra part (``you``): its own hand and legal actions."""
    rnd = m.rnd
    hand = rnd.hands.get(seat, ()) if rnd is not None and _live(m) else ()
    return {"seat": seat, "hand": sort_hand(hand), "legal_actions": legal_actions(m, seat, now)}


def seat_view(m: EightsMatch, seat: int, now: int) -> SeatView:
    """A bot's view, through the same projection as a human's (DESIGN rule 3)."""
    priv = private_view(m, seat, now)
    return SeatView(seat=seat, now=now, public=MappingProxyType(public_view(m, now)),
                    hand=tuple(priv["hand"]),
                    legal_actions=tuple(MappingProxyType(a) for a in priv["legal_actions"]))


def pending_work(m: EightsMatch | None) -> tuple[Due, ...]:
    """What the dispatcher should schedule now: a bot's move, the turn timer, the scoring."""
    if m is None or m.status != "running" or m.rnd is None:
        return ()
    rnd = m.rnd
    if rnd.phase == SCORING:
        return (Due(Kind.SCORE, str(m.round_no), rnd.phase_at, None, rnd.phase_seq),) + absence_work(m)
    if rnd.phase != PLAY:
        return absence_work(m)
    seat = rnd.current
    out: list[Due] = []
    st = m.seats[seat]
    if st.state == "active" and (st.kind == "bot" or autopiloted(m, seat)):
        # the app adds the bot's drawn delay (bot_delay_ms of its strength, RULES §7.1)
        out.append(Due(Kind.BOT, bot_key(seat, rnd.phase_seq), rnd.phase_at, seat, rnd.phase_seq))
    due = turn_due(m)
    if due is not None:
        out.append(Due(Kind.TIMER, turn_key(m), due, seat, rnd.turn_seq))
    return tuple(out) + absence_work(m)
