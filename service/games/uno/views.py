"""Per-viewer projection (§2.4): the public view, a seat's own part, follow-ups."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.catch import announcement, catch_due_at
from service.games.kernel.due import Kind, bot_key
from service.games.kernel.table_view import follow_ups, public_view_of, seat_row
from service.games.kernel.turn_timer import turn_due, turn_key
from service.games.kernel.views import Due
from service.games.uno.actions import legal_actions
from service.games.uno.call import rule
from service.games.uno.cards import sort_hand
from service.games.uno.state import PLAY, SCORING, UnoMatch


def _live(m: UnoMatch) -> bool:
    return m.status == "running" and m.rnd is not None and m.rnd.phase in (PLAY, SCORING)


def _seats(m: UnoMatch) -> list[dict[str, Any]]:
    rnd = m.rnd
    hands = rnd.hands if rnd is not None and _live(m) else {}
    return [seat_row(s, len(hands.get(s.seat, ())), s.total) for s in m.seats]


def _table(m: UnoMatch) -> dict[str, Any] | None:
    rnd = m.rnd
    if rnd is None or not rnd.target:
        return None
    return {"top_card": rnd.target, "color": rnd.color, "direction": rnd.direction,
            "stock_count": len(rnd.stock), "discard_count": len(rnd.discard), "dealer": m.dealer}


def public_view(m: UnoMatch, now: int, record: bool = False) -> dict[str, Any]:
    """API.md GET /v1/games/{id}: what every viewer may see. The hand's history is its events
    (``record`` is always null for this game)."""
    rnd = m.rnd
    running = m.status == "running"
    phase = rnd.phase if running and rnd is not None else None
    turn = None
    if phase == PLAY:
        assert rnd is not None  # a phase is the hand's
        nxt = rnd.seats[(rnd.seats.index(rnd.current) + rnd.direction) % len(rnd.seats)]
        turn = {"seat": rnd.current, "turn_id": rnd.turn_id, "deadline": rnd.deadline, "next_seat": nxt}
    w = rnd.window if rnd is not None and phase == PLAY else None
    announcements = [announcement(w, rule(m), False)] if w is not None else []
    return public_view_of(m, phase=phase, seats=_seats(m), table=_table, turn=turn, announcements=announcements)


def private_view(m: UnoMatch, seat: int, now: int) -> dict[str, Any]:
    """The seat token's extra part (``you``): its own hand and legal actions."""
    rnd = m.rnd
    hand = rnd.hands.get(seat, ()) if rnd is not None and _live(m) else ()
    return {"seat": seat, "hand": sort_hand(hand), "legal_actions": legal_actions(m, seat, now)}


def pending_work(m: UnoMatch | None) -> tuple[Due, ...]:
    """What the dispatcher should schedule now: the scoring (the kernel's), a bot's move, the turn timer."""
    return follow_ups(m, _turn_work)


def _turn_work(m: UnoMatch) -> tuple[Due, ...]:
    rnd = m.rnd
    if rnd is None or rnd.phase != PLAY:
        return ()
    seat = rnd.current
    out: list[Due] = []
    st = m.seats[seat]
    catchers = _catchers(m)
    if catchers:  # a bot's catch is its own move, keyed by the window; the turn's bot waits for it
        w = rnd.window
        assert w is not None
        at = max(rnd.phase_at, catch_due_at(w, rule(m)))
        out.extend(Due(Kind.BOT, bot_key(s, w.opened_seq), at, s, w.opened_seq) for s in catchers)
    if st.state == "active" and seat not in catchers and (st.kind == "bot" or autopiloted(m, seat)):
        # the app adds the bot's drawn delay (bot_delay_ms of its strength, RULES §7.1)
        out.append(Due(Kind.BOT, bot_key(seat, rnd.phase_seq), rnd.phase_at, seat, rnd.phase_seq))
    due = turn_due(m)
    if due is not None:
        out.append(Due(Kind.TIMER, turn_key(m), due, seat, rnd.turn_seq))
    return tuple(out)


def _catchers(m: UnoMatch) -> tuple[int, ...]:
    """With ``uno_call``: the seats whose bot catches the open uncalled window (bots of the hand
    other than its seat that have not caught at it; the seat to move too when autopiloted)."""
    rnd = m.rnd
    w = rnd.window if rnd is not None else None
    if rnd is None or w is None or w.satisfied or not rule(m).by_catch:
        return ()
    return tuple(s.seat for s in m.seats
                 if s.seat in rnd.seats and s.state == "active" and s.seat != w.seat and s.seat not in w.challengers
                 and (s.kind == "bot" or (s.seat == rnd.current and autopiloted(m, s.seat))))
