"""The read side: everything a caller may see of a game, always through the one per-viewer projection
— the live view and its legal actions, the event feed (long-polled), the history of a finished game
(or an auditor's of a running one) and its verification, the view as it was right after any event,
the lobby pages, and the body of a write's answer (``render``)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson

from service.app import audit, compute, fairness, meter, private_tables, verify_cache
from service.app.auth import SPECTATOR, Caller, caller_after, token_hash
from service.app.codes import AppCode
from service.app.context import AppContext, fold
from service.app.errors import AppError, forbidden, not_found, unauthorized
from service.app.redaction import Viewer, project_event, project_view
from service.app.seats import require_seat
from service.app.write_path import Outcome, lobby_summary
from service.eventstore.codec import Stored
from service.games import engine
from service.games.kernel.codes import KernelCode
from service.games.kernel.state import TableState


def viewer(caller: Caller) -> Viewer:
    """What this caller sees: its seat's hand, if it holds one."""
    return Viewer(seat=caller.seat)


def view(ctx: AppContext, game_id: str, caller: Caller, record: bool = False) -> tuple[TableState, dict[str, Any]]:
    state, head = ctx.load_with_head(game_id)
    now = ctx.clock()
    out = project_view(state, viewer(caller), now, record, fairness.notices(ctx, game_id, state, now))
    out["chain_head"] = head
    return state, out


def legal_actions(ctx: AppContext, game_id: str, caller: Caller) -> tuple[TableState, list[dict[str, Any]]]:
    seat = require_seat(caller)
    state = ctx.load(game_id)
    return state, engine.legal_actions(state, seat, ctx.clock())


def events(ctx: AppContext, game_id: str, caller: Caller, after: int, wait_s: float,
           waiter: Callable[[str, int, float], bool] | None = None,
           page: int = 500) -> tuple[TableState, Iterator[dict[str, Any]]]:
    """The events after ``after`` as the caller may see them at each one, read page by page as
    the answer is written: a batch that reaches the ``SeatLeft`` of the caller's seat shows it and
    stops there (the token is revoked), or goes on seatless for an owner (``caller_after``)."""
    state = ctx.load(game_id)
    after = min(after, state.version)  # nothing lies beyond the version (and Redis ids are bounded)
    if wait_s > 0 and state.version <= after:
        (waiter or ctx.event_log.wait)(game_id, after, min(wait_s, ctx.settings.max_wait_s))
        state = ctx.load(game_id)
    meter.charge(state.version - after)
    return state, _seen(ctx, game_id, caller, _pages(ctx, game_id, after, state.version, page))


def _pages(ctx: AppContext, game_id: str, after: int, last: int, page: int) -> Iterator[Stored]:
    """The stored events ``after+1 .. last``, ``page`` at a time; a game that went meanwhile
    (evicted) is not_found rather than a short answer."""
    while after < last:
        chunk = ctx.event_log.read_stored(game_id, after=after, count=min(page, last - after))
        if not chunk:
            raise not_found()
        yield from chunk
        after = chunk[-1].event.seq


def _seen(ctx: AppContext, game_id: str, caller: Caller, stored: Iterator[Stored]) -> Iterator[dict[str, Any]]:
    for item in stored:
        nxt = caller_after(caller, item.event)
        yield project_event(item.event, viewer(nxt or SPECTATOR))
        if nxt is None:
            return
        caller = nxt


def history_viewer(state: TableState, caller: Caller) -> Viewer:
    """Who reads a history: a finished game's players, owner and auditors see it all; a running
    game's history is for audit tokens only, redacted as for a spectator."""
    if state.status == "finished":
        if caller.role == "spectator":
            raise unauthorized("the history of a finished game is for its players, owner and auditors")
        return Viewer(reveal_all=True)
    if caller.role == "audit":
        return Viewer()
    raise forbidden("the history of a running game is for audit tokens only")


def history(ctx: AppContext, game_id: str, caller: Caller, page: int = 500) -> tuple[TableState, Iterator[dict[str, Any]]]:
    """The log, read page by page: audit records of a finished game, or a spectator's view of a running one."""
    state = ctx.load(game_id)
    reader = history_viewer(state, caller)
    meter.charge(state.version)
    stored = _pages(ctx, game_id, 0, state.version, page)
    if reader.reveal_all:
        return state, audit.history_records(stored)
    return state, ({**project_event(s.event, reader), "hash": s.hash} for s in stored)


def verify(ctx: AppContext, game_id: str, caller: Caller) -> dict[str, Any]:
    """A finished game's replay report, for those its history is for: computed once and kept
    (service/app/verify_cache.py)."""
    state = ctx.load(game_id)
    if state.status != "finished":
        raise AppError(AppCode.GAME_RUNNING, "a game can be verified once it is finished")
    history_viewer(state, caller)
    return verify_cache.report(ctx, game_id, state.version)


def state_at(ctx: AppContext, game_id: str, caller: Caller, at: int, record: bool = False) -> dict[str, Any]:
    """The view right after event ``at``, with the same redaction as the live view."""
    state = ctx.load(game_id)
    if at > state.version:  # (below 1 the request's schema refuses it)
        raise AppError(KernelCode.NOT_FOUND, f"this game has {state.version} events: no event {at} yet")
    base, base_head = ctx.nearest_snapshot(game_id, at - 1)  # event `at` itself is read: its time is the view's now
    after = base.version if base is not None else 0
    stored = ctx.event_log.read_stored(game_id, after=after, count=at - after) if at > after else []
    meter.charge(len(stored))
    past, head = compute.run(lambda: fold(base, base_head, stored)) if len(stored) >= compute.HEAVY \
        else fold(base, base_head, stored)
    assert past is not None  # 1 <= at <= version: the fold holds MatchCreated at least
    out = project_view(past, viewer(caller), stored[-1].event.at if stored else 0, record)
    out["chain_head"] = head
    return out


def lobby(ctx: AppContext, status: str | None, variant: str | None, cursor: tuple[int, str] | None,
          limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """A lobby page from the per-status indexes: O(page) however many games exist."""
    rows = [orjson.loads(v) for v in ctx.lobby_index.lobby_page(status, variant, cursor, limit + 1)]
    page = rows[:limit]
    nxt = f"{page[-1]['created_at']}:{page[-1]['id']}" if len(rows) > limit else None
    return page, nxt


def key_lobby(ctx: AppContext, key_id: str, cursor: tuple[int, str] | None,
              limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """A page of a key's own tables (service/app/api_keys.py), newest first: each one's lobby row
    and whether it is private, folded from its stream (O(page)); a table that went (expired,
    evicted, or a create that failed after it was listed) is dropped from the key's list."""
    listed = ctx.api_keys.key_games(key_id, cursor, limit + 1)
    page: list[dict[str, Any]] = []
    for _at, gid in listed[:limit]:
        try:
            state = ctx.load(gid)
        except AppError as exc:
            if exc.code != KernelCode.NOT_FOUND:
                raise
            ctx.api_keys.key_game_drop(key_id, gid)
            continue
        row = orjson.loads(lobby_summary(gid, state))
        row["private"] = private_tables.is_private(ctx, gid, exists=True)
        page.append(row)
    nxt = f"{listed[limit - 1][0]}:{listed[limit - 1][1]}" if len(listed) > limit else None
    return page, nxt


def render(ctx: AppContext, out: Outcome, caller: Caller, minimal: bool = False) -> dict[str, Any]:
    """The response body of a write, as this caller may see it: its events, the version and the
    caller's (lean) view, which ``minimal`` (``Prefer: return=minimal``) leaves out."""
    seen_as = viewer(caller)
    body = dict(out.extra)
    if out.replayed and body.get("token") and ctx.tokens.token_get(out.game_id, token_hash(body["token"])) is None:
        body["token"] = None  # a replayed join: its seat has gone, and its token with it
    elif out.extra.get("seat") is not None and caller.seat is None and out.status == 201 and "token" in out.extra:
        seen_as = Viewer(seat=out.extra["seat"])  # the seat just taken (or, replayed, still held)
    body.update(
        version=out.state.version if not out.replayed else max((e.seq for e in out.events), default=out.state.version),
        events=[project_event(e, seen_as) for e in out.events],
    )
    if not minimal:
        body["game"] = project_view(out.state, seen_as, ctx.clock())
    if out.replayed:
        body["replayed"] = True
    return body
