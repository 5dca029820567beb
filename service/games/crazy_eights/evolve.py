"""evolve(state, event) for Crazy Eights: a fold that never validates (DESIGN rule 1).

Dealt and drawn cards come from the events' private parts (``to_seat``), the stock's order from the
secret of each ShuffleCommitted: the server folds the full events; the views redact."""
from __future__ import annotations

from service.games.crazy_eights.state import OVER, PLAY, SCORING, EightsMatch, Hand, rep, round_of
from service.games.kernel.absence import present
from service.games.kernel.fold import Fold, new_table, round_from_data, seat_left, seeds_with, table_handlers
from service.games.kernel.model import Event
from service.games.kernel.state import frozen_map as fz, rep_event as _rnd
from service.games.shedding.cards import SUIT

FOLD = Fold()
HANDLERS = FOLD.handlers
on = FOLD.on
table_handlers(FOLD, scored=OVER)  # SeatJoined, TimedOut, RoundScored (one hand: then OVER), MatchEnded, SeedsRevealed

evolve = FOLD.evolve  # apply one event; a type this game does not fold only bumps the version
replay = FOLD.replay


@on("MatchCreated")
def _created(_m: None, e: Event) -> EightsMatch:
    return new_table(EightsMatch, e)


on("SeatLeft")(seat_left)  # replaced by a bot once the match runs


@on("RoundStarted")
def _round_started(m: EightsMatch, e: Event) -> EightsMatch:
    d = e.data
    dealer = d["dealer"]
    rnd = Hand(seats=tuple(d["active_seats"]), hands=fz({}), stock=(), discard=(), suit="",
               current=dealer, direction=d["direction"], turn_id=0, turn_seq=e.seq, turn_at=e.at,
               deadline=None, phase="deal", phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, status="running", round_no=d["round"], dealer=dealer, rnd=rnd)


@on("ShuffleCommitted")
def _shuffled(m: EightsMatch, e: Event) -> EightsMatch:
    m = rep(m, shuffle_seeds=seeds_with(m, e))
    return _rnd(m, e, stock=tuple(e.secret["order"]))


@on("CardsDealt")
def _dealt(m: EightsMatch, e: Event) -> EightsMatch:
    hands = {int(s): tuple(p["cards"]) for s, p in e.to_seat.items()}
    dealt = sum(len(h) for h in hands.values())
    return _rnd(m, e, hands=fz(hands), stock=round_of(m).stock[dealt:])


@on("StarterTurned")
def _starter(m: EightsMatch, e: Event) -> EightsMatch:
    card = e.data["card"]
    return _rnd(m, e, stock=round_of(m).stock[1:], discard=(card,), suit=SUIT[card])


@on("StarterReturned")
def _returned(m: EightsMatch, e: Event) -> EightsMatch:
    """A turned-up eight goes back into the stock (the ShuffleCommitted after it orders the stock)."""
    return _rnd(m, e, stock=round_of(m).stock + (e.data["card"],), discard=())


@on("TurnStarted")
def _turn(m: EightsMatch, e: Event) -> EightsMatch:
    d = e.data
    return _rnd(m, e, current=d["seat"], turn_id=d["turn_id"], turn_seq=e.seq, turn_at=e.at,
                deadline=d["deadline"], drawn=0, phase=PLAY, phase_seq=e.seq, phase_at=e.at)


@on("CardPlayed")
def _played(m: EightsMatch, e: Event) -> EightsMatch:
    m = present(m, e)
    d = e.data
    rnd = round_of(m)
    seat, card = d["seat"], d["card"]
    hand = list(rnd.hands[seat])
    hand.remove(card)
    return _rnd(m, e, hands=fz({**rnd.hands, seat: tuple(hand)}), discard=rnd.discard + (card,),
                suit=SUIT[card], plays=rnd.plays + 1, drawn=0, passes=0)


on("SuitCalled")(round_from_data(suit="suit"))


@on("CardDrawn")
def _drawn(m: EightsMatch, e: Event) -> EightsMatch:
    m = present(m, e)
    d = e.data
    rnd = round_of(m)
    seat, count = d["seat"], d["count"]
    cards = tuple(e.to_seat[seat]["cards"]) if seat in e.to_seat else rnd.stock[:count]
    hands = fz({**rnd.hands, seat: rnd.hands[seat] + cards})
    if d["reason"] == "penalty":
        return _rnd(m, e, hands=hands, stock=rnd.stock[count:], owed=max(rnd.owed - count, 0),
                    passes=1 if d.get("as_pass") else 0)
    return _rnd(m, e, hands=hands, stock=rnd.stock[count:], drawn=rnd.drawn + count, passes=0,
                phase_seq=e.seq, phase_at=e.at)


@on("DrawShortfall")
def _short(m: EightsMatch, e: Event) -> EightsMatch:
    return _rnd(m, e, owed=0, passes=0)


@on("StockReshuffled")
def _reshuffled(m: EightsMatch, e: Event) -> EightsMatch:
    """The discard but its top card becomes the stock (its order: the ShuffleCommitted after it)."""
    rnd = round_of(m)
    return _rnd(m, e, stock=rnd.stock + rnd.discard[:-1], discard=rnd.discard[-1:])


on("DrawOwed")(round_from_data(owed="count"))
on("DirectionReversed")(round_from_data(direction="direction"))


@on("TurnPassed")
def _passed(m: EightsMatch, e: Event) -> EightsMatch:
    m = present(m, e)
    rnd = round_of(m)
    return _rnd(m, e, passes=rnd.passes + 1 if not rnd.stock else 0)


@on("RoundEnded")
def _ended(m: EightsMatch, e: Event) -> EightsMatch:
    d = e.data
    return _rnd(m, e, phase=SCORING, phase_seq=e.seq, phase_at=e.at, end_reason=d["reason"],
                winner=d.get("winner"), deadline=None)

