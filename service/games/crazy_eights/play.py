"""decide for a seat's actions: play (an eight names a suit), draw, pass (crazy_eights.cc)."""
from __future__ import annotations

from service.games.crazy_eights.actions import legal_actions, legal_cards, may_draw, may_pass, names_suit
from service.games.crazy_eights.flow import end_hand, start_turn
from service.games.crazy_eights.rules import DRAW_TWO, EIGHT, REVERSE, SKIP, step
from service.games.crazy_eights.tx import Tx, shuffle
from service.games.kernel.codes import KernelCode
from service.games.kernel.refusal import refuser
from service.games.shedding.cards import RANK, SHORT, SUITS, is_card_id
from service.games.shedding.commands import Draw, Pass, Play

refuse = refuser(legal_actions)  # §2.6(2): refuse(m, seat, now, code, detail), the caller's legal actions attached


def _own_turn(tx: Tx, seat: int, announce: bool) -> None:
    m = tx.m
    rnd = m.rnd
    if rnd is None or rnd.phase != "play":
        raise refuse(tx.m, seat, tx.at, KernelCode.WRONG_PHASE, "no hand is being played")
    if rnd.current != seat:
        raise refuse(tx.m, seat, tx.at, KernelCode.NOT_YOUR_TURN, f"it is seat {rnd.current}'s turn")
    if announce:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "Crazy Eights has no announcement")


def _find(hand: tuple[str, ...], card: object) -> str | None:
    """An exact card id, or its short form ("8H") for the one copy of the deck."""
    if not isinstance(card, str):
        return None
    if is_card_id(card):
        return card if card in hand else None
    return next((c for c in hand if SHORT[c] == card), None)


def play(tx: Tx, cmd: Play) -> None:
    seat = cmd.seat
    _own_turn(tx, seat, cmd.announce)
    m = tx.m
    rnd = m.rnd
    card = _find(rnd.hands[seat], cmd.card)
    if card is None:
        raise refuse(tx.m, seat, tx.at, KernelCode.CARD_NOT_IN_HAND, f"{cmd.card!r} is not in your hand")
    if card not in legal_cards(m, seat):
        detail = "answer the two or draw" if rnd.owed else f"{card} does not follow {rnd.discard[-1]} ({rnd.suit})"
        raise refuse(tx.m, seat, tx.at, KernelCode.ILLEGAL_CARD, detail)
    wild = RANK[card] == EIGHT and names_suit(m, seat)
    if wild and cmd.called_suit is None:
        raise refuse(tx.m, seat, tx.at, KernelCode.MUST_CHOOSE_SUIT, f"{card} names a suit: called_suit is one of C, D, H, S")
    if wild and cmd.called_suit not in SUITS:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_SUIT, "called_suit must be one of C D H S")
    if not wild and cmd.called_suit is not None:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_SUIT, "only an eight that does not end the hand names a suit")
    left = len(rnd.hands[seat]) - 1
    tx.emit("CardPlayed", seat, {"seat": seat, "card": card, "hand_size": left})
    if wild:
        tx.emit("SuitCalled", seat, {"seat": seat, "suit": cmd.called_suit})
    m = tx.m
    if left == 0:
        end_hand(tx, "hand_empty", seat)
        return
    if m.rnd.plays >= int(m.options["max_turns"]):
        end_hand(tx, "max_turns", None)
        return
    if not m.rnd.stock and m.options["reshuffle"]:
        _reshuffle(tx)
    _effect(tx, seat, RANK[card])


def _effect(tx: Tx, seat: int, rank: str) -> None:
    """After a play: Q skips, A reverses, 2 makes the next seat owe two more (special cards only)."""
    m = tx.m
    rnd = m.rnd
    seats, d = rnd.seats, rnd.direction
    if m.options["use_special_cards"]:
        if rank == SKIP:
            tx.emit("TurnSkipped", None, {"seat": step(seats, seat, d)})
            start_turn(tx, step(seats, seat, 2 * d))
            return
        if rank == REVERSE:
            tx.emit("DirectionReversed", None, {"direction": -d})
            start_turn(tx, step(seats, seat, -d))
            return
        if rank == DRAW_TWO and rnd.stock:  # OpenSpiel: with an empty stock a two is a plain card
            nxt = step(seats, seat, d)
            tx.emit("DrawOwed", None, {"seat": nxt, "count": rnd.owed + 2})
            start_turn(tx, nxt)
            return
    start_turn(tx, step(seats, seat, d))


def _reshuffle(tx: Tx) -> bool:
    """``reshuffle``: the discard but its top card, shuffled, becomes the stock (if there is any)."""
    rnd = tx.m.rnd
    if len(rnd.discard) < 2:
        return False
    tx.emit("StockReshuffled", None, {"count": len(rnd.discard) - 1})
    shuffle(tx, "discard", tx.m.rnd.stock)
    return True


def draw(tx: Tx, cmd: Draw) -> None:
    seat = cmd.seat
    _own_turn(tx, seat, cmd.announce)
    m = tx.m
    if not may_draw(m, seat):
        raise refuse(tx.m, seat, tx.at, KernelCode.ILLEGAL_ACTION,
                      "the stock is empty" if not m.rnd.stock else "no more draws this turn")
    if m.rnd.owed:
        _pay(tx, seat)
        return
    card = m.rnd.stock[0]
    tx.emit("CardDrawn", seat, {"seat": seat, "count": 1, "reason": "draw",
                                "hand_size": len(m.rnd.hands[seat]) + 1}, to_seat={seat: {"cards": [card]}})
    if not tx.m.rnd.stock and tx.m.options["reshuffle"]:
        _reshuffle(tx)


def _pay(tx: Tx, seat: int) -> None:
    """Owed cards are drawn all at once; the stock running dry clears the rest (counted as a pass
    when it ran dry on the last card owed, as OpenSpiel counts it); then the next seat plays."""
    reshuffle = tx.m.options["reshuffle"]
    while True:
        rnd = tx.m.rnd
        k = min(rnd.owed, len(rnd.stock))
        cards = list(rnd.stock[:k])
        left = rnd.owed - k
        dry = k == len(rnd.stock)
        refilled = dry and reshuffle and len(rnd.discard) > 1
        data = {"seat": seat, "count": k, "reason": "penalty", "hand_size": len(rnd.hands[seat]) + k}
        if dry and not refilled and left == 0:
            data["as_pass"] = True
        tx.emit("CardDrawn", seat, data, to_seat={seat: {"cards": cards}})
        if refilled:
            _reshuffle(tx)
        if left == 0:
            break
        if not tx.m.rnd.stock:
            tx.emit("DrawShortfall", None, {"seat": seat, "missing": left})
            break
    rnd = tx.m.rnd
    start_turn(tx, step(rnd.seats, seat, rnd.direction))


def pass_turn(tx: Tx, cmd: Pass) -> None:
    seat = cmd.seat
    _own_turn(tx, seat, cmd.announce)
    m = tx.m
    rnd = m.rnd
    if not may_pass(m, seat):
        raise refuse(tx.m, seat, tx.at, KernelCode.ILLEGAL_ACTION, f"draw first: up to {m.options['max_draw_cards']} cards")
    tx.emit("TurnPassed", seat, {"seat": seat, "turn_id": rnd.turn_id})
    rnd = tx.m.rnd
    if rnd.passes >= len(rnd.seats) + 1:
        end_hand(tx, "blocked", None)
        return
    start_turn(tx, step(rnd.seats, seat, rnd.direction))
