"""evolve(state, event) -> state for every event type: never validates (DESIGN rule 1)."""
from __future__ import annotations

from types import MappingProxyType
from typing import Callable

from service.games.shedding.cards import RANK
from service.games.shedding.core import rules_from_options
from service.games.kernel.model import Event
from service.games.shedding.state import (ACE_FOLLOWUP, appended, AFTER_DRAW, INTERMISSION, PLAY, SCORING, Match, Round, ScoreEntry, Seat,
                    Window, rep, rep_round, rep_version)

Handler = Callable[[Match, Event], Match]
HANDLERS: dict[str, Handler] = {}


def on(name: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return deco


MEMO: dict[int, tuple[Event, "Match | None", Match]] = {}
"""Results decide already folded, keyed by event identity (pure memoization, bounded by Tx)."""


def remember(event: Event, before: "Match | None", after: Match) -> None:
    """Record evolve(before, event) == after so the caller's fold need not recompute it."""
    if len(MEMO) >= 256:
        MEMO.clear()
    MEMO[id(event)] = (event, before, after)


def evolve(state: Match | None, event: Event) -> Match:
    """Apply one event; unknown types only bump the version."""
    hit = MEMO.get(id(event))
    if hit is not None and hit[0] is event and hit[1] is state:
        return hit[2]
    fn = HANDLERS.get(event.type)
    if fn is None:
        return rep_version(state, event.seq)  # type: ignore[arg-type]
    return fn(state, event)  # type: ignore[arg-type]


def _r(m: Match, e: Event, rnd: Round) -> Match:
    return rep(m, version=e.seq, rnd=rnd)


def _seat(m: Match, seat: int, **kw: object) -> tuple[Seat, ...]:
    seats = list(m.seats)
    seats[seat] = rep(seats[seat], **kw)
    return tuple(seats)


def _set_hand(rnd: Round, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    hands = list(rnd.hands)
    while len(hands) <= seat:
        hands.append(())
    hands[seat] = hand
    return tuple(hands)


def plain(value: object) -> object:
    """A JSON-ready deep copy (dicts and lists) of an option value."""
    if isinstance(value, dict) or isinstance(value, MappingProxyType):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@on("MatchCreated")
def _created(_m: Match | None, e: Event) -> Match:
    d = e.data
    opts = dict(d["options"])
    return Match(id=d["game_id"], variant=d["variant"], name=d.get("name"),
                 options=MappingProxyType(opts), rules=rules_from_options(opts),
                 plain_options=plain(opts),
                 max_players=d["max_players"], status="open", version=e.seq, seats=(), round_no=0,
                 dealer=None, rnd=None, scores=(), intermission_deadline=None, standings=(),
                 match_seed=e.secret.get("match_seed", ""),
                 match_seed_commitment=d["match_seed_commitment"], shuffle_seeds=(), created_at=e.at,
                 rules_version=int(d.get("rules_version", 1)))


def _new_seat(m: Match, e: Event, state: str) -> Match:
    d = e.data
    seat = Seat(seat=d["seat"], name=d["name"], kind=d["kind"], strength=d.get("strength"),
                state=state, total=0, creator=bool(d.get("creator", False)))
    return rep(m, version=e.seq, seats=m.seats + (seat,))


@on("SeatJoined")
def _joined(m: Match, e: Event) -> Match:
    return _new_seat(m, e, "active")


@on("SeatWaiting")
def _waiting(m: Match, e: Event) -> Match:
    return _new_seat(m, e, "waiting")


@on("SeatActivated")
def _activated(m: Match, e: Event) -> Match:
    return rep(m, version=e.seq, seats=_seat(m, e.data["seat"], state="active", total=e.data["total"]))


@on("SeatLeft")
def _left(m: Match, e: Event) -> Match:
    seat = e.data["seat"]
    bot = e.data.get("replaced_by")
    gone = {"timeouts": 0, "absent": False, "removal_deadline": None}  # §2.7: the absence ends
    if bot:
        seats = _seat(m, seat, kind="bot", strength=bot["strength"], name=bot.get("name", "bot"), **gone)
        return rep(m, version=e.seq, seats=seats)
    m = rep(m, version=e.seq, seats=_seat(m, seat, state="left", **gone))
    rnd = m.rnd
    if rnd is None or rnd.phase in (SCORING, INTERMISSION):
        return m
    kw: dict[str, object] = {}
    if seat < len(rnd.hands) and rnd.hands[seat]:
        # §3.10 step 2: the hand goes under the stock; the ShuffleCommitted that follows
        # (what = leaver_hand) records its shuffled order, so cards are conserved at every event
        kw = {"hands": _set_hand(rnd, seat, ()), "stock": rnd.stock + rnd.hands[seat]}
    if rnd.window is not None and rnd.window.seat == seat:
        kw["window"] = None
    if rnd.armed == seat:
        kw["armed"] = None
    if rnd.current == seat:
        kw.update(pending_draw=0, pending_skip=False, top_live=False)
    return _r(m, e, rep(rnd, **kw))


@on("RoundStarted")
def _round_started(m: Match, e: Event) -> Match:
    d = e.data
    rnd = Round(stock=(), discard=(), hands=((),) * len(m.seats), current=d["dealer"],
                direction=d["direction"], phase="dealing", turn_id=0, called_suit=None,
                top_live=False, pending_draw=0, pending_skip=False, drawn_card=None,
                draws_this_turn=0, blocked_passes=0, window=None, armed=None,
                phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, status="running", round_no=d["round"], dealer=d["dealer"],
               rnd=rnd, intermission_deadline=None)


@on("ShuffleCommitted")
def _shuffled(m: Match, e: Event) -> Match:
    order = tuple(e.secret.get("order", ()))
    seeds = m.shuffle_seeds + ((e.seq, e.secret.get("seed", "")),)
    rnd = m.rnd
    what = e.data["what"]
    if rnd is None:
        return rep(m, version=e.seq, shuffle_seeds=seeds)
    if what == "leaver_hand":  # replaces the leaver's cards that SeatLeft put under the stock
        stock = rnd.stock[:len(rnd.stock) - len(order)] + order
    else:
        stock = order
    return rep(m, version=e.seq, shuffle_seeds=seeds, rnd=rep(rnd, stock=stock))


@on("CardsDealt")
def _dealt(m: Match, e: Event) -> Match:
    rnd = m.rnd
    hands = list(rnd.hands)
    dealt: set[str] = set()
    for seat, priv in e.to_seat.items():
        cards = tuple(priv["cards"])
        hands[int(seat)] = cards
        dealt.update(cards)
    stock = tuple(c for c in rnd.stock if c not in dealt)
    return _r(m, e, rep(rnd, hands=tuple(hands), stock=stock))


def _to_discard(rnd: Round, card: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    stock = rnd.stock[1:] if rnd.stock and rnd.stock[0] == card else tuple(c for c in rnd.stock if c != card)
    return stock, rnd.discard + (card,)


@on("StarterTurned")
def _starter(m: Match, e: Event) -> Match:
    card = e.data["card"]
    stock, discard = _to_discard(m.rnd, card)
    live = m.options["starter_special_policy"] == "apply"
    pending = m.rules.seven_count if live and RANK[card] == m.rules.draw else 0
    skip = live and RANK[card] == m.rules.skip
    return _r(m, e, rep(m.rnd, stock=stock, discard=discard, top_live=live,
                        pending_draw=pending, pending_skip=skip, played=appended(m.rnd.played, card)))


@on("StarterCovered")
def _covered(m: Match, e: Event) -> Match:
    stock, discard = _to_discard(m.rnd, e.data["card"])
    return _r(m, e, rep(m.rnd, stock=stock, discard=discard, top_live=False,
                        played=appended(m.rnd.played, e.data["card"])))


@on("TurnStarted")
def _turn(m: Match, e: Event) -> Match:
    d = e.data
    return rep_round(m, e.seq, {"current": d["seat"], "phase": d["phase"], "turn_id": d["turn_id"],
                                "draws_this_turn": 0, "drawn_card": None, "armed": None,
                                "phase_seq": e.seq, "phase_at": e.at, "deadline": d.get("deadline"),
                                "turn_seq": e.seq, "turn_at": e.at})


@on("TimedOut")
def _timed_out(m: Match, e: Event) -> Match:
    """§2.7: one more consecutive timeout; the event that marks the seat absent says so."""
    return rep(m, version=e.seq, seats=timed_out_seats(m.seats, e))


def timed_out_seats(seats: tuple[Seat, ...], e: Event) -> tuple[Seat, ...]:
    """§2.7 (all games): count the timeout; ``absent`` starts an absence with its removal deadline."""
    d = e.data
    s = d["seat"]
    old = seats[s]
    kw: dict[str, object] = {"timeouts": old.timeouts + 1}
    if d.get("absent"):
        kw.update(absent=True, absences=old.absences + 1, removal_deadline=d.get("removal_deadline"))
    out = list(seats)
    out[s] = rep(old, **kw)
    return tuple(out)


def present(m: Match, e: Event) -> Match:
    """§2.7: an accepted action of the seat itself (not a default, not the autopilot) clears its
    consecutive timeouts and its absence, which closes the removal timer."""
    seat = e.seat
    if seat is None or seat >= len(m.seats):
        return m
    old = m.seats[seat]
    if (not old.timeouts and not old.absent) or e.data.get("auto"):
        return m
    seats = list(m.seats)
    seats[seat] = rep(old, timeouts=0, absent=False, removal_deadline=None)
    return rep(m, seats=tuple(seats))


from service.games.shedding import evolve_play  # noqa: E402,F401  (registers the in-round handlers)
from service.games.shedding import evolve_table  # noqa: E402,F401


def replay(events: "list[Event] | tuple[Event, ...]") -> Match:
    """Fold a whole stream into the state."""
    state: Match | None = None
    for ev in events:
        state = evolve(state, ev)
    assert state is not None
    return state


__all__ = ["evolve", "replay", "HANDLERS", "ACE_FOLLOWUP", "AFTER_DRAW", "PLAY", "Window", "ScoreEntry"]
