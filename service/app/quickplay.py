"""Quick play (issue 30 item 5): a seat at once at the open table of a variant that quick play is
filling for a scope (an API key's own tables, or the public ones), or at a new one. Each scope and
variant has one such table at a time (the matchmaking port's pointer, replaced only by
compare-and-set, so two callers at once get the same table). A new table's wait for humans is a
due follow-up (the same due queue as turn timers): when it fires, bots fill the free seats and the
match starts; a table that fills with humans first starts at once."""
from __future__ import annotations

from service.app import followups as fu, seats
from service.app.api_keys import ApiKey, key_tokens
from service.app.auth import SPECTATOR, Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.write_path import MAX_ATTEMPTS, Outcome
from service.games.kernel.codes import KernelCode

PUBLIC = "public"  # the scope of anonymous quick play
BOT_STRENGTH = "easy"
QUICK_META = "meta:quickplay"  # a quick-play table's scope, beside its tokens
SERVICE = Caller("owner")  # quick play's tables have no human owner: the service seats bots and starts them
TAKEN = frozenset({KernelCode.GAME_FULL, KernelCode.ALREADY_STARTED, KernelCode.JOINING_CLOSED, KernelCode.NOT_FOUND})


def quick_play(ctx: AppContext, variant: str, key: ApiKey | None, name: str | None, ref: str | None) -> Outcome:
    """A seat at the scope's quick-play table of ``variant`` (a new table if it has none open):
    the join's outcome (``id``, ``seat``, ``token``); ``ref`` is the key's player for the seat."""
    seats.resolve_variant(variant)  # an unknown variant is refused before any table is made
    scope = key.id if key is not None else PUBLIC
    ttl = ctx.settings.quickplay_wait_ms + 60_000
    gid = ctx.matchmaking.quick_get(scope, variant)
    for _ in range(MAX_ATTEMPTS):
        if not gid:
            fresh = ctx.random_bytes(8).hex()
            gid = ctx.matchmaking.quick_swap(scope, variant, None, fresh, ttl) or fresh
        if not _open(ctx, gid, scope, variant, key):
            gid = ctx.matchmaking.quick_swap(scope, variant, gid, ctx.random_bytes(8).hex(), ttl)
            continue
        try:
            out = seats.join(ctx, gid, SPECTATOR, name, None, None,
                             player=(key.id, ref) if key is not None and ref is not None else None)
        except AppError as exc:
            if exc.code not in TAKEN:
                raise
            gid = ctx.matchmaking.quick_swap(scope, variant, gid, ctx.random_bytes(8).hex(), ttl)
            continue
        out.extra["id"] = gid
        if len(out.state.seats) >= out.state.max_players:
            _start(ctx, gid)  # full of humans: no wait
        return out
    raise AppError(AppCode.VERSION_CONFLICT, "quick play's tables kept filling; try again")


def _open(ctx: AppContext, gid: str, scope: str, variant: str, key: ApiKey | None) -> bool:
    """The table ``gid`` is there, open and has a free seat (made now, with its wait, if it is not there)."""
    if ctx.event_log.version(gid) == 0:
        # the wait first: a table made without it would wait for bots forever
        ctx.due_queue.schedule(fu.quickplay_job(gid, ctx.clock() + ctx.settings.quickplay_wait_ms))
        if key is not None:  # the key's own table: in its lobby (first, as a keyed create does)
            ctx.api_keys.key_game_add(key.id, gid, ctx.clock(), ctx.settings.key_games_max)
        try:
            seats.create_at(ctx, gid, variant, {}, None, None, {QUICK_META: scope.encode(), **key_tokens(key)})
        except AppError as exc:
            if exc.code != AppCode.GAME_EXISTS:
                raise
    state = ctx.load(gid)
    return state.status == "open" and len(state.seats) < state.max_players


def fill_with_bots(ctx: AppContext, game_id: str) -> str:
    """The wait is over: bots take the free seats and the match starts, if a human is still
    waiting there; a table that started (or went) meanwhile is left alone. Idempotent."""
    try:
        state = ctx.load(game_id)
    except AppError as exc:
        if exc.code == KernelCode.NOT_FOUND:
            return "closed"
        raise
    if state.status != "open":
        return "closed"
    if not any(s.kind == "human" and s.state != "left" for s in state.seats):
        return "empty"  # nobody waits: the table expires as any table nobody starts
    for _ in range(state.max_players - len(state.seats)):
        try:
            seats.join(ctx, game_id, SERVICE, None, {"strength": BOT_STRENGTH}, None)
        except AppError as exc:
            if exc.code not in TAKEN:
                raise
            break
    _start(ctx, game_id)
    return "started"


def _start(ctx: AppContext, game_id: str) -> None:
    try:
        seats.start(ctx, game_id, SERVICE)
    except AppError as exc:
        if exc.code != KernelCode.ALREADY_STARTED:
            raise

