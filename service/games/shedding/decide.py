"""decide for seat actions in a shedding round (§3.4-§3.8): validation, then effects."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from service.games.kernel.catch import CHALLENGE_MADE, Challenge, Verdict
from service.games.kernel.codes import KernelCode
from service.games.kernel.refusal import refuser
from service.games.shedding.actions import legal_actions
from service.games.shedding.cards import RANK, SUIT, SUITS
from service.games.shedding.commands import AcceptSkip, Announce, Draw, Pass, Play, TakePenalty
from service.games.shedding.core import (
    calls_suit,
    can_arm,
    draw_allowed,
    early_announcement,
    in_grace,
    late_flag_counts,
    next_active,
    pass_kind,
    permitted_cards,
)
from service.games.shedding.state import ACE_FOLLOWUP, AFTER_DRAW, PLAY, RESPOND_SEVEN, RESPOND_SKIP, TURN_PHASES, Match, round_of
from service.games.shedding.tx import Tx, advance, draw_cards

PHASE_ACTIONS = {
    PLAY: ("play", "draw", "pass"),
    RESPOND_SEVEN: ("play", "take_penalty"),
    RESPOND_SKIP: ("play", "accept_skip"),
    AFTER_DRAW: ("play", "pass", "draw"),
    ACE_FOLLOWUP: ("play", "pass", "draw"),
}
KIND = {Play: "play", Draw: "draw", Pass: "pass", TakePenalty: "take_penalty",
        AcceptSkip: "accept_skip", Announce: "announce", Challenge: "challenge"}


refuse = refuser(legal_actions)  # §2.6(2): refuse(m, seat, now, code, detail), the caller's legal actions attached


def decide_seat_action(m: Match, cmd: Any, tx: Tx) -> None:
    """§3.4: only `current` acts, in its phase, outside another seat's grace, legally."""
    seat = cmd.seat
    kind = KIND.get(type(cmd))
    if kind is None:
        raise refuse(m, seat, tx.at, KernelCode.INVALID_ACTION,
                     f"{type(cmd).__name__} is not an action of this variant")
    if kind == "announce":
        announce(tx, seat)
        return
    if kind == "challenge":
        challenge(tx, m, cmd)
        return
    rnd = m.rnd
    now = tx.at
    if kind == "accept_skip" and not m.rules.skip_counterable:
        raise refuse(m, seat, now, KernelCode.INVALID_ACTION, "accept_skip is not an action of this variant")
    if rnd is None or rnd.phase not in TURN_PHASES:
        raise refuse(m, seat, now, KernelCode.WRONG_PHASE, "no turn is open")
    if rnd.current != seat or m.seats[seat].state != "active":
        raise refuse(m, seat, now, KernelCode.NOT_YOUR_TURN, f"it is seat {rnd.current}'s turn")
    if kind not in PHASE_ACTIONS[rnd.phase]:
        raise refuse(m, seat, now, KernelCode.WRONG_PHASE, f"{kind} is not allowed in {rnd.phase}")
    if in_grace(m, seat, now):
        raise refuse(m, seat, now, KernelCode.ANNOUNCE_GRACE, "another seat's announcement grace is running")
    ACTIONS[kind](tx, m, cmd)


def close_windows(tx: Tx, seat: int, flag: bool) -> None:
    """§3.8.3: the seat's own flag first (where a later flag counts, §3.8.2), then the automatic
    penalty of an unsatisfied window."""
    m = tx.state
    w = m.rnd.window
    if w is None:
        return
    if flag and w.seat == seat and not w.satisfied and late_flag_counts(m.rules, m.rules_version):
        tx.emit("AnnouncementMade", seat, {"seat": seat, "effect": "satisfied"})
        return
    if not w.satisfied and not m.rules.catch.by_catch:  # in challenge mode it closes uncaught, free (§3.8.4)
        k = m.rules.announce_penalty
        tx.emit("AnnouncementMissed", w.seat, {"seat": w.seat, "penalty": k})
        draw_cards(tx, w.seat, k, "missed_announcement")


def _play_checks(tx: Tx, m: Match, cmd: Play) -> str:
    """§2.2, §3.3 and §3.5 step 3: the card is in hand, permitted now, and carries a suit if it calls."""
    rnd = round_of(m)
    seat = cmd.seat
    hand = rnd.hands[seat]
    text = cmd.card
    card = None
    if text.__class__ is str:
        if ":" in text:
            if text in hand:
                card = text
        else:
            for c in hand:
                if c[:-2] == text and (card is None or c < card):
                    card = c
    if card is None:
        raise refuse(m, seat, tx.at, KernelCode.CARD_NOT_IN_HAND, f"{cmd.card!r} is not in your hand")
    short = card[:-2]
    for c in permitted_cards(m, seat):
        if c[:-2] == short:
            break
    else:
        raise refuse(m, seat, tx.at, KernelCode.ILLEGAL_CARD, f"{card} cannot be played now")
    r = m.rules
    if RANK[card] == r.wild and calls_suit(card, len(hand) - 1, rnd, r):
        if cmd.called_suit is None and not _window_open_unsat(m, seat):
            raise refuse(m, seat, tx.at, KernelCode.MUST_CHOOSE_SUIT, f"{card} needs called_suit")
        if cmd.called_suit is not None and cmd.called_suit not in SUITS:
            raise refuse(m, seat, tx.at, KernelCode.INVALID_SUIT, "called_suit must be one of C D H S")
    return card


def _window_open_unsat(m: Match, seat: int) -> bool:
    w = round_of(m).window
    return w is not None and w.seat == seat and not w.satisfied


def _default_suit(hand: tuple[str, ...]) -> str:
    """§3.4: the suit the rest of the hand holds most of (ties C, D, H, S)."""
    counts = Counter(SUIT[c] for c in hand)
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


def do_play(tx: Tx, m: Match, cmd: Play) -> None:
    """§3.5: effects of an accepted play, in order."""
    card = _play_checks(tx, m, cmd)
    seat = cmd.seat
    rnd = round_of(m)
    prev_pending = rnd.pending_draw
    if rnd.window is not None:
        close_windows(tx, seat, cmd.announce)
        rnd = round_of(tx.state)
    r = m.rules
    left = len(rnd.hands[seat]) - 1
    rank = RANK[card]
    tx.emit("CardPlayed", seat, {"seat": seat, "card": card, "announce": bool(cmd.announce),
                                 "hand_size": left})
    if rank == r.wild and calls_suit(card, left, rnd, r):
        suit = cmd.called_suit if cmd.called_suit in SUITS else _default_suit(tx.state.rnd.hands[seat])
        tx.emit("SuitCalled", seat, {"seat": seat, "suit": suit})
    if left == 0:
        go_out(tx, seat, card, prev_pending)
        return
    if rank == r.extra:
        return  # §5.5.7: ACE_FOLLOWUP for the same seat
    if rank == r.reverse:
        tx.emit("DirectionReversed", seat, {"direction": -rnd.direction})
    advance(tx, seat)


def go_out(tx: Tx, seat: int, card: str, prev_pending: int) -> None:
    """§3.9.1: going out, with the final seven and the ace_last_card_wins exception (§3.5 step 5)."""
    m = tx.state
    r = m.rules
    rank = RANK[card]
    if rank == r.extra and not r.ace_last_wins:
        draw_cards(tx, seat, 1, "ace_last_card")
        if tx.state.rnd.hands[seat]:
            advance(tx, seat)
            return
        # [DECISION] nothing left to draw: he cannot be made to hold a card, so he goes out
    elif rank == r.draw and r.final_seven:
        amount = r.seven_count if r.final_seven_fixed else (
            prev_pending + r.seven_count if r.seven_accumulate else r.seven_count)
        victim = next_active(m, seat, m.rnd.direction)
        if victim != seat:
            draw_cards(tx, victim, amount, "final_seven")
    tx.emit("RoundEnded", None, {"reason": "out", "cause": None, "winner": seat})


def do_draw(tx: Tx, m: Match, cmd: Draw) -> None:
    """§3.6 and §5.5.7: a turn draw of one card; ends the turn unless AFTER_DRAW applies."""
    rnd = round_of(m)
    r = m.rules
    seat = cmd.seat
    if not draw_allowed(m, seat):
        raise refuse(m, seat, tx.at, KernelCode.ILLEGAL_ACTION, "drawing is not allowed now")
    phase = rnd.phase
    close_windows(tx, seat, cmd.announce)
    draw_cards(tx, seat, 1, "turn")
    if phase == ACE_FOLLOWUP or r.play_after_draw == "none" or tx.state.rnd.phase != AFTER_DRAW:
        advance(tx, seat)


def do_pass(tx: Tx, m: Match, cmd: Pass) -> None:
    """§3.6 blocked pass / §5.5.7 optional ace pass / AFTER_DRAW pass; blocked-round check."""
    seat = cmd.seat
    kind = pass_kind(m, seat)
    if kind is None:
        raise refuse(m, seat, tx.at, KernelCode.ILLEGAL_ACTION, "passing is not allowed now")
    close_windows(tx, seat, cmd.announce)
    blocked = kind == "blocked"
    tx.emit("TurnPassed", seat, {"seat": seat, "turn_id": round_of(m).turn_id, "blocked": blocked})
    if blocked and tx.state.rnd.blocked_passes >= len(tx.state.active_seats()):
        tx.emit("RoundEnded", None, {"reason": "blocked", "cause": "stuck", "winner": None})
        return
    advance(tx, seat)


def do_take_penalty(tx: Tx, m: Match, cmd: TakePenalty) -> None:
    """§3.7 take_penalty: draw the pending sevens, lose the turn."""
    seat = cmd.seat
    close_windows(tx, seat, cmd.announce)
    amount = tx.state.rnd.pending_draw
    tx.emit("PenaltyTaken", seat, {"seat": seat, "amount": amount})
    draw_cards(tx, seat, amount, "seven")
    advance(tx, seat)


def do_accept_skip(tx: Tx, m: Match, cmd: AcceptSkip) -> None:
    """§3.7 accept_skip: clear the skip and advance."""
    seat = cmd.seat
    close_windows(tx, seat, cmd.announce)
    tx.emit("SkipAccepted", seat, {"seat": seat})
    advance(tx, seat)


def announce(tx: Tx, seat: int) -> None:
    """§3.8.2/§3.8.5: satisfy an open window, arm, or no effect, which costs
    ``early_announce_penalty_cards`` (§8.1.7) when the seat has no open window and cannot arm."""
    m = tx.state
    rnd = m.rnd
    if m.rules.announce_mode == "flag_or_window" and rnd is not None and rnd.phase in TURN_PHASES:
        if _window_open_unsat(m, seat):
            tx.emit("AnnouncementMade", seat, {"seat": seat, "effect": "satisfied"})
            return
        if can_arm(m, seat):
            tx.emit("AnnouncementArmed", seat, {"seat": seat})
            return
    tx.emit("AnnouncementMade", seat, {"seat": seat, "effect": "none"})
    if rnd is not None and early_announcement(m.rules, rnd.phase, rnd.hands, m.seats, seat,
                                              rnd.window is not None and rnd.window.seat == seat):
        draw_cards(tx, seat, m.rules.early_penalty, "early_announcement")  # not a closing action (§3.8.3)


def challenge(tx: Tx, m: Match, cmd: Challenge) -> None:
    """§3.8.4 challenge mode: a seat of the running round catches ``target``'s open window. Right
    (the obligation is unsatisfied): the target draws ``announce_penalty_cards`` and the window
    closes; wrong: the challenger draws ``false_challenge_penalty_cards``. Not a closing action
    (§3.8.3), never held by a grace (§3.8.6); once per seat and window."""
    seat = cmd.seat
    now = tx.at
    rule = m.rules.catch
    if not rule.by_catch:
        raise refuse(m, seat, now, KernelCode.INVALID_ACTION,
                     "challenge needs announce_penalty_requires_challenge (RULES §3.8.4)")
    rnd = m.rnd
    if rnd is None or rnd.phase not in TURN_PHASES:
        raise refuse(m, seat, now, KernelCode.WINDOW_CLOSED, "no announcement window is open")
    if m.seats[seat].state != "active":
        raise refuse(m, seat, now, KernelCode.WRONG_PHASE, f"seat {seat} is not playing this round")
    verdict = rule.judge((rnd.window,), seat, cmd.target)
    if not isinstance(verdict, Verdict):
        detail = {KernelCode.WINDOW_CLOSED: f"seat {cmd.target} has no open announcement window",
                  KernelCode.ALREADY_CHALLENGED: f"you have already challenged seat {cmd.target}'s window",
                  }.get(verdict, "a seat cannot challenge itself")
        raise refuse(m, seat, now, verdict, detail)
    tx.emit(CHALLENGE_MADE, seat, verdict.event_data())
    if verdict.cards > 0:
        draw_cards(tx, verdict.victim, verdict.cards, verdict.reason)


# action kind -> its handler; each handler takes its own command class (hence Any)
ACTIONS: dict[str, Callable[[Tx, Match, Any], None]] = {
    "play": do_play, "draw": do_draw, "pass": do_pass, "take_penalty": do_take_penalty, "accept_skip": do_accept_skip}
