"""Per-viewer projection (§2.4): the public view, a seat's own part, a bot's input, follow-ups."""
from __future__ import annotations

from typing import Any

from service.games.crazy_eights.actions import legal_actions
from service.games.crazy_eights.rules import EIGHT
from service.games.crazy_eights.state import PLAY, SCORING, EightsMatch
from service.games.kernel.absence import autopiloted
from service.games.kernel.due import Kind, bot_key
from service.games.kernel.table_view import follow_ups, public_view_of, seat_row
from service.games.kernel.turn_timer import turn_due, turn_key
from service.games.kernel.views import Due
from service.games.shedding.cards import RANK, sort_hand


def _live(m: EightsMatch) -> bool:
    return m.status == "running" and m.rnd is not None and m.rnd.phase in (PLAY, SCORING)


def _seats(m: EightsMatch) -> list[dict[str, Any]]:
    rnd = m.rnd
    hands = rnd.hands if rnd is not None and _live(m) else {}
    return [seat_row(s, len(hands.get(s.seat, ())), s.total) for s in m.seats]


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
    return public_view_of(m, phase=phase, seats=_seats(m), table=_table, turn=turn)


def private_view(m: EightsMatch, seat: int, now: int) -> dict[str, Any]:
    """The seat token's extra part (``you``): its own hand and legal actions."""
    rnd = m.rnd
    hand = rnd.hands.get(seat, ()) if rnd is not None and _live(m) else ()
    return {"seat": seat, "hand": sort_hand(hand), "legal_actions": legal_actions(m, seat, now)}


def pending_work(m: EightsMatch | None) -> tuple[Due, ...]:
    """What the dispatcher should schedule now: the scoring (the kernel's), a bot's move, the turn timer."""
    return follow_ups(m, _turn_work)


def _turn_work(m: EightsMatch) -> tuple[Due, ...]:
    rnd = m.rnd
    if rnd is None or rnd.phase != PLAY:
        return ()
    seat = rnd.current
    out: list[Due] = []
    st = m.seats[seat]
    if st.state == "active" and (st.kind == "bot" or autopiloted(m, seat)):
        # the app adds the bot's drawn delay (bot_delay_ms of its strength, RULES §7.1)
        out.append(Due(Kind.BOT, bot_key(seat, rnd.phase_seq), rnd.phase_at, seat, rnd.phase_seq))
    due = turn_due(m)
    if due is not None:
        out.append(Due(Kind.TIMER, turn_key(m), due, seat, rnd.turn_seq))
    return tuple(out)
