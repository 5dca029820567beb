"""Follow-up work (bot turns, round scoring, the next deal, timers) as deterministic due jobs.

The one owner of the job ids and payloads: their kinds and lanes are the kernel's names
(service/games/kernel/due.py)."""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

from service.eventstore.contract import FollowUp
from service.games import engine, registry
from service.games.kernel.due import Due, Kind, Lane, bot_key
from service.games.kernel.state import TableState
from service.games.kernel.table import REMOTE

BOTS_ONLY = "bots_only"
"""A payload's mark of a bot's turn at a table where no human sits that answers at once (no search,
no remote call): the dispatcher runs it in its own process, off RQ (issue 39)."""
BOT_MOVE = "botmove"
"""The first part of the job id of a searching bot's answer (its payload's kind is ``bot``)."""


def job_id(game_id: str, due: Due) -> str:
    """Deterministic ids: bot-<game>-<seat>-<version that opened the turn>, score-, deal-, timer-."""
    if due.kind == Kind.BOT:
        return f"{Kind.BOT}-{game_id}-{due.seat}-{due.opened_seq}"
    return f"{due.kind}-{game_id}-{due.key}"


def match_key(state: TableState) -> bytes:
    """The secret match seed (revealed when the match ends), keying everything a bot draws."""
    return bytes.fromhex(state.match_seed) if getattr(state, "match_seed", "") else state.id.encode()


def bot_delay_ms(state: TableState, game_id: str, seat: int, version: int) -> int:
    """A delay drawn from bot_delay_ms[strength], seeded by (match, version, seat) (RULES §7.1)."""
    strength = next((s.strength for s in state.seats if s.seat == seat), None) or "easy"
    lo, hi = state.options.get("bot_delay_ms", {}).get(strength, [0, 0])
    if hi <= lo:
        return int(lo)
    digest = hmac.new(match_key(state), f"bot_delay/{version}/{seat}".encode(), hashlib.sha256).digest()
    return int(lo) + int.from_bytes(digest[:8], "big") % (int(hi) - int(lo) + 1)


def search_budget_ms(state: TableState, seat: int, max_budget_ms: int) -> int:
    """The time a bot in ``seat`` searches before it answers: a searching strength's (its game
    says which) ``hard_bot_budget_ms`` under the operator's cap; 0 for the bots that answer at once."""
    found = next((s for s in state.seats if s.seat == seat), None)
    budget = state.options.get("hard_bot_budget_ms")
    if (found is None or found.strength not in registry.of(state).searching or budget is None
            or getattr(found, "absent", False)):
        return 0
    return max(1, min(int(budget), max_budget_ms))


def remote_seat(state: TableState, seat: int) -> bool:
    """A registered remote bot plays ``seat`` (its strength is the kernel's ``REMOTE``)."""
    found = next((s for s in state.seats if s.seat == seat), None)
    return found is not None and found.kind == "bot" and found.strength == REMOTE


def bots_only(state: TableState) -> bool:
    """Every seat still at the table is a bot: no human sits there, playing, waiting or eliminated
    and watching (a human who left is gone)."""
    seated = [s for s in state.seats if s.state != "left"]
    return bool(seated) and all(s.kind == "bot" for s in seated)


def is_arena(state: TableState) -> bool:
    """The seam left for arenas. An arena's tables never reach the due set: their job serves their
    follow-ups itself, on the game's own clock and with no pace floor (service/app/arena_play.py),
    and names the table's arena store-side (``meta:arena``). No state carries ``arena``, so this
    stays false for every table the follow-up path sees."""
    return bool(getattr(state, "arena", False))


def pace_ms(state: TableState, floor_ms: int) -> int:
    """The least delay of a bot's answer (MEOW_BOTS_ONLY_MIN_DELAY_MS): a bots-only table that is
    not an arena keeps a minimum pace, so tables nobody watches cannot flood the workers."""
    return floor_ms if floor_ms > 0 and bots_only(state) and not is_arena(state) else 0


def to_followup(game_id: str, state: TableState, due: Due, max_budget_ms: int = 3000, floor_ms: int = 0) -> FollowUp:
    """A bot answers at max(its drawn delay, the pace floor, its search budget) after its turn
    opened (RULES §7.1(4): thinking counts toward the delay). A searching bot is due when its
    search must start and runs on the search lane; its payload says how long it may search
    (``budget_ms``) and when to answer (``answer_at``)."""
    payload: dict[str, Any] = {"kind": due.kind, "game": game_id, "key": due.key}
    at = due.due_at
    if due.kind == Kind.BOT:
        assert due.seat is not None  # a bot's turn is a seat's
        payload.update(seat=due.seat, opened_seq=due.opened_seq)
        delay = max(bot_delay_ms(state, game_id, due.seat, due.opened_seq), pace_ms(state, floor_ms))
        budget = search_budget_ms(state, due.seat, max_budget_ms)
        if remote_seat(state, due.seat):  # a remote bot's call waits on its server: never on the fast lane
            payload.update(lane=Lane.REMOTE)
        if budget:
            payload.update(lane=Lane.SEARCH, answer_at=at + max(delay, budget), budget_ms=budget)
            at += max(delay, budget) - budget
        else:
            at += delay
            if bots_only(state) and not is_arena(state) and not remote_seat(state, due.seat):
                payload.update({BOTS_ONLY: True})  # the dispatcher may run it itself, off RQ (workers/dispatcher.py)
    return FollowUp(job_id(game_id, due), at, payload)


def new_followups(game_id: str, before: TableState | None, after: TableState, max_budget_ms: int = 3000,
                  floor_ms: int = 0) -> list[FollowUp]:
    """The follow-ups ``after`` calls for that ``before`` did not already call for."""
    known: set[str] = set()
    if before is not None:
        known = {job_id(game_id, d) for d in engine.pending_work(before)}
    return [
        to_followup(game_id, after, d, max_budget_ms, floor_ms)
        for d in engine.pending_work(after)
        if job_id(game_id, d) not in known
    ]


def closed_followups(game_id: str, before: TableState | None, after: TableState) -> list[str]:
    """The due job ids ``before`` called for that ``after`` closed: the timers whose turn, step or
    absence ended (each under its deterministic id and the id it has once re-armed: ``rearmed_timer``)
    and a started table's expiry. The append that closes them takes them out of the due set (issue 39)."""
    if before is None:
        return []
    still = {d.key for d in engine.pending_work(after) if d.kind == Kind.TIMER}
    out: list[str] = [expiry(game_id, 0).job_id] if before.status == "open" and after.status != "open" else []
    for d in engine.pending_work(before):
        if d.kind == Kind.TIMER and d.key not in still:
            out += [job_id(game_id, d), rearmed_timer(game_id, d).job_id]
    return out


def bot_move(game_id: str, seat: int, opened_seq: int, answer_at: int, action: dict[str, Any],
             version: int) -> FollowUp:
    """A searching bot's answer, written at ``answer_at`` on the fast lane (its search is done, its
    worker free): the action it chose against ``version``. A store-side payload, never shown."""
    return FollowUp(f"{BOT_MOVE}-{game_id}-{seat}-{opened_seq}", answer_at,
                    {"kind": Kind.BOT, "game": game_id, "key": bot_key(seat, opened_seq), "seat": seat,
                     "opened_seq": opened_seq, "answer_at": answer_at, "chosen": action, "chosen_at": version})


def expiry(game_id: str, due_at: int) -> FollowUp:
    """A never-started table's end (``open_game_ttl_s`` after its creation)."""
    return FollowUp(f"{Kind.EXPIRE}-{game_id}", due_at, {"kind": Kind.EXPIRE, "game": game_id, "key": "open"})


def compaction(game_id: str, due_at: int) -> FollowUp:
    """A finished game's compaction (service/app/compaction.py), due ``compact_after_s`` after its end."""
    return FollowUp(f"{Kind.COMPACT}-{game_id}", due_at, {"kind": Kind.COMPACT, "game": game_id, "key": "final"})


def deferred_bot(game_id: str, seat: int, opened_seq: int, now: int, due_at: int) -> FollowUp:
    """A bot's move come back to at ``due_at`` (another seat's grace held it back at ``now``)."""
    return FollowUp(f"{Kind.BOT}-{game_id}-{seat}-{opened_seq}-g{now}", due_at,
                    {"kind": Kind.BOT, "game": game_id, "seat": seat, "opened_seq": opened_seq,
                     "key": bot_key(seat, opened_seq)})


def rearmed_timer(game_id: str, due: Due) -> FollowUp:
    """A timer that fired before its due time, scheduled again for it (RULES §2.6(4))."""
    return FollowUp(f"{job_id(game_id, due)}-w{due.due_at}", due.due_at,
                    {"kind": Kind.TIMER, "game": game_id, "key": due.key})


def remote_turn(game_id: str, seat: int, opened_seq: int, due_at: int, attempt: int = 0,
                chosen: dict[str, Any] | None = None) -> FollowUp:
    """A remote bot's seat asked (again) at ``due_at``, on the remote lane (service/app/remote_bots.py);
    ``chosen``: an answer it gave that another seat's announcement grace held back."""
    payload: dict[str, Any] = {"kind": Kind.BOT, "game": game_id, "key": bot_key(seat, opened_seq), "seat": seat,
                               "opened_seq": opened_seq, "lane": Lane.REMOTE, "attempt": attempt}
    if chosen is not None:
        payload["chosen"] = dict(chosen)
    return FollowUp(f"{Kind.BOT}-{game_id}-{seat}-{opened_seq}-r{due_at}", due_at, payload)
