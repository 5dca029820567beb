"""The event emitter of one decide call, for every game: appends events and folds them as it goes.

A game subclasses ``Tx`` with its fold's handlers and the event types of a seat's own actions
(``AUTO_MARKED``: marked ``auto`` when the server acts for the seat, §2.7). Seeds come from the
context in order (§2.3); a shuffle is committed, recorded and revealed later.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from service.games.kernel import randomness
from service.games.kernel.fold import Handler
from service.games.kernel.model import EMPTY, Context, Event, NeedMoreSeeds
from service.games.kernel.state import rep_version

_FIELDS = ("seq", "type", "at", "round", "seat", "data", "to_seat", "secret")
try:  # Event is a frozen slots dataclass: fill its slots directly (2-3x faster than __init__)
    _SETTERS = tuple(getattr(Event, f).__set__ for f in _FIELDS)
except AttributeError:  # pragma: no cover - a dict-backed Event: fall back to the constructor
    _SETTERS = ()
_new = object.__new__


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


class Tx:
    """One decide call: the working state, the events so far, the fresh seeds left (§2.3)."""

    __slots__ = ("at", "auto", "events", "seed_i", "seeds", "state")
    HANDLERS: ClassVar[Mapping[str, Handler]] = {}
    AUTO_MARKED: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, state: Any, ctx: Context) -> None:
        self.state = state
        self.events: list[Event] = []
        self.at = ctx.now
        self.seeds = ctx.seeds
        self.seed_i = 0
        self.auto: int | None = None  # §2.7: the seat whose actions the server performs now

    @property
    def m(self) -> Any:
        return self.state

    def next_seed(self) -> bytes:
        """§2.3: every shuffle consumes the next fresh seed of the context."""
        if self.seed_i >= len(self.seeds):
            raise NeedMoreSeeds(self.seed_i + 1)
        seed = self.seeds[self.seed_i]
        self.seed_i += 1
        return seed

    def after(self, option: str) -> int | None:
        """The time (ms) ``option``, a table option in seconds, from now; None when the option is
        null or not set (a table without that timer): every deadline an event records (§2.7)."""
        secs = self.state.options.get(option)
        return None if secs is None else self.at + int(secs) * 1000

    def emit(self, type_: str, seat: int | None, data: Mapping[str, Any],
             to_seat: Mapping[int, Mapping[str, Any]] = EMPTY,
             secret: Mapping[str, Any] = EMPTY, round_: int | None = None) -> None:
        """Append one event (seq = version + 1, at = ctx.now) and evolve the working state with it."""
        s = self.state
        if self.auto is not None and seat == self.auto and type_ in self.AUTO_MARKED:
            data = {**data, "auto": True}  # a default or autopilot action: not the human's (§2.7)
        if s is None or not _SETTERS:
            seq, rno = (1, 0) if s is None else (s.version + 1, s.round_no)
            ev = make_event(seq, type_, self.at, rno if round_ is None else round_, seat, data,
                            to_seat, secret)
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
        fn = self.HANDLERS.get(type_)
        self.state = fn(s, ev) if fn is not None else rep_version(s, ev.seq)
        self.events.append(ev)


def shuffle(tx: Tx, what: str, cards: tuple[str, ...], **extra: Any) -> tuple[str, ...]:
    """§2.3 commit, record, reveal: ShuffleCommitted with the seed and order kept secret."""
    seed = tx.next_seed()
    order = randomness.shuffled(seed, cards, "shuffle")
    data = {"what": what, "count": len(cards), "commitment": randomness.commitment(seed),
            "algorithm": randomness.ALGORITHM, **extra}
    tx.emit("ShuffleCommitted", None, data, secret={"seed": seed.hex(), "order": list(order)})
    return order


def choice(m: Any, label: str, n: int) -> int:
    """§2.3: a seeded choice among n options from the match seed."""
    return randomness.choice_index(bytes.fromhex(m.match_seed), label, n)
