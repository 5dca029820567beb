"""decide for Sakapuss: table commands (create, join, start, leave, score, deal) and seat actions."""
from __future__ import annotations

from typing import Any, Callable

from service.games.kernel.model import (Autopilot, CreateMatch, Context, DealRound, Event, FireTimer, JoinSeat, LeaveSeat,
                     PassCard, RuleViolation, ScoreRound, Slap, StartMatch)
from service.games.shedding.options import BOT_STRENGTHS
from service.games.sakapuss.flow import deal_round, score_round
from service.games.sakapuss.play import fire, pass_card, slap
from service.games.sakapuss.state import SakapussMatch
from service.games.kernel.common import create, require_intermission, require_scoring
from service.games.sakapuss.tx import Tx


def join(tx: Tx, cmd: JoinSeat) -> None:
    """K-16: seats are taken only before the start; at most max_players."""
    m = tx.m
    if cmd.creator and any(s.creator and s.state != "left" for s in m.seats):
        raise RuleViolation("already_seated", "the owner already has a seat")
    if m.status != "open":
        raise RuleViolation("joining_closed", "Sakapuss takes no seats once the match has started")
    if len(m.active_seats()) >= m.max_players:
        raise RuleViolation("game_full", "the table is full")
    if cmd.kind not in ("human", "bot"):
        raise RuleViolation("invalid_request", "kind must be human or bot")
    strength = None
    if cmd.kind == "bot":
        strength = cmd.strength or m.options["bot_strength"]
        if strength not in BOT_STRENGTHS:
            raise RuleViolation("invalid_option", f"unknown bot strength {strength!r}",
                                reason="unknown_strength",
                                errors=[{"option": "strength", "detail": "unknown_strength"}])
    creator = bool(cmd.creator) and cmd.kind == "human" and not any(s.creator for s in m.seats)
    seat = len(m.seats)
    tx.emit("SeatJoined", seat, {"seat": seat, "name": cmd.name, "kind": cmd.kind,
                                 "strength": strength, "creator": creator})


def start(tx: Tx, cmd: StartMatch) -> None:
    """§6.5.1: LOBBY with 3-5 seats -> round 1 (one cat kind per player)."""
    m = tx.m
    if m.status != "open":
        raise RuleViolation("already_started", "the match has already started")
    n = len(m.active_seats())
    if n < int(m.options["min_players"]):
        raise RuleViolation("not_enough_players", "not enough seats are taken")
    deal_round(tx, 1)


def leave(tx: Tx, cmd: LeaveSeat) -> None:
    """K-15: before the start the seat is freed; afterwards a bot of bot_strength takes it over."""
    m = tx.m
    seat = cmd.seat
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation("not_found", f"no seat {seat}")
    if m.seats[seat].state == "left":
        raise RuleViolation("seat_left", f"seat {seat} has left")
    if m.status == "finished":
        raise RuleViolation("match_over", "the match is over")
    data: dict[str, Any] = {"seat": seat, "reason": cmd.reason}
    if m.status == "running":
        data["replaced_by"] = {"kind": "bot", "strength": m.options["bot_strength"], "name": "bot"}
    tx.emit("SeatLeft", seat, data)


def score(tx: Tx, cmd: ScoreRound) -> None:
    """§2.8 step 2: the scoring job, only while the round waits in ROUND_OVER."""
    require_scoring(tx.state, cmd.round)
    score_round(tx)


def deal(tx: Tx, cmd: DealRound) -> None:
    """§2.8 step 5: the deal job, only from INTERMISSION into the next round."""
    require_intermission(tx.state, cmd.round)
    deal_round(tx, cmd.round)


TABLE: dict[type, Callable[[Tx, Any], None]] = {
    JoinSeat: join, StartMatch: start, LeaveSeat: leave, ScoreRound: score, DealRound: deal,
    FireTimer: fire,
}
SEAT: dict[type, Callable[[Tx, Any], None]] = {PassCard: pass_card, Slap: slap}


def decide(state: SakapussMatch | None, command: Any, ctx: Context) -> tuple[Event, ...]:
    """Validate a command against a Sakapuss state and return the events it causes."""
    tx = Tx(state, ctx)
    if isinstance(command, CreateMatch):
        create(tx, command)
        return tuple(tx.events)
    if state is None:
        raise RuleViolation("not_found", "no such match")
    fn = SEAT.get(type(command))
    if fn is not None:
        _check_seat(state, command.seat)
        fn(tx, command)
        return tuple(tx.events)
    if isinstance(command, Autopilot):
        _check_seat(state, command.seat)
        autopilot(tx, command)
        return tuple(tx.events)
    fn = TABLE.get(type(command))
    if fn is None:
        raise RuleViolation("invalid_action", f"{type(command).__name__} is not a Sakapuss action",
                            legal_actions=_legal(state, getattr(command, "seat", None), ctx.now))
    if isinstance(command, FireTimer) and state.status != "running":
        raise RuleViolation("nothing_to_do", "the match is not running")
    fn(tx, command)
    return tuple(tx.events)


def autopilot(tx: Tx, cmd: Autopilot) -> None:
    """§2.7 bot_autopilot: the easy bot's pass or slap for an absent seat, marked ``auto``."""
    from service.games.kernel.model import SEAT_ACTIONS
    from service.games.shedding.timeouts import autopiloted
    seat = cmd.seat
    if not autopiloted(tx.m, seat):
        raise RuleViolation("nothing_to_do", f"seat {seat} is not on autopilot")
    a = dict(cmd.action)
    cls = SEAT_ACTIONS.get(a.pop("type", None))
    fn = SEAT.get(cls)  # type: ignore[arg-type]
    if fn is None:
        raise RuleViolation("invalid_action", "unknown autopilot action")
    tx.auto = seat
    fn(tx, cls(seat=seat, **a))
    tx.auto = None


def _legal(m: SakapussMatch, seat: Any, now: int) -> list[dict[str, Any]]:
    from service.games.sakapuss.views import legal_actions
    return legal_actions(m, seat, now) if isinstance(seat, int) else []


def _check_seat(m: SakapussMatch, seat: Any) -> None:
    """Seat actions need a seat dealt into the running round (K-7: others get not_a_player)."""
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation("not_found", f"no seat {seat}")
    if m.status == "open":
        raise RuleViolation("not_started", "the match has not started")
    if m.status == "finished":
        raise RuleViolation("wrong_phase", "the match is over", legal_actions=[])
    if m.seats[seat].state == "left" or m.rnd is None or seat not in m.rnd.seats:
        raise RuleViolation("not_a_player", f"seat {seat} does not play in this round",
                            legal_actions=[])
