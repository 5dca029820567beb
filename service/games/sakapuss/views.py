"""§2.4 Sakapuss projection: public view, a seat's own part, bot input, follow-ups (§7.1, §7.5)."""
from __future__ import annotations

import hmac
import math
from functools import lru_cache
from statistics import NormalDist
from typing import Any

from service.games.kernel.absence import autopiloted
from service.games.kernel.due import Kind, bot_key
from service.games.kernel.table_view import follow_ups, public_view_of, seat_row
from service.games.kernel.views import Due
from service.games.sakapuss.actions import legal_actions  # part of the views (__all__)
from service.games.sakapuss.commands import cat_id
from service.games.sakapuss.play import absent_missing, absent_pass_key, pass_key, race_key
from service.games.sakapuss.state import LIVE, PASSING, SLAP_RACE, SakapussMatch, complete, race_of, round_of


def _cards(hand: tuple[str, ...]) -> list[str]:
    return [cat_id(k) for k in hand]


def _seats(m: SakapussMatch) -> list[dict[str, Any]]:
    rnd = m.rnd
    hands = rnd.hands if rnd is not None and m.status == "running" and rnd.phase in LIVE else {}
    return [{**seat_row(s, len(hands.get(s.seat, ())), m.parasite_total(s.seat) if m.rnd is not None else s.total),
             "parasites": list(m.parasites.get(s.seat, ()))} for s in m.seats]


def _table(m: SakapussMatch) -> dict[str, Any] | None:
    rnd = m.rnd
    if rnd is None:
        return None
    race = None
    if rnd.phase == SLAP_RACE and rnd.race is not None:
        race = {"id": rnd.race.id, "slaps": list(rnd.race.slaps), "deadline": rnd.race.deadline,
                "discarded_step": rnd.race.discarded_step}
    live = rnd.phase in LIVE
    return {
        "kinds": list(m.kinds), "dealer": m.dealer,
        "direction": 1 if m.options["pass_direction"] == "left" else -1,
        "step": rnd.step if live else None, "resolved_steps": rnd.resolved,
        "step_deadline": rnd.step_deadline if rnd.phase == PASSING else None,
        "passed": sorted(rnd.passes) if rnd.phase == PASSING else [],
        "race": race, "races": rnd.races, "voided_races": rnd.voided,
        "parasites": {str(s): list(c) for s, c in m.parasites.items()},
        "parasite_totals": {str(s): m.parasite_total(s) for s in m.parasites},
        "chance_deck_count": len(m.chance_deck),
        "round_end": {"reason": rnd.end_reason, "winner": rnd.winner} if rnd.end_reason else None,
    }


def public_view(m: SakapussMatch, now: int, record: bool = False) -> dict[str, Any]:
    """API.md GET /v1/games/{id} for Sakapuss: what every viewer may see (§2.4). Sakapuss keeps no
    round record beyond the table (its steps, races and parasites): ``record`` is always null."""
    rnd = m.rnd
    running = m.status == "running"
    phase = rnd.phase if running and rnd is not None else None
    if phase == "deal":
        phase = PASSING
    turn = None
    if phase == PASSING:
        assert rnd is not None  # a phase is the round's
        turn = {"seat": None, "deadline": rnd.step_deadline, "step": rnd.step}
    elif phase == SLAP_RACE:
        assert rnd is not None
        race = race_of(rnd)
        turn = {"seat": None, "deadline": race.deadline, "race": race.id}
    return public_view_of(m, phase=phase, seats=_seats(m), table=_table, turn=turn)


def private_view(m: SakapussMatch, seat: int, now: int) -> dict[str, Any]:
    """The seat token's part (`you`): own cats, own sealed pass of the open step, own pass log of
    the round (what it passed and received at each resolved step, §7.5), legal actions."""
    rnd = m.rnd
    live = rnd if rnd is not None and m.status == "running" and rnd.phase in LIVE else None
    hand = live.hands.get(seat, ()) if live is not None else ()
    passed = live.passes.get(seat) if live is not None and live.phase == PASSING else None
    log = rnd.log.get(seat, ()) if rnd is not None else ()
    legal = legal_actions(m, seat, now)
    return {"seat": seat, "hand": _cards(hand), "passed_kind": passed,
            "pass_log": [{"step": i + 1, "passed": p, "received": r} for i, (p, r) in enumerate(log)],
            "slap_warning": _slap_warning(m, seat, legal), "legal_actions": legal}


def _slap_warning(m: SakapussMatch, seat: int, legal: list[dict[str, Any]]) -> str | None:
    """RULES §6.5: ``race`` while a slap race waits for this seat's slap; ``false_slap`` while passing
    when a first slap now would be judged false (§6.5.4: neither the hand now nor, within the grace,
    the hand after the step before is four of a kind); else None."""
    rnd = m.rnd
    if rnd is None or not any(a["type"] == "slap" for a in legal):
        return None
    if rnd.phase == SLAP_RACE:
        return "race"
    graced = (int(m.options["slap_grace_steps"]) >= 1 and rnd.prev_hands is not None
              and complete(rnd.prev_hands.get(seat)))
    return None if complete(rnd.hands.get(seat)) or graced else "false_slap"


# §7.5 reaction times per strength: (median s, clip lo, clip hi) to another seat's slap, and
# the uniform range (s) to notice its own set; passing uses the same range as noticing.
REACTION = {"easy": (1.6, 1.0, 3.0), "medium": (0.9, 0.6, 1.8), "hard": (0.55, 0.35, 1.0)}
NOTICE = {"easy": (1.0, 3.0), "medium": (0.5, 1.2), "hard": (0.35, 0.8)}
SIGMA = 0.35
_STANDARD = NormalDist()  # immutable: one for every call (pending_work asks per waiting bot)


def _unit(key: bytes, opened_seq: int, seat: int) -> float:
    """A deterministic u in (0, 1) from HMAC(key, opened_seq, seat)."""
    digest = hmac.digest(key, f"bot_reaction/{opened_seq}/{seat}".encode(), "sha256")  # = hmac.new(...).digest()
    return (int.from_bytes(digest[:8], "big") + 0.5) / 2.0 ** 64


def bot_delay_ms(m: SakapussMatch, seat: int, opened_seq: int, race: bool) -> int:
    """§7.5 bot reaction delay, never under ``bot_min_reaction_ms``."""
    # RULES §7.1(5): keyed by the secret match seed (revealed when the match ends), never by the
    # public game id, so a spectator cannot predict when a bot passes or slaps
    return _delay(m.match_seed, m.id, opened_seq, seat, m.seats[seat].strength or "easy", race,
                  int(m.options["bot_min_reaction_ms"]))


@lru_cache(maxsize=4096)
def _delay(seed: str, game_id: str, opened_seq: int, seat: int, strength: str, race: bool, floor: int) -> int:
    """``bot_delay_ms`` from what it depends on (all immutable): pending_work asks it again for
    every state of a step, so the same delays are computed once."""
    u = _unit(bytes.fromhex(seed) if seed else game_id.encode(), opened_seq, seat)
    if race:
        median, lo, hi = REACTION.get(strength, REACTION["easy"])
        secs = min(hi, max(lo, median * math.exp(SIGMA * _STANDARD.inv_cdf(u))))
    else:
        lo, hi = NOTICE.get(strength, NOTICE["easy"])
        secs = lo + (hi - lo) * u
    return max(floor, int(secs * 1000))


def pending_work(m: SakapussMatch | None) -> tuple[Due, ...]:
    """§2.6(4), §2.8, §7.1(3): scoring and the next deal (the kernel's), step/race timers and bot reactions."""
    return follow_ups(m, _live_work)


def _live_work(m: SakapussMatch) -> tuple[Due, ...]:
    rnd = round_of(m)
    out: list[Due] = []
    if rnd.phase == PASSING:
        # an open step has a deadline: the stale step that sets none ends the round in the same command
        assert rnd.step_deadline is not None
        out.append(Due(Kind.TIMER, pass_key(m), rnd.step_deadline, None, rnd.step_opened_seq))
        if any(s.absent for s in m.seats) and absent_missing(m):  # K-12: absent seats pass with no waiting
            out.append(Due(Kind.TIMER, absent_pass_key(m), rnd.step_opened_at, None, rnd.step_opened_seq))
        waiting = [s for s in rnd.seats if s not in rnd.passes]
        opened, at, race = rnd.step_opened_seq, rnd.step_opened_at, False
    elif rnd.phase == SLAP_RACE:
        open_race = race_of(rnd)
        out.append(Due(Kind.TIMER, race_key(m), open_race.deadline, None, open_race.opened_seq))
        waiting = [s for s in rnd.seats if s not in open_race.slaps]
        opened, at, race = open_race.opened_seq, open_race.opened_at, True
    else:
        return ()
    for s in waiting:
        if (m.seats[s].kind == "bot" and m.seats[s].state == "active") or autopiloted(m, s):
            out.append(Due(Kind.BOT, bot_key(s, opened), at + bot_delay_ms(m, s, opened, race), s, opened))
    return tuple(out)


__all__ = [
    "bot_delay_ms",
    "complete",
    "legal_actions",
    "pending_work",
    "private_view",
    "public_view",
]
