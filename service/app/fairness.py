"""Fair shares of the bots' work between owners (docs/reliability.md, "Fair search and bots-only
tables"): who created a table (its ``Origin``, kept store-side and hashed, never in the stream or
any answer), the caps on running bots-only tables per owner and per address, and the notice a
table's view carries while its searches are shortened because the search lane is saturated.

Until integrators' API keys exist, an owner is the creating client's address prefix (IPv4 /24,
IPv6 /64: ``http.peer_prefix``). Both values are hashed before they reach the store and live in
the game's token hash ("meta:owner", "meta:addr"), which goes with the game; the hash is not a
secret against someone who can read Redis (a /24 has 2**24 values), it keeps raw addresses out of
dumps and logs. What protects them is that nothing outbound reads them: no event, view, record,
history or verify output is built from the token hash."""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

import orjson

from service.app import followups as fu, table_meta
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.table_meta import Meta
from service.games.kernel.state import TableState

log = logging.getLogger("meow.app")
OWNER, ADDRESS, SEARCH = Meta.OWNER, Meta.ADDRESS, Meta.SEARCH  # fields of service/app/table_meta.py
SLOT_TTL_MS = 24 * 3600 * 1000  # a slot of a match that never ends lapses after a day; each round renews it


@dataclass(frozen=True, slots=True)
class Origin:
    """Who created a table, hashed: the client's network (the owner) and its exact address."""

    owner: str
    address: str

    @classmethod
    def of(cls, prefix: str, address: str) -> Origin:
        return cls(_digest(prefix), _digest(address))


def _digest(value: str) -> str:
    return hashlib.sha256(b"meow-origin\0" + value.encode()).hexdigest()[:24]


def origin_tokens(origin: Origin | None) -> dict[str, bytes]:
    """The token-hash fields that record a new table's origin (written with its creation)."""
    if origin is None:
        return {}
    return table_meta.fields({OWNER: origin.owner.encode(), ADDRESS: origin.address.encode()})


def meta(ctx: AppContext, game_id: str, name: Meta) -> str | None:
    raw = table_meta.get(ctx.tokens, game_id, name)
    return raw.decode() if raw is not None else None


def _slots(ctx: AppContext, game_id: str) -> list[tuple[str, str, int, str]]:
    """(lease name, member, cap, whose) of the caps a bots-only table of this origin counts against."""
    s = ctx.settings
    out = []
    for kind, name, cap, whose in (("bots-owner", OWNER, s.bots_only_per_owner, "network"),
                                   ("bots-addr", ADDRESS, s.bots_only_per_address, "address")):
        who = meta(ctx, game_id, name)
        if who is not None and cap > 0:
            out.append((ctx.leases.lease_name(kind, who), game_id, cap, whose))
    return out


def take_bots_only_slots(ctx: AppContext, game_id: str, state: TableState) -> list[tuple[str, str]]:
    """Before a table starts with bots only (not an arena): one slot of its owner's and of its
    address's caps, or ``bots_only_limit``. Returns what it took (released if the start fails)."""
    if state.status != "open" or not fu.bots_only(state) or fu.is_arena(state):
        return []
    taken: list[tuple[str, str]] = []
    now = ctx.clock()
    for name, member, cap, whose in _slots(ctx, game_id):
        if not ctx.leases.lease_acquire(name, member, cap, now, SLOT_TTL_MS):
            ctx.leases.lease_release_many(taken)
            raise AppError(AppCode.BOTS_ONLY_LIMIT,
                           f"this {whose} already runs {cap} tables with bots only: start this one when one "
                           "of them has finished, or sit down at it", limit=cap)
        taken.append((name, member))
    return taken


def match_over(ctx: AppContext, game_id: str) -> None:
    """The match ended: its bots-only slots go back (a no-op for a table that held none). After
    the append: failing here fails nothing (the slot lapses after ``SLOT_TTL_MS``)."""
    try:
        ctx.leases.lease_release_many([(name, member) for name, member, _, _ in _slots(ctx, game_id)])
    except Exception:
        log.warning("bots-only slots of %s not released", game_id, exc_info=True)


def round_scored(ctx: AppContext, game_id: str) -> None:
    """A round of a running match was scored: its slots (if it holds any) last another day."""
    try:
        ctx.leases.lease_renew([(name, member) for name, member, _, _ in _slots(ctx, game_id)], ctx.clock(),
                              SLOT_TTL_MS)
    except Exception:
        log.warning("bots-only slots of %s not renewed", game_id, exc_info=True)


def note_search(ctx: AppContext, game_id: str, budget_ms: int, granted_ms: int | None, until: int) -> None:
    """Record (or clear) the table's notice: its searches get less than its budget because the
    search lane is saturated. It says only the granted time (a fact about the server's load)."""
    if granted_ms is not None and granted_ms < budget_ms:
        ctx.tokens.meta_put(game_id, SEARCH, orjson.dumps({"budget_ms": granted_ms, "until": until}))
    elif table_meta.get(ctx.tokens, game_id, SEARCH) is not None:
        ctx.tokens.meta_put(game_id, SEARCH, None)


def notices(ctx: AppContext, game_id: str, state: TableState, now: int) -> list[dict[str, Any]]:
    """The public notices of a running table with a searching bot: "search budget reduced to N ms"
    while its searches are shortened (read only for such tables: one field of the token hash)."""
    if state.status != "running" or not any(fu.search_budget_ms(state, s.seat, 1 << 30) for s in state.seats):
        return []
    raw = table_meta.get(ctx.tokens, game_id, SEARCH)
    if raw is None:
        return []
    got = orjson.loads(raw)
    if int(got.get("until", 0)) <= now:
        return []
    ms = int(got["budget_ms"])
    return [{"code": "search_budget_reduced", "budget_ms": ms,
             "detail": f"search budget reduced to {ms} ms: the server's search lane is busy"}]
