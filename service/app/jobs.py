"""Follow-up jobs, served by the workers: a bot's turn, round scoring, the next deal, a timer, and the
expiry of a table nobody started. Each job names what it serves and does nothing once that has
closed (RULES §2.6); otherwise it decides against the latest state on the write path, retrying on
a conflict. A bot that cannot move yet, or a timer that fired early, is scheduled again rather than
slept on; a searching bot answers at its budget's end whatever it held (RULES §7.1)."""
from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

from service.app import fairness, followups as fu
from service.app.actions import bot_write
from service.app.auth import SPECTATOR
from service.app.compaction import compact_finished
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.plugins import JobHandler
from service.app.seats import seat_tokens_revoked
from service.app.write_path import MAX_ATTEMPTS, WritePlan, write
from service.games import engine
from service.games.kernel.absence import parse_absence_key
from service.games.kernel.codes import KernelCode
from service.games.kernel.due import Kind
from service.games.kernel.model import DealRound, FireTimer, ScoreRound
from service.games.kernel.state import TableState

GRACE_RETRY_MS = 250


def run_followup(ctx: AppContext, payload: dict[str, Any]) -> str:
    """Serve one due follow-up; a no-op when what it serves has closed. A lane an integration serves
    whole (the remote lane) goes to it; else the kind's handler: the game's own below, an
    integration's from the registry (service/app/plugins.py)."""
    hooks = ctx.integrations
    kind = payload["kind"]
    handler = hooks.lanes.get(payload.get("lane", "")) or CORE_JOBS.get(kind) or hooks.jobs.get(kind, round_job)
    return handler(ctx, payload)


def bot_job(ctx: AppContext, payload: dict[str, Any]) -> str:
    """A bot's turn (or the move a search chose, or an absent seat's autopilot)."""
    answer_at, granted, chosen_at = payload.get("answer_at"), payload.get("granted_ms"), payload.get("chosen_at")
    return bot_turn(ctx, payload["game"], int(payload["seat"]), int(payload["opened_seq"]),
                    int(answer_at) if answer_at is not None else None,
                    int(granted) if granted is not None else None, payload.get("chosen"),
                    int(chosen_at) if chosen_at is not None else None)


def round_job(ctx: AppContext, payload: dict[str, Any]) -> str:
    """Round scoring, the next deal or a timer, decided on the write path."""
    game_id, kind = payload["game"], payload["kind"]
    if kind == Kind.SCORE:
        cmd: Any = ScoreRound(int(payload["key"]))
    elif kind == Kind.DEAL:
        cmd = DealRound(int(payload["key"]))
    else:
        cmd = FireTimer(str(payload["key"]))
    tokens: dict[str, bytes] = {}
    revoke: tuple[str, ...] = ()
    removal = absent_removal_seat(cmd)
    if removal is not None:  # RULES §2.7/§3.10: an absent seat removed leaves; its token goes
        tokens, revoke = seat_tokens_revoked(ctx, game_id, removal)
    try:
        out = write(ctx, game_id, SPECTATOR, WritePlan(lambda s: cmd, tokens=tokens, revoke=revoke))
    except AppError as exc:
        if exc.code == KernelCode.NOTHING_TO_DO:
            return rearm_timer(ctx, game_id, cmd)
        raise
    if kind == Kind.SCORE and out.state.status == "running":
        fairness.round_scored(ctx, game_id)
    return "done"


def expire_open(ctx: AppContext, game_id: str) -> str:
    """A never-started table past its TTL goes, with all its keys; a started one stays."""
    for _ in range(MAX_ATTEMPTS):
        try:
            state = ctx.load(game_id)
        except AppError as exc:
            if exc.code == KernelCode.NOT_FOUND:
                return "closed"
            raise
        if state.status != "open":
            return "closed"
        if ctx.retention.expire_game(game_id, state.version, state.variant):
            ctx.cache.drop(game_id)
            return "expired"
    return "busy"


def rearm_timer(ctx: AppContext, game_id: str, cmd: object) -> str:
    """A timer that fired before its due time waits for it (RULES §2.6(4)): the state's own
    pending work says when; a timer whose turn, step or absence has closed stays closed."""
    if not isinstance(cmd, FireTimer):
        return "closed"
    state = ctx.load(game_id)
    due = next((d for d in engine.pending_work(state) if d.kind == Kind.TIMER and d.key == cmd.key), None)
    if due is None or due.due_at <= ctx.clock():
        return "closed"
    ctx.due_queue.schedule(fu.rearmed_timer(game_id, due))
    return "waiting"


def bot_turn(ctx: AppContext, game_id: str, seat: int, opened_seq: int, answer_at: int | None = None,
             granted_ms: int | None = None, chosen: dict[str, Any] | None = None, chosen_at: int | None = None,
             autopilot: bool = False) -> str:
    """One bot move. A searching bot answers at max(``answer_at``, its start + its search time),
    whether it had a choice or not (RULES §7.1(4)): the gap before its move tells nobody what it
    held. Its worker never waits for that moment: the move is written then by a follow-up on the
    fast lane (``fu.bot_move``) that carries the ``chosen`` action, which it writes if the table is
    still at ``chosen_at`` (else it chooses again, briefly); a closed turn closes it. A remote bot's
    seat is asked on the remote lane (service/app/remote_bots.py), unless ``autopilot`` (its bot away)."""
    from service.app.bots import choose_for

    for attempt in range(MAX_ATTEMPTS):
        state, head = ctx.load_with_head(game_id)  # (loaded once: the write decides against it)
        if not any(d.kind == Kind.BOT and d.seat == seat and d.opened_seq == opened_seq
                   for d in engine.pending_work(state)):
            return "closed"
        now = ctx.clock()
        if not autopilot and fu.remote_seat(state, seat):
            ctx.due_queue.schedule(fu.remote_turn(game_id, seat, opened_seq, now))
            return "remote"
        view = engine.seat_view(state, seat, now)
        if not view.legal_actions:  # another seat's announcement grace holds closing actions back
            return defer_bot(ctx, game_id, seat, opened_seq, now)
        budget = fu.search_budget_ms(state, seat, ctx.settings.max_bot_budget_ms)
        if chosen is not None and attempt == 0 and chosen_at == state.version:
            action = dict(chosen)  # what the search chose, at its answer time
        else:
            searching = budget and chosen is None and attempt == 0
            took = search_time(ctx, budget, answer_at, granted_ms, now) if searching else min(budget, ctx.settings.search_min_ms)
            policy = choose_for(state, seat, max(1, took) if budget else None)
            action = dict(policy(view, bot_rng(state, state.version, seat)))
            if searching:
                answer = max(answer_at or 0, now + took)
                fairness.note_search(ctx, game_id, budget, granted_ms, answer + ctx.settings.search_idle_ms)
                if ctx.clock() < answer:  # the answer is due later: written then, this worker is free now
                    ctx.due_queue.schedule(fu.bot_move(game_id, seat, opened_seq, answer, action, state.version))
                    return "searched"
        chosen = None
        outcome = bot_write(ctx, game_id, state, seat, action, head)
        if outcome != "retry":
            return defer_bot(ctx, game_id, seat, opened_seq, now) if outcome == "grace" else outcome
    return defer_bot(ctx, game_id, seat, opened_seq, ctx.clock())  # a very busy table: come back


def search_time(ctx: AppContext, budget: int, answer_at: int | None, granted_ms: int | None, now: int) -> int:
    """How long this search runs: the table's budget, or less when the dispatcher granted less (a
    saturated search lane), and never past the answer time (a search that waited in line shrinks
    by its wait); at least ``search_min_ms``."""
    took = budget if granted_ms is None else min(budget, granted_ms)
    if answer_at is not None:
        took = min(took, answer_at - now)
    return max(min(budget, ctx.settings.search_min_ms), took)


def defer_bot(ctx: AppContext, game_id: str, seat: int, opened_seq: int, now: int) -> str:
    """Come back shortly, when the other seat's grace is over (never sleep in a worker)."""
    ctx.due_queue.schedule(fu.deferred_bot(game_id, seat, opened_seq, now, now + GRACE_RETRY_MS))
    return "deferred"


def bot_rng(state: TableState, version: int, seat: int) -> random.Random:
    """RULES §7.1(5): seeded by (match, version, seat) — keyed by the secret match seed, so that
    opponents cannot replay a bot's policy against guessed hands; reproducible once revealed."""
    digest = hmac.new(fu.match_key(state), f"bot/{version}/{seat}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


CORE_JOBS: dict[str, JobHandler] = {
    Kind.BOT: bot_job,
    Kind.SCORE: round_job,
    Kind.DEAL: round_job,
    Kind.TIMER: round_job,
    Kind.EXPIRE: lambda ctx, payload: expire_open(ctx, payload["game"]),
    Kind.COMPACT: lambda ctx, payload: compact_finished(ctx, payload["game"]),
}
"""The table core's own job kinds; the integrations' are in ``ctx.integrations.jobs``."""


def absent_removal_seat(cmd: object) -> int | None:
    """The seat an absence timer would remove (RULES §2.7), else None."""
    parsed = parse_absence_key(cmd.key) if isinstance(cmd, FireTimer) else None
    return parsed[0] if parsed is not None else None
