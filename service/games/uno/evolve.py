"""evolve(state, event) for UNO: a fold that never validates (DESIGN rule 1).

Dealt and drawn cards come from the events' private parts (``to_seat``), the stock's order from the
secret of each ShuffleCommitted: the server folds the full events; the views redact."""
from __future__ import annotations

from service.games.kernel.absence import present
from service.games.kernel.catch import CHALLENGE_MADE, challenged
from service.games.kernel.fold import Fold, new_table, round_from_data, round_scored, seat_left, seeds_with, table_handlers
from service.games.kernel.model import Event
from service.games.kernel.state import INTERMISSION, frozen_map as fz, rep_event as _rnd
from service.games.uno.actions import keeps
from service.games.uno.call import opened
from service.games.uno.state import OVER, PLAY, SCORING, Hand, UnoMatch, rep, round_of

FOLD = Fold()
HANDLERS = FOLD.handlers
on = FOLD.on
table_handlers(FOLD, scored=OVER)  # SeatJoined, TimedOut, RoundScored (one hand: then OVER), MatchEnded, SeedsRevealed
_SCORED, _TO_NEXT_HAND = round_scored(OVER), round_scored(INTERMISSION)


@on("RoundScored")
def _scored(m: UnoMatch, e: Event) -> UnoMatch:
    """The hand scored: the match over (one hand, or a seat reached ``target_points``), or an
    intermission until the next hand is dealt."""
    return (_SCORED if e.data.get("intermission_deadline") is None else _TO_NEXT_HAND)(m, e)

evolve = FOLD.evolve  # apply one event; a type this game does not fold only bumps the version
replay = FOLD.replay


@on("MatchCreated")
def _created(_m: None, e: Event) -> UnoMatch:
    return new_table(UnoMatch, e)


on("SeatLeft")(seat_left)  # replaced by a bot once the match runs


@on("RoundStarted")
def _round_started(m: UnoMatch, e: Event) -> UnoMatch:
    d = e.data
    seats = tuple(d["active_seats"])
    rnd = Hand(seats=seats, hands=fz({}), stock=(), discard=(), target="", color="", current=seats[0],
               direction=d["direction"], turn_id=0, turn_seq=e.seq, turn_at=e.at, deadline=None,
               phase="deal", phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, status="running", round_no=d["round"], dealer=d["dealer"], rnd=rnd)


@on("ShuffleCommitted")
def _shuffled(m: UnoMatch, e: Event) -> UnoMatch:
    m = rep(m, shuffle_seeds=seeds_with(m, e))
    return _rnd(m, e, stock=tuple(e.secret["order"]))


@on("CardsDealt")
def _dealt(m: UnoMatch, e: Event) -> UnoMatch:
    hands = {int(s): tuple(p["cards"]) for s, p in e.to_seat.items()}
    dealt = sum(len(h) for h in hands.values())
    return _rnd(m, e, hands=fz(hands), stock=round_of(m).stock[dealt:])


@on("StarterTurned")
def _starter(m: UnoMatch, e: Event) -> UnoMatch:
    card = e.data["card"]
    return _rnd(m, e, stock=round_of(m).stock[1:], discard=(card,), target=card, color=e.data["color"])


@on("StarterReturned")
def _returned(m: UnoMatch, e: Event) -> UnoMatch:
    """A turned-up wild draw four goes back into the stock (the ShuffleCommitted after it orders it)."""
    return _rnd(m, e, stock=round_of(m).stock + (e.data["card"],), discard=(), target="", color="")


@on("TurnStarted")
def _turn(m: UnoMatch, e: Event) -> UnoMatch:
    d = e.data
    return _rnd(m, e, current=d["seat"], turn_id=d["turn_id"], turn_seq=e.seq, turn_at=e.at,
                deadline=d["deadline"], phase=PLAY, phase_seq=e.seq, phase_at=e.at, drawn=None)


@on("CardPlayed")
def _played(m: UnoMatch, e: Event) -> UnoMatch:
    m = present(m, e)
    d = e.data
    rnd = round_of(m)
    seat, card = d["seat"], d["card"]
    hand = list(rnd.hands[seat])
    hand.remove(card)
    return _rnd(m, e, hands=fz({**rnd.hands, seat: tuple(hand)}), discard=rnd.discard + (card,),
                target=card, color=d["color"], window=opened(m, d, seat, e.at, e.seq), drawn=None)


@on("CardDrawn")
def _drawn(m: UnoMatch, e: Event) -> UnoMatch:
    m = present(m, e)
    d = e.data
    rnd = round_of(m)
    seat, count = d["seat"], d["count"]
    cards = tuple(e.to_seat[seat]["cards"]) if seat in e.to_seat else rnd.stock[:count]
    w = rnd.window
    if w is not None and (e.seat is not None or w.seat == seat):  # a seat's own draw, or the caller's cards
        w = None
    hands = fz({**rnd.hands, seat: rnd.hands[seat] + cards})
    if d["reason"] == "draw" and cards and keeps(m):  # the drawn card to play or keep (play.py): a new
        return _rnd(m, e, hands=hands, stock=rnd.stock[count:], window=w, drawn=cards[0],  # step (the bot's key)
                    phase_seq=e.seq, phase_at=e.at)
    return _rnd(m, e, hands=hands, stock=rnd.stock[count:], window=w, drawn=None)


@on(CHALLENGE_MADE)
def _challenged(m: UnoMatch, e: Event) -> UnoMatch:
    m = present(m, e)
    return _rnd(m, e, window=challenged(round_of(m).window, e.data))


@on("StockReshuffled")
def _reshuffled(m: UnoMatch, e: Event) -> UnoMatch:
    """RLCard's replace_deck: every played card (the target's too) joins the stock, which the
    ShuffleCommitted after it orders; the target stays the card to match. With ``kept`` (the printed
    rules) the top card stays on the table, the only card played since."""
    rnd = round_of(m)
    if e.data.get("kept"):
        return _rnd(m, e, stock=rnd.stock + rnd.discard[:-1], discard=rnd.discard[-1:])
    return _rnd(m, e, stock=rnd.stock + rnd.discard, discard=())


on("DirectionReversed")(round_from_data(direction="direction"))


@on("RoundEnded")
def _ended(m: UnoMatch, e: Event) -> UnoMatch:
    d = e.data
    return _rnd(m, e, phase=SCORING, phase_seq=e.seq, phase_at=e.at, end_reason=d["reason"],
                winner=d.get("winner"), deadline=None)


__all__ = ["FOLD", "HANDLERS", "PLAY", "evolve", "replay"]
