"""The shedding games' emitter and the turn mechanics decide builds on (§3.6, §3.7)."""
from __future__ import annotations

from service.games.kernel.tx import (
    Tx as KernelTx,
    shuffle,  # re-exported for the game modules
)
from service.games.shedding.core import next_active
from service.games.shedding.fold import HANDLERS
from service.games.shedding.state import PLAY, RESPOND_SEVEN, RESPOND_SKIP

AUTO_MARKED = frozenset({"CardPlayed", "CardDrawn", "TurnPassed", "PenaltyTaken", "SkipAccepted",
                         "AnnouncementMade", "AnnouncementArmed", "ChallengeMade"})
"""Events of a seat's own action: without ``auto`` they clear the seat's timeouts (§2.7)."""


class Tx(KernelTx):
    """One decide call of the shedding games, folding with the shedding handlers."""

    __slots__ = ()
    HANDLERS = HANDLERS
    AUTO_MARKED = AUTO_MARKED


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


def start_turn(tx: Tx, seat: int, phase: str) -> None:
    """§3.7 step 6: a new turn id and TurnStarted with its deadline."""
    tx.emit("TurnStarted", seat, {"seat": seat, "turn_id": tx.state.rnd.turn_id + 1, "phase": phase,
                                  "deadline": tx.after("turn_timeout_s")})


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
                               "deadline": tx.after("turn_timeout_s")})
