"""Quick play (issue 30 item 5): a seat at once at the open table of a variant that quick play is
filling for a scope (an API key's own tables, or the public ones), or at a new one. Each scope and
variant has one such table at a time (the matchmaking port's pointer, replaced only by
compare-and-set, so two callers at once get the same table). A new table's wait for humans is a
due follow-up (the same due queue as turn timers): when it fires, bots fill the free seats and the
match starts; a table that fills with humans first starts at once.

One address takes at most ``quickplay_seats_per_address`` seats (default 1) of one public table
(issue 37): its next seat is steered to another public table of the variant (the scope's second,
third ... table, ``quickplay_tables`` of them at most), and it is refused (429 ``quickplay_limit``)
only when every one of them already holds its share. The address is the caller's (an IPv6 client's
/64, as one host holds a whole /64), hashed; each table counts it in its token hash
(``meta:qp:<hash>``), written by the join itself at the version the count was read at, so two joins
from one address at once cannot both pass. A key's own tables are not steered: its users all come
through its key and often its servers' address."""
from __future__ import annotations

import hashlib

from service.app import seats, table_meta
from service.app.api_keys import ApiKey, key_tokens
from service.app.auth import SPECTATOR, Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.idempotency import Precondition
from service.app.table_meta import Meta
from service.app.write_path import MAX_ATTEMPTS, Outcome
from service.games.kernel.codes import KernelCode
from service.games.kernel.state import TableState
from service.integrations.quickplay.jobs import quickplay_job

PUBLIC = "public"  # the scope of anonymous quick play
BOT_STRENGTH = "easy"
QUICK_META = table_meta.field(Meta.QUICKPLAY)  # a quick-play table's scope, beside its tokens
SERVICE = Caller("owner")  # quick play's tables have no human owner: the service seats bots and starts them
TAKEN = frozenset({KernelCode.GAME_FULL, KernelCode.ALREADY_STARTED, KernelCode.JOINING_CLOSED, KernelCode.NOT_FOUND})


def holder(address: str) -> str:
    """The hashed address a quick-play seat is counted under (never the raw address in the store)."""
    return hashlib.sha256(b"meow-quickplay\0" + address.encode()).hexdigest()[:24]


def quick_play(ctx: AppContext, variant: str, key: ApiKey | None, name: str | None, ref: str | None,
               address: str | None = None) -> Outcome:
    """A seat at the scope's quick-play table of ``variant`` (a new table if it has none open):
    the join's outcome (``id``, ``seat``, ``token``); ``ref`` is the key's player for the seat;
    ``address``: the caller's (``holder``), whose seats a public table caps."""
    seats.resolve_variant(variant)  # an unknown variant is refused before any table is made
    scope = key.id if key is not None else PUBLIC
    cap = ctx.settings.quickplay_seats_per_address
    who = holder(address) if address and key is None and cap > 0 else None
    tables = max(1, ctx.settings.quickplay_tables) if who else 1
    for n in range(tables):  # the scope's first table, else (its share taken there) the next
        out = _seat_at(ctx, scope if n == 0 else f"{scope}~{n}", variant, key, name, ref, who, cap)
        if out is not None:
            return out
    raise AppError(AppCode.QUICKPLAY_LIMIT, f"this address holds {cap} seat(s) at each of the {tables} open "
                                            f"quick-play tables of {variant}: wait for one to start", limit=cap)


def _seat_at(ctx: AppContext, scope: str, variant: str, key: ApiKey | None, name: str | None, ref: str | None,
             who: str | None, cap: int) -> Outcome | None:
    """A seat at ``scope``'s open table (made if it has none), or None when ``who`` holds its share there."""
    ttl = ctx.settings.quickplay_wait_ms + 60_000
    gid = ctx.matchmaking.quick_get(scope, variant)
    for _ in range(MAX_ATTEMPTS):
        if not gid:
            fresh = ctx.random_bytes(8).hex()
            gid = ctx.matchmaking.quick_swap(scope, variant, None, fresh, ttl) or fresh
        state = _open(ctx, gid, scope, variant, key)
        if state is None:
            gid = ctx.matchmaking.quick_swap(scope, variant, gid, ctx.random_bytes(8).hex(), ttl)
            continue
        held = None
        if who is not None:
            raw = ctx.tokens.token_get(gid, table_meta.held(who))
            count = int(raw) if raw else 0
            if count >= cap:
                return None  # steered: this address's share of this table is taken
            held = ({table_meta.held(who): str(count + 1).encode()}, Precondition(state.version, "body"))
        try:
            out = seats.join(ctx, gid, SPECTATOR, name, None, None,
                             player=(key.id, ref) if key is not None and ref is not None else None, held=held)
        except AppError as exc:
            if exc.code == AppCode.VERSION_CONFLICT:
                continue  # another seat was taken meanwhile: count again
            if exc.code not in TAKEN:
                raise
            gid = ctx.matchmaking.quick_swap(scope, variant, gid, ctx.random_bytes(8).hex(), ttl)
            continue
        out.extra["id"] = gid
        if len(out.state.seats) >= out.state.max_players:
            _start(ctx, gid)  # full of humans: no wait
        return out
    raise AppError(AppCode.VERSION_CONFLICT, "quick play's tables kept filling; try again")


def _open(ctx: AppContext, gid: str, scope: str, variant: str, key: ApiKey | None) -> TableState | None:
    """The table ``gid`` if it is there, open and has a free seat (made now, with its wait, if it is not there)."""
    if ctx.event_log.version(gid) == 0:
        # the wait first: a table made without it would wait for bots forever
        ctx.due_queue.schedule(quickplay_job(gid, ctx.clock() + ctx.settings.quickplay_wait_ms))
        if key is not None:  # the key's own table: in its lobby (first, as a keyed create does)
            ctx.api_keys.key_game_add(key.id, gid, ctx.clock(), ctx.settings.key_games_max)
        try:
            seats.create_at(ctx, gid, variant, {}, None, None, {QUICK_META: scope.encode(), **key_tokens(key)})
        except AppError as exc:
            if exc.code != AppCode.GAME_EXISTS:
                raise
    state = ctx.load(gid)
    return state if state.status == "open" and len(state.seats) < state.max_players else None


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

