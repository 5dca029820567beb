"""evolve handlers for the table and the deal (§2.1-§3.2, §3.10); shedding/fold.py assembles the fold."""
from __future__ import annotations

from service.games.kernel.fold import Fold, new_seat, new_table, table_handlers
from service.games.kernel.model import Event
from service.games.kernel.views import plain
from service.games.shedding.cards import RANK
from service.games.shedding.core import rules_from_options
from service.games.shedding.state import (
    INTERMISSION,
    SCORING,
    Match,
    Round,
    Seat,
    appended,
    rep,
    rep_round,
    round_of,
)

TABLE = Fold()
on = TABLE.on
table_handlers(TABLE)  # SeatJoined, TimedOut, RoundScored, MatchEnded, SeedsRevealed


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


@on("MatchCreated")
def _created(_m: Match | None, e: Event) -> Match:
    opts = dict(e.data["options"])
    return new_table(Match, e, rules=rules_from_options(opts), plain_options=plain(opts))


@on("SeatWaiting")
def _waiting(m: Match, e: Event) -> Match:
    return new_seat(m, e, "waiting")


@on("SeatActivated")
def _activated(m: Match, e: Event) -> Match:
    return rep(m, version=e.seq, seats=_seat(m, e.data["seat"], state="active", total=e.data["total"]))


@on("SeatEliminated")
def _eliminated(m: Match, e: Event) -> Match:
    """§5.8: a seat over the penalty limit is out from this round on."""
    return rep(m, version=e.seq, seats=_seat(m, e.data["seat"], state="eliminated", elim_round=e.round))


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
    rnd = round_of(m)
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
    rnd = round_of(m)
    stock, discard = _to_discard(rnd, card)
    live = m.options["starter_special_policy"] == "apply"
    pending = m.rules.seven_count if live and RANK[card] == m.rules.draw else 0
    skip = live and RANK[card] == m.rules.skip
    return _r(m, e, rep(rnd, stock=stock, discard=discard, top_live=live,
                        pending_draw=pending, pending_skip=skip, played=appended(rnd.played, card)))


@on("StarterCovered")
def _covered(m: Match, e: Event) -> Match:
    rnd = round_of(m)
    stock, discard = _to_discard(rnd, e.data["card"])
    return _r(m, e, rep(rnd, stock=stock, discard=discard, top_live=False,
                        played=appended(rnd.played, e.data["card"])))


@on("TurnStarted")
def _turn(m: Match, e: Event) -> Match:
    d = e.data
    return rep_round(m, e.seq, {"current": d["seat"], "phase": d["phase"], "turn_id": d["turn_id"],
                                "draws_this_turn": 0, "drawn_card": None, "armed": None,
                                "phase_seq": e.seq, "phase_at": e.at, "deadline": d.get("deadline"),
                                "turn_seq": e.seq, "turn_at": e.at})
