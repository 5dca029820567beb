"""evolve handlers for in-round events (§3.5-§3.9)."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import present
from service.games.kernel.catch import CHALLENGE_MADE, challenged
from service.games.kernel.fold import Fold, round_from_data
from service.games.kernel.model import Event, seat_of
from service.games.shedding import inference
from service.games.shedding.cards import RANK
from service.games.shedding.state import (
    ACE_FOLLOWUP,
    AFTER_DRAW,
    PLAY,
    SCORING,
    Match,
    Move,
    Round,
    Window,
    appended,
    decision,
    rep_round,
    rep_version,
    round_of,
    with_last,
)

PLAY_EVENTS = Fold()
on = PLAY_EVENTS.on

def _with_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """``hands`` with seat's hand replaced (padding seats not dealt in)."""
    if seat < len(hands):
        out = list(hands)
        out[seat] = hand
        return tuple(out)
    return hands + ((),) * (seat - len(hands)) + (hand,)


def _decision(e: Event, kind: str, rnd: Round, count: int = 0) -> Move:
    """The public record of a seat's decision, with the table it decided on."""
    return decision(seat_of(e), kind, None, count, bool(e.data.get("auto")), rnd)


@on("CardPlayed")
def _played(m: Match, e: Event) -> Match:
    m = present(m, e)
    rnd = round_of(m)
    seat = seat_of(e)
    card = e.data["card"]
    hands = list(rnd.hands)
    old = hands[seat]
    i = old.index(card)
    hand = hands[seat] = old[:i] + old[i + 1:]
    kw = {"hands": tuple(hands), "discard": rnd.discard + (card,), "called_suit": None,
          "top_live": True, "blocked_passes": 0, "window": None, "armed": None, "last_card": card,
          "played": appended(rnd.played, card),
          "moves": appended(rnd.moves, decision(seat, "play", card, 0, bool(e.data.get("auto")), rnd))}
    r = m.rules
    if rnd.drew_on:
        kw["drew_on"] = inference.played(rnd.drew_on, seat, card, r.wild)
    if len(hand) < 2:
        if not hand:
            return rep_round(m, e.seq, kw)
        sat = bool(e.data.get("announce")) or rnd.armed == seat or r.announce_mode == "auto"
        kw["window"] = Window(seat, e.at, e.seq, sat)
    rank = RANK[card]
    if rank == r.draw:
        kw["pending_draw"] = rnd.pending_draw + r.seven_count if r.seven_accumulate else r.seven_count
    elif rank == r.skip or (rank == r.reverse and r.reverse_acts_as_skip and len(m.active_seats()) == 2):
        kw["pending_skip"] = True
    elif rank == r.extra:
        kw["phase"] = ACE_FOLLOWUP
        kw["phase_seq"] = e.seq
        kw["phase_at"] = e.at
    return rep_round(m, e.seq, kw)


@on("SuitCalled")
def _called(m: Match, e: Event) -> Match:
    moves = round_of(m).moves
    if moves and moves[-1][-1].kind == "play":
        moves = with_last(moves, moves[-1][-1]._replace(suit=e.data["suit"]))
    return rep_round(m, e.seq, {"called_suit": e.data["suit"], "moves": moves})


@on("CardDrawn")
def _drawn(m: Match, e: Event) -> Match:
    d = e.data
    turn = d["reason"] == "turn"
    if turn:
        m = present(m, e)
    rnd = round_of(m)
    seat = seat_of(e)
    priv = e.to_seat.get(seat)
    cards = tuple(priv["cards"]) if priv is not None else ()
    n = len(cards)
    count = int(d.get("count", n))
    move = decision(seat, "draw", None, count, bool(d.get("auto")), rnd) if turn else Move(seat, "gain", count=count)
    kw: dict[str, Any] = {"hands": _with_hand(rnd.hands, seat, rnd.hands[seat] + cards), "stock": rnd.stock[n:],
          "moves": appended(rnd.moves, move)}
    old = drew_on = rnd.drew_on
    if turn:
        keys = inference.turn_draw_keys(rnd, m.rules)
        if keys:
            drew_on = inference.noted(drew_on, seat, keys)
    if drew_on:
        drew_on = inference.gained(drew_on, seat, count)
    if drew_on is not old:
        kw["drew_on"] = drew_on
    if turn:
        kw["blocked_passes"] = 0
        kw["draws_this_turn"] = rnd.draws_this_turn + 1
        kw["window"] = None
        kw["drawn_card"] = cards[-1] if cards else None
        if m.rules.play_after_draw != "none" and (rnd.phase == PLAY or rnd.phase == AFTER_DRAW):
            kw["phase"] = AFTER_DRAW
            kw["phase_seq"] = e.seq
            kw["phase_at"] = e.at
    return rep_round(m, e.seq, kw)


@on("StockReshuffled")
def _reshuffled(m: Match, e: Event) -> Match:
    rnd = round_of(m)
    return rep_round(m, e.seq, {"stock": rnd.stock + rnd.discard[:-1], "discard": rnd.discard[-1:],
                                "moves": appended(rnd.moves, Move(None, "reshuffle", count=len(rnd.discard) - 1))})


@on("DrawShortfall")
def _shortfall(m: Match, e: Event) -> Match:
    """v2 (RULES §4.5.4, §3.6): a turn draw that found nothing to draw still enters AFTER_DRAW
    where a draw would have, so a voluntary draw under draw_then_continue keeps the move."""
    rnd = m.rnd
    if (m.rules_version < 2 or e.data.get("reason") != "turn" or m.rules.play_after_draw == "none"
            or rnd is None or rnd.phase not in (PLAY, AFTER_DRAW)):
        return rep_version(m, e.seq)
    m = present(m, e)
    rnd = round_of(m)
    return rep_round(m, e.seq, {
        "blocked_passes": 0, "draws_this_turn": rnd.draws_this_turn + 1, "window": None, "drawn_card": None,
        "phase": AFTER_DRAW, "phase_seq": e.seq, "phase_at": e.at,
        "moves": appended(rnd.moves, decision(seat_of(e), "draw", None, 0, bool(e.data.get("auto")), rnd))})


@on("PenaltyTaken")
def _penalty(m: Match, e: Event) -> Match:
    m = present(m, e)
    rnd = round_of(m)
    kw = {"pending_draw": 0, "top_live": False, "window": None,
          "moves": appended(rnd.moves, _decision(e, "take_penalty", rnd, rnd.pending_draw))}
    r = m.rules
    if r.draw and r.seven_answerable:  # he took the penalty: no seven to answer with (H5/H6)
        kw["drew_on"] = inference.noted(rnd.drew_on, seat_of(e), (r.draw,))
    return rep_round(m, e.seq, kw)


@on("SkipAccepted")
def _skip_accepted(m: Match, e: Event) -> Match:
    m = present(m, e)
    rnd = round_of(m)
    return rep_round(m, e.seq, {"pending_skip": False, "top_live": False, "window": None,
                                "moves": appended(rnd.moves, _decision(e, "accept_skip", rnd))})


@on("TurnSkipped")
def _skipped(m: Match, e: Event) -> Match:
    return rep_round(m, e.seq, {"pending_skip": False})


on("DirectionReversed")(round_from_data(direction="direction"))


@on("TurnPassed")
def _passed(m: Match, e: Event) -> Match:
    m = present(m, e)
    rnd = round_of(m)
    blocked = rnd.blocked_passes + 1 if e.data.get("blocked") else rnd.blocked_passes
    return rep_round(m, e.seq, {"blocked_passes": blocked, "window": None,
                                "moves": appended(rnd.moves, _decision(e, "pass", rnd))})


@on("AnnouncementMade")
def _announced(m: Match, e: Event) -> Match:
    m = present(m, e)
    w = round_of(m).window
    if e.data.get("effect") == "satisfied" and w is not None and w.seat == e.seat:
        return rep_round(m, e.seq, {"window": w.called()})
    return rep_version(m, e.seq)


@on("AnnouncementArmed")
def _armed(m: Match, e: Event) -> Match:
    m = present(m, e)
    return rep_round(m, e.seq, {"armed": e.seat})


@on("AnnouncementMissed")
def _missed(m: Match, e: Event) -> Match:
    return rep_round(m, e.seq, {"window": None})


@on(CHALLENGE_MADE)
def _challenged(m: Match, e: Event) -> Match:
    """§3.8.4: a right challenge closes the window (the penalty follows as ``CardDrawn``), a wrong
    one notes the challenger."""
    m = present(m, e)
    return rep_round(m, e.seq, {"window": challenged(round_of(m).window, e.data)})


@on("RoundEnded")
def _ended(m: Match, e: Event) -> Match:
    d = e.data
    return rep_round(m, e.seq, {"phase": SCORING, "winner": d.get("winner"), "end_reason": d["reason"],
                                "end_cause": d.get("cause"), "window": None, "armed": None,
                                "phase_seq": e.seq, "phase_at": e.at})
