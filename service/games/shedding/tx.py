"""The event emitter used by decide: appends events and folds them as it goes."""
from __future__ import annotations

from typing import Any, Mapping

from service.games.shedding.core import next_active
from service.games.shedding.evolve import HANDLERS, MEMO, evolve
from service.games.kernel.common import SeedTx, shuffle  # noqa: F401  (shuffle is re-exported for the game modules)
from service.games.kernel.model import EMPTY, Context, Event
from service.games.shedding.state import PLAY, RESPOND_SEVEN, RESPOND_SKIP, Match, rep_version

_FIELDS = ("seq", "type", "at", "round", "seat", "data", "to_seat", "secret")
try:  # Event is a frozen slots dataclass: fill its slots directly (2-3x faster than __init__)
    _SETTERS = tuple(getattr(Event, f).__set__ for f in _FIELDS)
except AttributeError:  # pragma: no cover - a dict-backed Event: fall back to the constructor
    _SETTERS = ()
_new = object.__new__
MEMO_MAX = 64
AUTO_MARKED = frozenset({"CardPlayed", "CardDrawn", "TurnPassed", "PenaltyTaken", "SkipAccepted",
                         "AnnouncementMade", "AnnouncementArmed"})
"""Events of a seat's own action: without ``auto`` they clear the seat's timeouts (§2.7)."""


def make_event(seq: int, type_: str, at: int, round_: int, seat: int | None, data: Mapping[str, Any],
               to_seat: Mapping[int, Mapping[str, Any]], secret: Mapping[str, Any]) -> Event:
    """``Event(...)`` without the frozen-dataclass __init__ overhead (same object, same fields)."""
    if not _SETTERS:
        return Event(seq, type_, at, round_, seat, data, to_seat, secret)
    e = _new(Event)
    s0, s1, s2, s3, s4, s5, s6, s7 = _SETTERS
    s0(e, seq)
    s1(e, type_)
    s2(e, at)
    s3(e, round_)
    s4(e, seat)
    s5(e, data)
    s6(e, to_seat)
    s7(e, secret)
    return e


class Tx(SeedTx):
    """One decide call of the shedding games: folds with the memoized shedding handlers."""

    __slots__ = ()

    def __init__(self, state: Match | None, ctx: Context) -> None:
        self.state = state  # SeedTx.__init__, inlined (one decide = one Tx)
        self.events = []
        self.at = ctx.now
        self.seeds = ctx.seeds
        self.seed_i = 0
        self.auto = None
        if len(MEMO) > MEMO_MAX:  # the memo only serves the caller's fold of recent decides
            MEMO.clear()

    def emit(self, type_: str, seat: int | None, data: Mapping[str, Any],
             to_seat: Mapping[int, Mapping[str, Any]] = EMPTY,
             secret: Mapping[str, Any] = EMPTY, round_: int | None = None) -> None:
        """Append one event and evolve the working state with it (memoized for the caller's fold)."""
        s = self.state
        if self.auto is not None and seat == self.auto and type_ in AUTO_MARKED:
            data = {**data, "auto": True}  # a default or autopilot action: not the human's (§2.7)
        if s is None or not _SETTERS:
            seq, rno = (1, 0) if s is None else (s.version + 1, s.round_no)
            ev = make_event(seq, type_, self.at, rno if round_ is None else round_, seat, data,
                            to_seat, secret)
            new = evolve(s, ev)
        else:
            ev = _new(Event)  # make_event, inlined: this is the hottest path of the engine
            s0, s1, s2, s3, s4, s5, s6, s7 = _SETTERS
            s0(ev, s.version + 1)
            s1(ev, type_)
            s2(ev, self.at)
            s3(ev, s.round_no if round_ is None else round_)
            s4(ev, seat)
            s5(ev, data)
            s6(ev, to_seat)
            s7(ev, secret)
            fn = HANDLERS.get(type_)
            new = fn(s, ev) if fn is not None else rep_version(s, ev.seq)
        MEMO[id(ev)] = (ev, s, new)
        self.state = new
        self.events.append(ev)


def draw_cards(tx: Tx, seat: int, k: int, reason: str) -> None:
    """§3.6 draw_cards: draw k, reshuffling the discard minus its top on demand; shortfall forfeits."""
    while k > 0:
        m = tx.state
        rnd = m.rnd
        stock = rnd.stock
        if not stock:
            if m.rules.reshuffle and len(rnd.discard) > 1:
                moved = rnd.discard[:-1]
                tx.emit("StockReshuffled", None, {"count": len(moved)})
                shuffle(tx, "discard", moved)
                continue
            tx.emit("DrawShortfall", seat, {"seat": seat, "missing": k, "reason": reason})
            return
        n = k if k <= len(stock) else len(stock)
        size = len(rnd.hands[seat]) + n
        tx.emit("CardDrawn", seat, {"seat": seat, "count": n, "reason": reason, "hand_size": size},
                to_seat={seat: {"cards": list(stock[:n])}})
        k -= n


def turn_deadline(tx: Tx) -> int | None:
    """§2.7/§3.7 step 6: turn_timeout_s from now, or null when the table has no turn timeout."""
    t = tx.state.options.get("turn_timeout_s")
    return None if t is None else tx.at + int(t) * 1000


def start_turn(tx: Tx, seat: int, phase: str) -> None:
    """§3.7 step 6: a new turn id and TurnStarted with its deadline."""
    tx.emit("TurnStarted", seat, {"seat": seat, "turn_id": tx.state.rnd.turn_id + 1, "phase": phase,
                                  "deadline": turn_deadline(tx)})


def advance(tx: Tx, frm: int, check_limit: bool = True) -> None:
    """§3.7 advance(from): turn limit, next active seat, skips, then the next turn."""
    m = tx.state
    rnd = m.rnd
    r = m.rules
    turn_id = rnd.turn_id
    if check_limit and turn_id >= r.max_turns:
        tx.emit("RoundEnded", None, {"reason": "blocked", "cause": "turn_limit", "winner": None})
        return
    d = rnd.direction
    n = next_active(m, frm, d)
    if rnd.pending_skip:
        if r.skip_counterable:
            start_turn(tx, n, RESPOND_SKIP)
            return
        tx.emit("TurnSkipped", n, {"seat": n})
        n = next_active(tx.state, n, d)
    phase = RESPOND_SEVEN if rnd.pending_draw > 0 else PLAY
    tx.emit("TurnStarted", n, {"seat": n, "turn_id": turn_id + 1, "phase": phase,
                               "deadline": turn_deadline(tx)})
