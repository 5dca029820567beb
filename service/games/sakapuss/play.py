"""§6.4-§6.7: sealed pass steps, slaps and races, chance cards, timers, stalemate guard."""
from __future__ import annotations

from service.games.kernel.absence import fire_absence, marks_absent
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import FireTimer, RuleViolation
from service.games.kernel.refusal import refuser
from service.games.sakapuss.actions import legal_actions
from service.games.sakapuss.codes import SakapussCode
from service.games.sakapuss.commands import PassCard, Slap
from service.games.sakapuss.state import PASSING, SLAP_RACE, SakapussMatch, complete, race_of, round_of
from service.games.sakapuss.table import leave
from service.games.sakapuss.tx import Tx, choice

refuse = refuser(legal_actions)  # §2.6(2): refuse(m, seat, now, code, detail), the caller's legal actions attached


def neighbour(seats: tuple[int, ...], seat: int, direction: int) -> int:
    """§2.1: the next seat dealt in, to the left (+1) or to the right (-1)."""
    return seats[(seats.index(seat) + direction) % len(seats)]


def direction(m: SakapussMatch) -> int:
    return 1 if m.options["pass_direction"] == "left" else -1


def pass_key(m: SakapussMatch) -> str:
    """The timer key of the open step; a step reopened after a voided race gets a suffix."""
    rnd = round_of(m)
    base = f"pass-{m.round_no}-{rnd.step}"
    return base if rnd.step_openings == 0 else f"{base}-{rnd.step_openings}"


def race_key(m: SakapussMatch) -> str:
    return f"race-{m.round_no}-{race_of(round_of(m)).id}"


def pass_card(tx: Tx, cmd: PassCard) -> None:
    """§6.4(1): one sealed, final submission per seat and step; the last one resolves the step."""
    m = tx.m
    rnd = m.rnd
    seat = cmd.seat
    if rnd.phase != PASSING:
        raise refuse(m, seat, tx.at, KernelCode.WRONG_PHASE, "no pass step is open")
    if type(cmd.step) is not int or cmd.step != rnd.step:
        raise refuse(m, seat, tx.at, SakapussCode.WRONG_STEP, f"the open step is {rnd.step}")
    prior = rnd.passes.get(seat)
    if prior is not None:
        if prior == cmd.kind:
            return  # resending the same kind is idempotent
        raise refuse(m, seat, tx.at, SakapussCode.ALREADY_PASSED, "this seat has already passed in this step")
    if not isinstance(cmd.kind, str) or cmd.kind not in rnd.hands[seat]:
        raise refuse(m, seat, tx.at, SakapussCode.KIND_NOT_IN_HAND, f"no cat of kind {cmd.kind!r} in hand")
    _submit(tx, seat, cmd.kind, auto=False)
    if len(tx.m.rnd.passes) == len(rnd.seats):
        resolve_step(tx)


def _submit(tx: Tx, seat: int, kind: str, auto: bool) -> None:
    m = tx.m
    tx.emit("PassSubmitted", seat, {"seat": seat, "step": m.rnd.step, "auto": auto},
            to_seat={seat: {"kind": kind}})


def resolve_step(tx: Tx) -> None:
    """§6.4(2): every submitted card moves to the neighbour at once; the next step opens."""
    m = tx.m
    rnd = m.rnd
    d = direction(m)
    targets = {g: neighbour(rnd.seats, g, d) for g in rnd.seats}
    stale = rnd.resolved + 1 + rnd.voided >= int(m.options["max_pass_steps_per_round"])
    deadline = None if stale else tx.at + int(m.options["pass_timeout_s"]) * 1000
    tx.emit("PassesResolved", None, {
        "step": rnd.step, "next_step": None if stale else rnd.step + 1, "deadline": deadline,
        "targets": {str(g): t for g, t in targets.items()}},
        to_seat={t: {"received": rnd.passes[g], "from": g} for g, t in targets.items()})
    if stale:
        _stalemate(tx)


def _stalemate(tx: Tx) -> None:
    """§6.7 stalemate guard: the round ends with no chance-card draw."""
    rnd = tx.m.rnd
    tx.emit("RoundEnded", None, {"reason": "stalemate", "winner": None, "resolved_steps": rnd.resolved,
                                 "voided_races": rnd.voided})


def slap(tx: Tx, cmd: Slap) -> None:
    """§6.4(3)-(4): slaps in arrival order; the first freezes the round and opens a race."""
    m = tx.m
    rnd = m.rnd
    seat = cmd.seat
    if rnd.phase not in (PASSING, SLAP_RACE):  # K-6 (a closed window that waits for its timer: race_closed below)
        raise refuse(m, seat, tx.at, SakapussCode.NOT_PASSING, "no round is passing: nobody can slap now")
    race = rnd.race if rnd.phase == SLAP_RACE else None
    if race is not None and seat in race.slaps:
        return  # K-5: idempotent, the first arrival counts
    if race is not None and tx.at > race.deadline:
        raise refuse(m, seat, tx.at, SakapussCode.RACE_CLOSED, "the slap window has closed")
    r = rnd.resolved
    seen = cmd.seen_step
    if type(seen) is not int or seen < 0 or seen not in (r - 1, r):
        raise refuse(m, seat, tx.at, SakapussCode.INVALID_SEEN_STEP,
                     f"seen_step must be {r - 1} or {r}" if r else "seen_step must be 0")
    if race is None:
        if r == 0 and not m.options["allow_slap_before_first_pass"]:
            raise refuse(m, seat, tx.at, KernelCode.WRONG_PHASE, "no slap before the first pass")
        tx.emit("SlapMade", seat, {
            "seat": seat, "seen_step": seen, "position": 1, "race_id": rnd.races + 1,
            "window_deadline": tx.at + int(m.options["slap_window_ms"]),
            "discarded_step": rnd.step})
    else:
        tx.emit("SlapMade", seat, {"seat": seat, "seen_step": seen, "position": len(race.slaps) + 1,
                                   "race_id": race.id})
    if len(tx.m.rnd.race.slaps) == len(rnd.seats):
        resolve_race(tx)


def first_slap_valid(m: SakapussMatch) -> tuple[bool, bool]:
    """§6.5.4: (valid, by grace) for the first slap of the open race."""
    rnd = round_of(m)
    race = race_of(rnd)
    f = race.slaps[0]
    if complete(rnd.hands.get(f)):
        return True, False
    grace = (int(m.options["slap_grace_steps"]) >= 1 and race.first_seen_step == rnd.resolved - 1
             and rnd.prev_hands is not None and complete(rnd.prev_hands.get(f)))
    return grace, grace


def _race_draws(m: SakapussMatch) -> list[tuple[int, int, str]]:
    """§6.5.5: the last slapper draws, or every non-slapper (or one at random), from F's left."""
    rnd = round_of(m)
    race = race_of(rnd)
    k = int(m.options["last_slapper_draws"])
    seats = rnd.seats
    i = seats.index(race.slaps[0])
    ordered = [seats[(i + j) % len(seats)] for j in range(1, len(seats))]
    non = [s for s in ordered if s not in race.slaps]
    if not non:
        return [(race.slaps[-1], k, "last_slapper")]
    if m.options["non_slappers_policy"] == "one_random":
        non = [non[choice(m, f"one_random/{m.round_no}/{race.id}", len(non))]]
    return [(s, k, "non_slapper") for s in non]


def resolve_race(tx: Tx) -> None:
    """§6.5.5: judge the first slap, draw chance cards, end the round or reopen the step."""
    m = tx.m
    rnd = m.rnd
    race = rnd.race
    o = m.options
    first = race.slaps[0]
    valid, graced = first_slap_valid(m)
    both = o["false_slap_mode"] == "both_penalties_end_round"
    draws = _race_draws(m) if valid or both else []
    if not valid:
        draws.append((first, int(o["false_slap_draws"]), "false_slap"))
    ends = valid or both
    reopen = not ends and rnd.resolved + rnd.voided + 1 < int(o["max_pass_steps_per_round"])
    tx.emit("RaceResolved", None, {
        "race_id": race.id, "first_slapper": first, "valid": valid, "grace": graced,
        "order": list(race.slaps), "draws": [{"seat": s, "count": c, "reason": why} for s, c, why in draws],
        "reopened_step": rnd.step if reopen else None,
        "deadline": tx.at + int(o["pass_timeout_s"]) * 1000 if reopen else None})
    for s, count, why in draws:
        for _ in range(count):
            draw_chance(tx, s, why)
    if ends:
        tx.emit("RoundEnded", None, {"reason": "race", "winner": first if valid else None,
                                     "first_slapper": first, "valid": valid})
    elif not reopen:
        _stalemate(tx)


def draw_chance(tx: Tx, seat: int, reason: str) -> None:
    """§6.6 resolve(card, seat): parasites stay; insecticide/shower send cards to the bottom."""
    m = tx.m
    if not m.chance_deck:
        tx.emit("ChanceDeckEmpty", seat, {"seat": seat, "reason": reason})
        return
    card = m.chance_deck[0]
    mine = m.parasites.get(seat, ())
    if card.startswith("par:"):
        effect, removed = "parasite", []
    elif card.startswith("ins:"):
        kind = card.split(":")[1]
        effect, removed = "insecticide", [c for c in mine if c.split(":")[1] == kind]
    else:
        effect, removed = "shower", list(mine)
    returned = [] if effect == "parasite" else removed + [card]
    tx.emit("ChanceCardDrawn", seat, {
        "seat": seat, "card": card, "reason": reason, "effect": effect, "removed": removed,
        "returned": returned, "deck_count": len(m.chance_deck) - 1 + len(returned)})


def fire(tx: Tx, cmd: FireTimer) -> None:
    """§2.6(4): a pass-step or slap-race timer; a no-op (nothing_to_do) once it has closed."""
    m = tx.m
    rnd = m.rnd
    live = m.status == "running" and rnd is not None
    if live and rnd.phase == PASSING and cmd.key == pass_key(m):
        if tx.at < rnd.step_deadline:
            raise RuleViolation(KernelCode.NOTHING_TO_DO, "the pass step is still within its deadline")
        _auto_pass(tx, cmd.key)
        return
    if live and rnd.phase == SLAP_RACE and cmd.key == race_key(m):
        if tx.at < rnd.race.deadline:
            raise RuleViolation(KernelCode.NOTHING_TO_DO, "the slap window is still open")
        resolve_race(tx)
        return
    if live and rnd.phase == PASSING and cmd.key == absent_pass_key(m) and absent_missing(m):
        _auto_pass(tx, pass_key(m), absent_missing(m))  # K-12: absent seats pass with no waiting
        return
    if live and fire_absence(tx, cmd.key, leave):  # K-15: a bot takes the removed seat over
        return
    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{cmd.key} has already closed")


def absent_pass_key(m: SakapussMatch) -> str:
    """The timer that auto-passes the absent seats of the open step at once (K-12, §2.7)."""
    return f"{pass_key(m)}-absent"


def absent_missing(m: SakapussMatch) -> list[int]:
    """Absent seats under default_actions that have not passed in the open step."""
    rnd = round_of(m)
    policy = m.options.get("absent_policy", "default_actions")
    return [s for s in rnd.seats if s not in rnd.passes and m.seats[s].absent
            and m.seats[s].state == "active" and policy == "default_actions"]


def _auto_pass(tx: Tx, key: str, only: list[int] | None = None) -> None:
    """§6.4(2), K-12: each missing seat (or only the absent ones) passes a uniformly random card
    of its hand; §2.7: the timeout that reaches max_consecutive_timeouts marks the seat absent."""
    m = tx.m
    rnd = m.rnd
    for seat in rnd.seats:
        if seat in rnd.passes or (only is not None and seat not in only):
            continue
        hand = tx.m.rnd.hands[seat]
        kind = hand[choice(m, f"auto_pass/{m.round_no}/{rnd.step}/{seat}", len(hand))]
        tx.emit("TimedOut", seat, {"seat": seat, "step": rnd.step, "guarded": key,
                                   "default_action": "pass_card", **marks_absent(tx.m, seat, tx.at)})
        _submit(tx, seat, kind, auto=True)
    if len(tx.m.rnd.passes) == len(rnd.seats):
        resolve_step(tx)

