"""§2.4 per-viewer projection: the public view, a seat's private part, bot input, follow-ups."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.catch import announcement, catch_due_at
from service.games.kernel.due import Kind, bot_key
from service.games.kernel.table_view import follow_ups, public_view_of, seat_row
from service.games.kernel.turn_timer import turn_key
from service.games.kernel.views import Due, SeatView, plain as _plain
from service.games.shedding.actions import legal_actions
from service.games.shedding.cards import sort_hand
from service.games.shedding.core import hand_of
from service.games.shedding.inference import as_public
from service.games.shedding.state import TURN_PHASES, Match, Move, record_items, round_of
from service.games.shedding.timeouts import turn_due


def _seats(m: Match) -> list[dict[str, Any]]:
    rnd = m.rnd if m.status == "running" else None
    return [seat_row(s, len(hand_of(rnd, s.seat)) if rnd is not None else 0, s.total) for s in m.seats]


def _table(m: Match) -> dict[str, Any] | None:
    rnd = m.rnd
    if rnd is None or not rnd.discard:
        return None
    return {"top_card": rnd.discard[-1], "called_suit": rnd.called_suit,
            "pending_draw": rnd.pending_draw, "pending_skip": rnd.pending_skip,
            "direction": rnd.direction, "stock_count": len(rnd.stock),
            "discard_count": len(rnd.discard), "dealer": m.dealer, "drew_on": as_public(rnd.drew_on)}


def _record(m: Match) -> dict[str, Any] | None:
    """The round's public record (``?include=record``): the discard pile, every card played this
    round in order, and every move with, for a decision, what changed at the table since the
    previous decision (``before``: a delta; ``full_moves`` merges them back into snapshots)."""
    rnd = m.rnd
    if rnd is None or not rnd.discard or m.status == "open":
        return None
    return {"discard": list(rnd.discard), "played": record_items(rnd.played),
            "moves": compact_moves(record_items(rnd.moves))}


BEFORE_FIELDS = ("phase", "top_card", "called_suit", "pending_draw", "pending_skip", "top_live",
                 "direction", "hand_counts", "discard_count", "played_count", "drew_on")


def _before(mv: Move) -> dict[str, Any] | None:
    b = mv.before
    if b is None:
        return None
    return {"phase": b.phase, "top_card": b.top, "called_suit": b.called_suit,
            "pending_draw": b.pending_draw, "pending_skip": b.pending_skip, "top_live": b.top_live,
            "direction": b.direction, "hand_counts": list(b.counts), "discard_count": b.discard_n,
            "played_count": b.played_n, "drew_on": as_public(b.drew_on)}


def compact_moves(moves: Any) -> list[dict[str, Any]]:
    """``record.moves``: each move; a decision's ``before`` lists only the fields of the table it
    was made on that differ from the previous decision's (all of them for the round's first)."""
    out: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for mv in moves:
        entry: dict[str, Any] = {"seat": mv.seat, "move": mv.kind}
        if mv.card is not None:
            entry["card"] = mv.card
            if mv.suit is not None:
                entry["called_suit"] = mv.suit
        if mv.count:
            entry["count"] = mv.count
        if mv.auto:
            entry["auto"] = True
        full = _before(mv)
        if full is not None:
            entry["before"] = full if last is None else {k: v for k, v in full.items() if last[k] != v}
            last = full
        out.append(entry)
    return out


def full_moves(moves: Any) -> list[dict[str, Any]]:
    """``record.moves`` with every ``before`` merged back into the whole table it was made on."""
    out: list[dict[str, Any]] = []
    acc: dict[str, Any] = {}
    for mv in moves:
        b = mv.get("before")
        if b is None:
            out.append(mv)
            continue
        acc = {**acc, **b}
        out.append({**mv, "before": acc})
    return out


def _announcements(m: Match, now: int) -> list[dict[str, Any]]:
    rnd = m.rnd
    if rnd is None or rnd.window is None:
        return []
    return [announcement(rnd.window, m.rules.catch, rnd.armed == rnd.window.seat)]


def public_view(m: Match, now: int, record: bool = False) -> dict[str, Any]:
    """API.md GET /v1/games/{id}: what every viewer may see; the round's record on request."""
    rnd = m.rnd
    running = m.status == "running"
    phase = rnd.phase if running and rnd is not None else None
    turn = None
    if running and rnd is not None and phase in TURN_PHASES:
        turn = {"seat": rnd.current, "turn_id": rnd.turn_id, "deadline": rnd.deadline}
    return public_view_of(m, phase=phase, seats=_seats(m), table=_table, turn=turn, options=_options(m),
                          announcements=_announcements(m, now) if running else [],
                          armed=rnd.armed if running and rnd is not None else None,
                          record=_record(m) if record else None)


def _options(m: Match) -> Mapping[str, Any]:
    """The resolved options as plain JSON data: built once per match (MatchCreated), shared by
    every view of it. Treat it as read-only."""
    plain = m.plain_options
    return plain if plain is not None else _plain(m.options)


def private_view(m: Match, seat: int, now: int) -> dict[str, Any]:
    """The seat token's extra part (`you`): own hand and legal actions."""
    rnd = m.rnd
    hand = hand_of(rnd, seat) if rnd is not None and m.status == "running" else ()
    return {"seat": seat, "hand": sort_hand(hand), "legal_actions": legal_actions(m, seat, now)}


def seat_view(m: Match, seat: int, now: int) -> SeatView:
    """Build a bot's view through the same projection as a human's (DESIGN rule 3)."""
    priv = private_view(m, seat, now)
    return SeatView(seat=seat, now=now, public=MappingProxyType(public_view(m, now, record=True)),
                    hand=tuple(priv["hand"]),
                    legal_actions=tuple(MappingProxyType(a) for a in priv["legal_actions"]))


def pending_work(m: Match | None) -> tuple[Due, ...]:
    """§2.8, §2.7 and §7.1(3): scoring and the next deal (the kernel's), a bot's move, the turn timer."""
    return follow_ups(m, _turn_work)


def _catchers(m: Match) -> tuple[int, ...]:
    """§3.8.4 challenge mode: the seats whose bot catches the open window (an uncalled window of
    another seat that they have not challenged; autopiloted seats too when it is their turn)."""
    rnd = round_of(m)
    w = rnd.window
    if w is None or w.satisfied or not m.rules.catch.by_catch:
        return ()
    return tuple(s.seat for s in m.seats
                 if s.state == "active" and s.seat != w.seat and s.seat not in w.challengers
                 and (s.kind == "bot" or (s.seat == rnd.current and autopiloted(m, s.seat))))


def _turn_work(m: Match) -> tuple[Due, ...]:
    rnd = round_of(m)
    if rnd.phase not in TURN_PHASES:
        return ()
    seat = rnd.current
    out: list[Due] = []
    st = m.seats[seat]
    catchers = _catchers(m)
    if catchers:
        # a bot's catch is its own move, keyed by the window: due when the grace ends (§3.8.6), and
        # the current seat's turn waits for it (once the window closes, the turn's key is new)
        w = rnd.window
        assert w is not None
        due = max(rnd.phase_at, catch_due_at(w, m.rules.catch))
        out.extend(Due(Kind.BOT, bot_key(s, w.opened_seq), due, s, w.opened_seq) for s in catchers)
    if st.state == "active" and seat not in catchers and (st.kind == "bot" or autopiloted(m, seat)):
        due = rnd.phase_at
        w = rnd.window
        if w is not None and w.seat != seat and not w.satisfied and m.rules.grace_ms:
            due = max(due, w.opened_at + m.rules.grace_ms)
        out.append(Due(Kind.BOT, bot_key(seat, rnd.phase_seq), due, seat, rnd.phase_seq))
    timer = turn_due(m)
    if timer is not None:
        out.append(Due(Kind.TIMER, turn_key(m), timer, seat, rnd.turn_seq))
    return tuple(out)
