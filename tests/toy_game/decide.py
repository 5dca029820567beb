"""decide for high card: the table commands, the one seat action, the timers (the kernel's Rulebook routes)."""
from __future__ import annotations

from typing import Any

from service.games.kernel.absence import absent_seat, autopiloted, marks_absent, plays_at_once
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import (
    Autopilot,
    DealRound,
    FireTimer,
    JoinSeat,
    LeaveSeat,
    RuleViolation,
    ScoreRound,
    StartMatch,
)
from service.games.kernel.refusal import refuser
from service.games.kernel.table import Rulebook, admit, check_dealt_seat, end_match, leave_replaced_by_bot, round_jobs
from service.games.kernel.tx import Tx as KernelTx, shuffle

from .evolve import FOLD
from .options import BOT_STRENGTHS, DECK
from .rules import LayCard, default_action, legal_actions, my_turn, rank
from .state import PLAY, ToyMatch

refuse = refuser(legal_actions)


class Tx(KernelTx):
    __slots__ = ()
    HANDLERS = FOLD.handlers
    AUTO_MARKED = frozenset({"CardLaid"})


def join(tx: Tx, cmd: JoinSeat) -> None:
    m = tx.m
    closed = None if m.status == "open" else "the match has started"
    seat, strength, creator = admit(m, cmd, closed, len(m.active_seats()))
    if strength is not None and strength not in BOT_STRENGTHS:
        raise RuleViolation(KernelCode.INVALID_OPTION, f"no {strength} bot", reason="unknown_strength",
                            errors=[{"option": "strength", "detail": "unknown_strength"}])
    tx.emit("SeatJoined", seat, {"seat": seat, "name": cmd.name, "kind": cmd.kind, "strength": strength,
                                 "creator": creator})


def start(tx: Tx, cmd: StartMatch) -> None:
    m = tx.m
    if m.status != "open":
        raise RuleViolation(KernelCode.ALREADY_STARTED, "the match has already started")
    if len(m.active_seats()) < int(m.options["min_players"]):
        raise RuleViolation(KernelCode.NOT_ENOUGH_PLAYERS, "not enough seats are taken")
    deal_round(tx, 1)


def deal_round(tx: Tx, round_no: int) -> None:
    """The dealer moves round the table; every seat gets hand_size cards; the seat after the dealer leads."""
    active = tx.m.active_seats()
    dealer = active[(round_no - 1) % len(active)]
    tx.emit("RoundStarted", None, {"round": round_no, "dealer": dealer, "active_seats": list(active)}, round_=round_no)
    order = shuffle(tx, "deck", DECK)
    k = int(tx.m.options["hand_size"])
    hands = {s: order[i * k:(i + 1) * k] for i, s in enumerate(active)}
    tx.emit("CardsDealt", None, {"hand_sizes": {str(s): k for s in active}},
            to_seat={s: {"cards": list(h)} for s, h in hands.items()})
    start_turn(tx, active[(active.index(dealer) + 1) % len(active)])


def start_turn(tx: Tx, seat: int) -> None:
    m = tx.m
    timeout = m.options.get("turn_timeout_s")
    tx.emit("TurnStarted", None, {"seat": seat, "turn_id": m.rnd.turn_id + 1,
                                  "deadline": None if timeout is None else tx.at + int(timeout) * 1000})


def lay(tx: Tx, cmd: LayCard) -> None:
    """Lay a card of the hand on one's turn; a full trick goes to its highest card, which leads next."""
    m = tx.m
    if not my_turn(m, cmd.seat):
        raise refuse(m, cmd.seat, tx.at, KernelCode.NOT_YOUR_TURN, "it is not your turn")
    rnd = m.rnd
    if cmd.card not in rnd.hands[cmd.seat]:
        raise refuse(m, cmd.seat, tx.at, KernelCode.CARD_NOT_IN_HAND, f"{cmd.card!r} is not in your hand")
    tx.emit("CardLaid", cmd.seat, {"seat": cmd.seat, "card": cmd.card})
    rnd = tx.m.rnd
    if len(rnd.trick) < len(rnd.seats):
        start_turn(tx, rnd.seats[(rnd.seats.index(cmd.seat) + 1) % len(rnd.seats)])
        return
    winner = max(rnd.trick, key=lambda sc: rank(sc[1]))[0]
    tx.emit("TrickWon", None, {"seat": winner, "cards": [c for _, c in rnd.trick]})
    if any(tx.m.rnd.hands.values()):
        start_turn(tx, winner)
    else:
        tx.emit("RoundEnded", None, {"reason": "hands_empty"})


def score_round(tx: Tx) -> None:
    """A trick won is a point; after the last round the match ends."""
    m = tx.m
    points = {s: len(m.rnd.won[s]) // len(m.rnd.seats) for s in m.rnd.seats}
    totals = {s.seat: s.total + points.get(s.seat, 0) for s in m.seats if s.state != "left"}
    last = m.round_no >= int(m.options["rounds"])
    tx.emit("RoundScored", None, {
        "round": m.round_no, "points": {str(s): p for s, p in points.items()},
        "totals": {str(s): t for s, t in totals.items()},
        "intermission_deadline": None if last else tx.at + int(m.options["round_intermission_s"]) * 1000})
    if last:
        end_match(tx, "rounds_played", standings(tx.m))


def standings(m: ToyMatch) -> list[dict[str, Any]]:
    ordered = sorted((s for s in m.seats if s.state != "left"), key=lambda s: (-s.total, s.seat))
    out: list[dict[str, Any]] = []
    rank_, prev = 0, None
    for i, s in enumerate(ordered):
        if s.total != prev:
            rank_, prev = i + 1, s.total
        out.append({"seat": s.seat, "name": s.name, "kind": s.kind, "rank": rank_, "total": s.total,
                    "replaced": s.seat in m.replaced})
    return out


def turn_key(m: ToyMatch) -> str:
    assert m.rnd is not None
    return f"turn-{m.round_no}-{m.rnd.turn_id}"


def turn_due(m: ToyMatch) -> int | None:
    assert m.rnd is not None
    return m.rnd.turn_at if plays_at_once(m, m.rnd.current) else m.rnd.deadline


def fire(tx: Tx, cmd: FireTimer) -> None:
    """A turn timer lays the default card (§2.7); an absence timer removes the seat (§3.10)."""
    m, key = tx.m, cmd.key
    if m.status == "running" and m.rnd is not None and isinstance(key, str):
        if m.rnd.phase == PLAY and key == turn_key(m):
            due = turn_due(m)
            if due is None or tx.at < due:
                raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
            seat = m.rnd.current
            action = default_action(m, seat)
            assert action is not None
            tx.emit("TimedOut", seat, {"seat": seat, "turn_id": m.rnd.turn_id, "guarded": key,
                                       "default_action": action, "chain": [action], **marks_absent(m, seat, tx.at)})
            tx.auto = seat
            lay(tx, LayCard(seat, action["card"]))
            tx.auto = None
            return
        seat = absent_seat(m, key) if key.startswith("absent-") else None
        if seat is not None:
            if tx.at < (m.seats[seat].removal_deadline or 0):
                raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
            leave_replaced_by_bot(tx, LeaveSeat(seat, "absent_removed"))
            return
    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} has already closed")


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    if not autopiloted(tx.m, cmd.seat):
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"seat {cmd.seat} is not on autopilot")
    tx.auto = cmd.seat
    lay(tx, LayCard(cmd.seat, cmd.action["card"]))
    tx.auto = None


def _unknown(m: ToyMatch, cmd: Any, now: int) -> RuleViolation:
    return refuse(m, getattr(cmd, "seat", None), now, KernelCode.INVALID_ACTION, f"{type(cmd).__name__} is not an action here")


score, deal = round_jobs(score_round, deal_round)
RULEBOOK = Rulebook(
    tx=Tx, seat={LayCard: lay},
    table={JoinSeat: join, StartMatch: start, LeaveSeat: leave_replaced_by_bot, ScoreRound: score, DealRound: deal,
           FireTimer: fire},
    check_seat=check_dealt_seat, autopilot=autopilot, unknown=_unknown)
decide = RULEBOOK.decide
