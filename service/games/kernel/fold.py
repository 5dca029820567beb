"""evolve for every game: a handler registry per game and the handlers all games share.

A game builds one ``Fold``, registers its handlers with ``@fold.on("CardPlayed")`` and calls
``table_handlers(fold, scored=...)`` for the seat, scoring and match-end events every game folds
the same way; its MatchCreated handler is ``new_table(MyMatch, event, **its own fields)``.
evolve never validates (DESIGN rule 1); an event type a game does not fold only bumps the version.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import Any, TypeVar

from service.games.kernel.absence import timed_out_seats
from service.games.kernel.model import Event
from service.games.kernel.state import INTERMISSION, ScoreEntry, Seat, TableState, rep, rep_round, rep_version

Handler = Callable[[Any, Event], Any]
M = TypeVar("M", bound=TableState[Any])


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


def new_table(cls: type[M], e: Event, **own: Any) -> M:
    """MatchCreated: a match of ``cls`` with the table fields as the event names them (§2.3: the
    match seed is the server's secret; the rules version it is played under) and the game's
    ``own`` fields (its rules, decks, ...)."""
    d = e.data
    return cls(id=d["game_id"], variant=d["variant"], name=d.get("name"),
               options=MappingProxyType(dict(d["options"])), max_players=d["max_players"], status="open",
               version=e.seq, seats=(), round_no=0, dealer=None, rnd=None, scores=(), standings=(),
               intermission_deadline=None, match_seed=e.secret.get("match_seed", ""),
               match_seed_commitment=d["match_seed_commitment"], shuffle_seeds=(), created_at=e.at,
               rules_version=int(d.get("rules_version", 1)), **own)


def round_from_data(**fields: str) -> Handler:
    """The handler of an in-round event that only sets fields of the round from its data
    (``round field=data key``, e.g. ``on("DirectionReversed")(round_from_data(direction="direction"))``)."""
    pairs = tuple(fields.items())

    def handler(m: Any, e: Event) -> Any:
        d = e.data
        return rep_round(m, e.seq, {f: d[k] for f, k in pairs})

    return handler


def seeds_with(m: Any, e: Event) -> tuple[tuple[int, str], ...]:
    """§2.3: the match's shuffle seeds with the one this ShuffleCommitted keeps secret (if it has one)."""
    seed = e.secret.get("seed")
    return m.shuffle_seeds if seed is None else m.shuffle_seeds + ((e.seq, seed),)


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


def round_scored(after: str = INTERMISSION) -> Handler:
    """§2.8 step 2: RoundScored's fold for every game: each scored seat's running total, the score
    entry, the intermission's deadline (None when the match ends), and the round on to ``after``
    (the intermission; a game of one round names its own closing phase)."""
    def scored(m: Any, e: Event) -> Any:
        d = e.data
        totals = {int(k): v for k, v in d["totals"].items()}
        seats = tuple(rep(s, total=totals[s.seat]) if s.seat in totals else s for s in m.seats)
        entry = ScoreEntry(d["round"], tuple((int(k), v) for k, v in d["points"].items()),
                           tuple(sorted(totals.items())))
        rnd = m.rnd
        if rnd is not None:
            rnd = rep(rnd, phase=after, phase_seq=e.seq, phase_at=e.at)
        return rep(m, version=e.seq, seats=seats, scores=m.scores + (entry,),
                   intermission_deadline=d.get("intermission_deadline"), rnd=rnd)
    return scored


def table_handlers(fold: Fold, scored: str = INTERMISSION) -> None:
    """Register the handlers every game shares (§2.7 timeouts, §2.8 scoring and match end, §2.3
    seeds); ``scored`` is the phase RoundScored moves the round to (``round_scored``)."""
    fold.on("SeatJoined")(new_seat)
    fold.on("RoundScored")(round_scored(scored))
    fold.on("TimedOut")(_timed_out)
    fold.on("MatchEnded")(_match_ended)
    fold.on("SeedsRevealed")(_seeds_revealed)
