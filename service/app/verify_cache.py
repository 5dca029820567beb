"""A finished game's verify report, computed once and kept.

A finished game takes no more events, so its report cannot change: the first verification keeps
it store-side (``report_put``: beside the game, under its hash tag, through compaction — which
changes no byte the replay reads — and deleted with it by ``evict_game``), and every later
``GET /verify``, in any process, reads it back. The report names nothing about its reader (no
hand, no seat: the chain, the commitments, the replay and the final public scores), so one copy
serves every caller the history is for; who may read it is still checked on every request
(queries.verify). A kept report is used only at the version it was computed at (``events``) and
by the same build of what it depends on (``code``: a digest of the source of the rules, the codec
and the replay, so a fixed replay never serves an old report); otherwise it is computed again.
Within a process, concurrent first verifications of the same game wait for one computation
instead of each running their own. A running game is not verified (409 ``game_running``), so
nothing of it is kept."""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from service.app import audit, compute, meter
from service.app.context import AppContext

MAX_REPORT_BYTES = 64 * 1024  # a report names at most a few problems: a larger one is served, not kept

_guard = threading.Lock()
_flights: dict[str, tuple[threading.Lock, int]] = {}


def report(ctx: AppContext, game_id: str, version: int) -> dict[str, Any]:
    """The report of the finished game ``game_id`` at ``version``: the kept one, or computed and kept."""
    kept = _kept(ctx, game_id, version)
    if kept is not None:
        return kept
    with _one_at_a_time(game_id):
        kept = _kept(ctx, game_id, version)  # computed meanwhile by a request of this process
        if kept is not None:
            return kept
        stored = ctx.event_log.read_stored(game_id)
        meter.charge(len(stored), meter.REPLAY)
        out = compute.run(lambda: audit.verify(list(audit.history_records(stored))).as_dict())
        blob = orjson.dumps({"code": code(), "report": out}, option=orjson.OPT_NON_STR_KEYS)
        if len(blob) <= MAX_REPORT_BYTES and out["events"] == version:
            ctx.reports.report_put(game_id, blob)
        return out


def _kept(ctx: AppContext, game_id: str, version: int) -> dict[str, Any] | None:
    blob = ctx.reports.report_get(game_id)
    if blob is None:
        return None
    try:
        kept = orjson.loads(blob)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(kept, dict) or kept.get("code") != code():
        return None
    out = kept.get("report")
    return out if isinstance(out, dict) and out.get("events") == version else None


_CODE: list[str] = []
_REPLAY_SOURCES = ("games", "app/audit.py", "app/commands.py", "eventstore/codec.py", "eventstore/chain.py")


def code() -> str:
    """A digest of the source of what a report depends on (the rules, the codec and its upcasters,
    the chain, the replay), computed once per process."""
    if not _CODE:
        root = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for name in _REPLAY_SOURCES:
            top = root / name
            for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
        _CODE.append(digest.hexdigest()[:16])
    return _CODE[0]


@contextmanager
def _one_at_a_time(game_id: str) -> Iterator[None]:
    with _guard:
        lock, waiting = _flights.get(game_id, (threading.Lock(), 0))
        _flights[game_id] = (lock, waiting + 1)
    try:
        with lock:
            yield
    finally:
        with _guard:
            lock, waiting = _flights[game_id]
            if waiting == 1:
                del _flights[game_id]
            else:
                _flights[game_id] = (lock, waiting - 1)
