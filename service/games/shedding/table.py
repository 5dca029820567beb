"""decide for table-level commands: create, join (§3.10), start, leave (§3.10), score, deal."""
from __future__ import annotations

from service.games.kernel.codes import KernelCode
from service.games.kernel.lobby import start_when_seated
from service.games.kernel.model import JoinSeat, LeaveSeat, RuleViolation
from service.games.kernel.table import admit, round_jobs
from service.games.shedding.core import next_active
from service.games.shedding.flow import deal_round, end_match, score_round
from service.games.shedding.state import PLAY, TURN_PHASES
from service.games.shedding.tx import Tx, shuffle, start_turn


def join(tx: Tx, cmd: JoinSeat) -> None:
    """§3.10 joining: active before the start, waiting while running; game_full, joining_closed."""
    m = tx.state
    closed = m.status == "finished" or (m.status == "running" and not m.options["allow_join_between_rounds"])
    seated = sum(1 for s in m.seats if s.state in ("active", "waiting"))
    seat, strength, creator = admit(m, cmd, "this match takes no new seats" if closed else None, seated)
    data = {"seat": seat, "name": cmd.name, "kind": cmd.kind, "strength": strength}
    if m.status == "open":
        tx.emit("SeatJoined", seat, {**data, "creator": creator})
    else:
        tx.emit("SeatWaiting", seat, data)


start = start_when_seated(deal_round)  # §5.9: the creator starts with at least min_players seats


def leave(tx: Tx, cmd: LeaveSeat) -> None:
    """§3.10 leaving: struck; mid-round hand under the stock; pending penalty cancelled."""
    m = tx.state
    seat = cmd.seat
    if not 0 <= seat < len(m.seats):
        raise RuleViolation(KernelCode.NOT_FOUND, f"no seat {seat}")
    st = m.seats[seat].state
    if st == "left":
        raise RuleViolation(KernelCode.SEAT_LEFT, f"seat {seat} has left")
    if m.status == "finished":
        raise RuleViolation(KernelCode.MATCH_OVER, "the match is over")
    data = {"seat": seat, "reason": cmd.reason}
    if m.status == "open" or st != "active":
        tx.emit("SeatLeft", seat, data)
        return
    if m.options["leaver_policy"] == "replace_with_bot":
        bot = {"kind": "bot", "strength": m.options["bot_strength"], "name": "bot"}
        tx.emit("SeatLeft", seat, {**data, "replaced_by": bot})
        return
    rnd = m.rnd
    mid = rnd is not None and rnd.phase in TURN_PHASES
    hand = rnd.hands[seat] if mid and seat < len(rnd.hands) else ()
    tx.emit("SeatLeft", seat, data, secret={"hand": list(hand)})
    if hand:
        shuffle(tx, "leaver_hand", hand, seat=seat)
    _after_leave(tx, seat, mid)


def _after_leave(tx: Tx, seat: int, mid: bool) -> None:
    """§3.10 steps 3 and 5: a new turn if the leaver was current; abandon below 2 seats."""
    m = tx.state
    active = m.active_seats()
    if len(active) < 2:
        if mid:
            tx.emit("RoundEnded", None, {"reason": "abandoned", "cause": None,
                                         "winner": active[0] if active else None})
        end_match(tx, "walkover" if active else "abandoned")
        return
    if mid and m.rnd.current == seat:
        if m.rnd.turn_id >= m.rules.max_turns:  # §3.7 step 1: the leaver's turn was the last one
            tx.emit("RoundEnded", None, {"reason": "blocked", "cause": "turn_limit", "winner": None})
            return
        start_turn(tx, next_active(m, seat, m.rnd.direction), PLAY)


score, deal = round_jobs(score_round, deal_round)
