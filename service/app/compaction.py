"""Compaction and archiving of finished games (issue 16): what a finished game costs in Redis.

``compact_after_s`` after a match ends, its follow-up job (``compact-<game>``, scheduled by the
append that finished it) replaces the game's stream by its compact form
(service/eventstore/compact.py): every answer about the game stays byte for byte the same, and it
takes about a tenth of the memory. ``sweep`` does the same for finished games that have no such
job (finished before compaction existed, or while it was off): `meow compact`.

``archive`` exports a finished game's history as NDJSON — exactly the lines of
``GET /history`` with ``Accept: application/x-ndjson`` — checks the file with the independent
verifier (``meow verify``'s checks) and, if asked, evicts the game from Redis only then: an
evicted game answers 404 ``not_found`` like a game that never existed (`meow archive`).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from service.app import api_keys, queries
from service.app.auth import Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.write_path import MAX_ATTEMPTS
from service.games.kernel.codes import KernelCode
from service.games.kernel.state import TableState

ARCHIVIST = Caller("audit")  # an operator's tool reads the full history, as an audit token does


def compact_finished(ctx: AppContext, game_id: str) -> str:
    """Compact a finished game (idempotent; a game still running, or gone, is left as it is)."""
    for _ in range(MAX_ATTEMPTS):
        try:
            state = ctx.load(game_id)
        except AppError as exc:
            if exc.code == KernelCode.NOT_FOUND:
                return "closed"
            raise
        if state.status != "finished":
            return "closed"
        got = ctx.retention.compact(game_id, state.version)
        if got != "conflict":
            return got
    return "busy"


def finished_games(ctx: AppContext, page: int = 200) -> Iterator[dict[str, Any]]:
    """The lobby rows of every finished game, newest first; then the finished private tables (in
    no public lobby: found through their keys' own lobbies, service/app/private_tables.py)."""
    cursor: tuple[int, str] | None = None
    while True:
        rows, nxt = queries.lobby(ctx, "finished", None, cursor, page)
        yield from rows
        if nxt is None:
            break
        at, _, gid = nxt.partition(":")
        cursor = (int(at), gid)
    for key in api_keys.all_keys(ctx.api_keys):
        cursor = None
        while True:
            rows, nxt = queries.key_lobby(ctx, key.id, cursor, page)
            yield from (row for row in rows if row["private"] and row["status"] == "finished")
            if nxt is None:
                break
            at, _, gid = nxt.partition(":")
            cursor = (int(at), gid)


def finished_at(ctx: AppContext, game_id: str, version: int) -> int:
    """When the game's last event happened (its match ended), in ms."""
    last = ctx.event_log.read_stored(game_id, after=max(version - 1, 0), count=1)
    return last[0].event.at if last else 0


def sweep(ctx: AppContext, older_than_s: int | None = None) -> dict[str, int]:
    """Compact every finished game whose match ended ``older_than_s`` ago (the setting by default)."""
    grace_ms = (ctx.settings.compact_after_s if older_than_s is None else older_than_s) * 1000
    counts: dict[str, int] = {}
    for row in finished_games(ctx):
        gid = row["id"]
        if ctx.retention.form(gid) != "stream" or finished_at(ctx, gid, int(row["version"])) > ctx.clock() - grace_ms:
            continue
        got = compact_finished(ctx, gid)
        counts[got] = counts.get(got, 0) + 1
    return counts


@dataclass(frozen=True)
class Archived:
    game_id: str
    path: str
    events: int
    verified: bool
    evicted: bool
    detail: str = ""


def history_lines(ctx: AppContext, game_id: str) -> tuple[TableState, Iterator[bytes]]:
    """The finished game's history as NDJSON lines (the bytes ``GET /history`` streams)."""
    state, records = queries.history(ctx, game_id, ARCHIVIST)
    if state.status != "finished":
        raise AppError(AppCode.GAME_RUNNING, "only a finished game is archived")
    return state, (orjson.dumps(r, option=orjson.OPT_NON_STR_KEYS) + b"\n" for r in records)


def archive(ctx: AppContext, game_id: str, out_dir: str, evict: bool = False) -> Archived:
    """Write ``<out_dir>/<game>.ndjson``, verify it, and evict the game if asked and it verified."""
    from service.verifier.check import load, verify

    state, head = ctx.load_with_head(game_id)
    state, lines = history_lines(ctx, game_id)
    path = os.path.join(out_dir, f"{game_id}.ndjson")
    partial = path + ".partial"
    with open(partial, "wb") as fh:
        for line in lines:
            fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(partial, path)
    records = load(path)
    result = verify(records)
    bad = result.first
    if bad is not None or result.events != state.version or records[-1].get("hash") != head:
        detail = (f"event {bad.seq} ({bad.check}): {bad.detail}" if bad else
                  f"{result.events} of {state.version} events" if result.events != state.version else
                  "its last hash is not the game's chain head")
        return Archived(game_id, path, result.events, False, False, detail)
    evicted = False
    if evict:
        evicted = ctx.retention.evict_game(game_id, state.version, state.variant)
        ctx.cache.drop(game_id)
    return Archived(game_id, path, result.events, True, evicted)
