"""evolve for every game: a handler registry per game and the handlers all games share.

A game builds one ``Fold``, registers its handlers with ``@fold.on("CardPlayed")`` and calls
``table_handlers(fold)`` for the seat and match-end events every game folds the same way.
evolve never validates (DESIGN rule 1); an event type a game does not fold only bumps the version.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from service.games.kernel.absence import timed_out_seats
from service.games.kernel.model import Event
from service.games.kernel.state import Seat, rep, rep_version

Handler = Callable[[Any, Event], Any]


class Fold:
    """One game's event handlers: ``evolve(state, event) -> state``."""

    __slots__ = ("handlers",)

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}

    def on(self, name: str) -> Callable[[Handler], Handler]:
        def deco(fn: Handler) -> Handler:
            self.handlers[name] = fn
            return fn
        return deco

    def evolve(self, state: Any, event: Event) -> Any:
        fn = self.handlers.get(event.type)
        return rep_version(state, event.seq) if fn is None else fn(state, event)

    @classmethod
    def merged(cls, *parts: Fold) -> Fold:
        """One fold of several parts' handlers (a game may split its handlers by topic)."""
        out = cls()
        for p in parts:
            clash = set(out.handlers) & set(p.handlers)
            if clash:
                raise ValueError(f"two handlers for {sorted(clash)}")
            out.handlers.update(p.handlers)
        return out

    def replay(self, events: Iterable[Event]) -> Any:
        state = None
        for e in events:
            state = self.evolve(state, e)
        return state


def new_seat(m: Any, e: Event, state: str = "active") -> Any:
    """SeatJoined (and the shedding games' SeatWaiting): the seat as the event names it."""
    d = e.data
    seat = Seat(seat=d["seat"], name=d["name"], kind=d["kind"], strength=d.get("strength"),
                state=state, total=0, creator=bool(d.get("creator", False)))
    return rep(m, version=e.seq, seats=m.seats + (seat,))


def seat_left(m: Any, e: Event) -> Any:
    """SeatLeft of a game whose leavers are replaced by a bot once it runs (``replaced_by``) and
    freed before (Sakapuss, Crazy Eights); an open absence ends either way (§2.7)."""
    d = e.data
    seats = list(m.seats)
    s = d["seat"]
    bot = d.get("replaced_by")
    gone = {"timeouts": 0, "absent": False, "removal_deadline": None}
    if bot:
        seats[s] = rep(seats[s], kind="bot", strength=bot.get("strength"), name=bot.get("name", "bot"),
                       creator=False, **gone)
        return rep(m, version=e.seq, seats=tuple(seats), replaced=m.replaced + (s,))
    seats[s] = rep(seats[s], state="left", **gone)
    return rep(m, version=e.seq, seats=tuple(seats))


def _timed_out(m: Any, e: Event) -> Any:
    """§2.7: one more consecutive timeout; the event that marks the seat absent says so."""
    return rep(m, version=e.seq, seats=timed_out_seats(m.seats, e))


def _match_ended(m: Any, e: Event) -> Any:
    return rep(m, version=e.seq, status="finished", end_reason=e.data["reason"],
               standings=tuple(e.data["standings"]), intermission_deadline=None)


def _seeds_revealed(m: Any, e: Event) -> Any:
    return rep(m, version=e.seq, seeds_revealed=True)


def table_handlers(fold: Fold) -> None:
    """Register the handlers every game shares (§2.7 timeouts, §2.8 match end, §2.3 seeds)."""
    fold.on("SeatJoined")(new_seat)
    fold.on("TimedOut")(_timed_out)
    fold.on("MatchEnded")(_match_ended)
    fold.on("SeedsRevealed")(_seeds_revealed)
