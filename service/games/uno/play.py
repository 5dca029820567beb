"""decide for a seat's actions (RLCard's UnoRound.proceed_round): play a card (a wild names its
colour), or draw when nothing is playable (a drawn card that follows is played at once, or with
``drawn_card`` play_or_keep played or kept: ``pass``)."""
from __future__ import annotations

from service.games.kernel.catch import Challenge, Verdict
from service.games.kernel.codes import KernelCode
from service.games.kernel.refusal import refuser
from service.games.shedding.commands import Draw, Pass, Play
from service.games.uno.actions import keeps, legal_actions, legal_cards
from service.games.uno.call import CHALLENGE_MADE, calls, judge
from service.games.uno.cards import COLOR, COLORS, DRAW_2, FACE, REVERSE, SKIP, TRAIT, WILD_DRAW_4, is_card_id
from service.games.uno.flow import draw_cards, end_hand, random_color, start_turn
from service.games.uno.options import printed
from service.games.uno.rules import step
from service.games.uno.tx import Tx

refuse = refuser(legal_actions)  # §2.6(2): refuse(m, seat, now, code, detail), the caller's legal actions attached
PENALTY = {DRAW_2: 2, WILD_DRAW_4: 4}


def _own_turn(tx: Tx, seat: int, announce: bool, left: int) -> None:
    """The seat's turn in a running hand; ``announce`` (the UNO call) only with ``uno_call`` and
    only when the action may leave the seat ``left`` = one card."""
    rnd = tx.m.rnd
    if rnd is None or rnd.phase != "play":
        raise refuse(tx.m, seat, tx.at, KernelCode.WRONG_PHASE, "no hand is being played")
    if rnd.current != seat:
        raise refuse(tx.m, seat, tx.at, KernelCode.NOT_YOUR_TURN, f"it is seat {rnd.current}'s turn")
    if announce and not calls(tx.m):
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "this table plays without the UNO call")
    if announce and len(rnd.hands[seat]) != left:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "call UNO with your next-to-last card")


def _find(hand: tuple[str, ...], card: object) -> str | None:
    """An exact card id, or a face ("R-5", "wild") for the first copy of it in the hand."""
    if not isinstance(card, str):
        return None
    if is_card_id(card):
        return card if card in hand else None
    return next((c for c in hand if FACE[c] == card), None)


def play(tx: Tx, cmd: Play) -> None:
    """A playable card (rules.playable); a wild names its colour in ``called_suit``. The last card
    ends the hand; from rules version 4 a ``uno`` table's last draw two or wild draw four still makes
    the next player draw (the printed rules: the cards count in the score), RLCard's does nothing."""
    seat = cmd.seat
    _own_turn(tx, seat, cmd.announce, 2)
    m = tx.m
    rnd = m.rnd
    card = _find(rnd.hands[seat], cmd.card)
    if card is None:
        raise refuse(m, seat, tx.at, KernelCode.CARD_NOT_IN_HAND, f"{cmd.card!r} is not in your hand")
    if card not in legal_cards(m, seat):
        raise refuse(m, seat, tx.at, KernelCode.ILLEGAL_CARD, f"{card} does not follow {rnd.target} ({rnd.color})")
    wild = COLOR[card] is None
    if wild and cmd.called_suit is None:
        raise refuse(m, seat, tx.at, KernelCode.MUST_CHOOSE_SUIT, f"{card} names a colour: called_suit is one of R, G, B, Y")
    if wild and cmd.called_suit not in COLORS:
        raise refuse(m, seat, tx.at, KernelCode.INVALID_SUIT, "called_suit must be one of R G B Y")
    if not wild and cmd.called_suit is not None:
        raise refuse(m, seat, tx.at, KernelCode.INVALID_SUIT, "only a wild names a colour")
    left = len(rnd.hands[seat]) - 1
    color = cmd.called_suit if wild else COLOR[card]
    data = {"seat": seat, "card": card, "color": color, "hand_size": left}
    tx.emit("CardPlayed", seat, {**data, "announce": True} if cmd.announce else data)
    if left == 0:
        if TRAIT[card] in PENALTY and printed(m.variant, m.rules_version):  # the printed rules: it still acts
            draw_cards(tx, step(rnd.seats, seat, rnd.direction), PENALTY[TRAIT[card]], "penalty")
        end_hand(tx, seat)
        return
    effect(tx, seat, card)


def effect(tx: Tx, seat: int, card: str) -> None:
    """RLCard's _preform_non_number_action after ``seat`` played ``card``: a reverse turns the
    direction (with two players the other player moves next: no skip), a skip skips the next
    player, a draw two or wild draw four makes the next player draw (reshuffling first when the
    stock is short) and skips it; then the next player moves."""
    rnd = tx.m.rnd
    seats, d = rnd.seats, rnd.direction
    trait = TRAIT[card]
    if trait == REVERSE:
        tx.emit("DirectionReversed", None, {"direction": -d})
        start_turn(tx, step(seats, seat, -d))
        return
    if trait == SKIP:
        tx.emit("TurnSkipped", None, {"seat": step(seats, seat, d)})
        start_turn(tx, step(seats, seat, 2 * d))
        return
    if trait in PENALTY:
        draw_cards(tx, step(seats, seat, d), PENALTY[trait], "penalty")
        start_turn(tx, step(seats, seat, 2 * d))
        return
    start_turn(tx, step(seats, seat, d))


def draw(tx: Tx, cmd: Draw) -> None:
    """RLCard's _perform_draw_action, only when nothing is playable: the top card of the stock
    (the played cards reshuffled into it first when it is empty). A wild is played at once with a
    random colour, and a wild draw four so played makes nobody draw; a card of the colour in play
    is played at once (an action card acts); any other card is kept. Then the next player moves."""
    seat = cmd.seat
    _own_turn(tx, seat, cmd.announce, 1)
    m = tx.m
    if legal_cards(m, seat):
        raise refuse(m, seat, tx.at, KernelCode.ILLEGAL_ACTION, "draw only when no card is playable")
    if keeps(m) and cmd.announce:
        raise refuse(m, seat, tx.at, KernelCode.INVALID_ACTION, "call UNO when you play the drawn card")
    cards = draw_cards(tx, seat, 1, "draw", by=seat)
    rnd = tx.m.rnd
    nxt = step(rnd.seats, seat, rnd.direction)
    if keeps(m):  # the published rules: a drawn card that follows is the seat's to play or keep
        if not cards or not legal_cards(tx.m, seat):
            start_turn(tx, nxt)
        return
    if not cards:
        start_turn(tx, nxt)
        return
    card = cards[0]
    data = {"seat": seat, "card": card, "hand_size": len(rnd.hands[seat]) - 1, "drawn": True}
    if cmd.announce:
        data["announce"] = True
    if COLOR[card] is None:
        tx.emit("CardPlayed", seat, {**data, "color": random_color(tx)})
        start_turn(tx, nxt)
    elif COLOR[card] == rnd.color:
        tx.emit("CardPlayed", seat, {**data, "color": COLOR[card]})
        effect(tx, seat, card)
    else:
        start_turn(tx, nxt)


def keep(tx: Tx, cmd: Pass) -> None:
    """With ``drawn_card`` play_or_keep: keep the card just drawn (it follows, but the seat keeps
    it); the next player moves."""
    seat = cmd.seat
    rnd = tx.m.rnd
    if cmd.announce and rnd is not None and rnd.phase == "play" and rnd.current == seat:
        raise refuse(tx.m, seat, tx.at, KernelCode.INVALID_ACTION, "a kept card leaves no card to call UNO on")
    _own_turn(tx, seat, False, 0)
    rnd = tx.m.rnd
    if rnd.drawn is None:
        raise refuse(tx.m, seat, tx.at, KernelCode.ILLEGAL_ACTION, "pass keeps a card just drawn: draw first")
    tx.emit("CardKept", seat, {"seat": seat, "hand_size": len(rnd.hands[seat])})
    start_turn(tx, step(rnd.seats, seat, rnd.direction))


def challenge(tx: Tx, cmd: Challenge) -> None:
    """With ``uno_call``: a seat of the hand catches ``target``, who played his next-to-last card
    without calling, before the next player began: the target draws two (call.py). Not a seat's
    turn action: any seat of the hand, at any moment the window is open; once per seat and window."""
    verdict = judge(tx.m, cmd)
    if not isinstance(verdict, Verdict):
        code, detail = verdict
        raise refuse(tx.m, cmd.seat, tx.at, code, detail)
    tx.emit(CHALLENGE_MADE, cmd.seat, verdict.event_data())
    if verdict.cards > 0:
        draw_cards(tx, verdict.victim, verdict.cards, verdict.reason)
