"""The event emitter used by decide: appends events and folds them as it goes."""
from __future__ import annotations

from typing import Any, Mapping

from . import randomness
from .core import next_active
from .evolve import evolve, remember
from .model import EMPTY, Context, Event, NeedMoreSeeds
from .state import PLAY, RESPOND_SEVEN, RESPOND_SKIP, Match


class Tx:
    """One decide call: the working state, the events so far, the seeds left."""

    __slots__ = ("state", "events", "at", "seeds", "seed_i")

    def __init__(self, state: Match | None, ctx: Context) -> None:
        self.state = state
        self.events: list[Event] = []
        self.at = ctx.now
        self.seeds = ctx.seeds
        self.seed_i = 0

    def emit(self, type_: str, seat: int | None, data: Mapping[str, Any],
             to_seat: Mapping[int, Mapping[str, Any]] = EMPTY,
             secret: Mapping[str, Any] = EMPTY, round_: int | None = None) -> None:
        """Append one event and evolve the working state with it."""
        s = self.state
        rnd = (s.round_no if s is not None else 0) if round_ is None else round_
        ev = Event(s.version + 1 if s is not None else 1, type_, self.at, rnd, seat, data, to_seat, secret)
        new = evolve(s, ev)
        remember(ev, s, new)
        self.state = new
        self.events.append(ev)

    def next_seed(self) -> bytes:
        """§2.3: every shuffle consumes the next fresh seed of the context."""
        if self.seed_i >= len(self.seeds):
            raise NeedMoreSeeds(self.seed_i + 1)
        seed = self.seeds[self.seed_i]
        self.seed_i += 1
        return seed


def shuffle(tx: Tx, what: str, cards: tuple[str, ...], **extra: Any) -> tuple[str, ...]:
    """§2.3 commit, record, reveal: ShuffleCommitted with the seed and order kept secret."""
    seed = tx.next_seed()
    order = randomness.shuffled(seed, cards, "shuffle")
    data = {"what": what, "count": len(cards), "commitment": randomness.commitment(seed),
            "algorithm": randomness.ALGORITHM, **extra}
    tx.emit("ShuffleCommitted", None, data, secret={"seed": seed.hex(), "order": list(order)})
    return order


def draw_cards(tx: Tx, seat: int, k: int, reason: str) -> None:
    """§3.6 draw_cards: draw k, reshuffling the discard minus its top on demand; shortfall forfeits."""
    while k > 0:
        m = tx.state
        rnd = m.rnd
        if not rnd.stock:
            if m.rules.reshuffle and len(rnd.discard) > 1:
                moved = rnd.discard[:-1]
                tx.emit("StockReshuffled", None, {"count": len(moved)})
                shuffle(tx, "discard", moved)
                continue
            tx.emit("DrawShortfall", seat, {"seat": seat, "missing": k, "reason": reason})
            return
        n = min(k, len(rnd.stock))
        cards = rnd.stock[:n]
        size = len(rnd.hands[seat]) + n
        tx.emit("CardDrawn", seat, {"seat": seat, "count": n, "reason": reason, "hand_size": size},
                to_seat={seat: {"cards": list(cards)}})
        k -= n


def start_turn(tx: Tx, seat: int, phase: str) -> None:
    """§3.7 step 6: a new turn id and TurnStarted (deadline null: no turn timeouts yet)."""
    rnd = tx.state.rnd
    tx.emit("TurnStarted", seat, {"seat": seat, "turn_id": rnd.turn_id + 1, "phase": phase,
                                  "deadline": None})


def advance(tx: Tx, frm: int, check_limit: bool = True) -> None:
    """§3.7 advance(from): turn limit, next active seat, skips, then the next turn."""
    m = tx.state
    rnd = m.rnd
    r = m.rules
    if check_limit and rnd.turn_id >= r.max_turns:
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
    start_turn(tx, n, RESPOND_SEVEN if tx.state.rnd.pending_draw > 0 else PLAY)
