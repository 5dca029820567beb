"""Players who carry across tables (issue 30 item 4): a seat may carry a player reference chosen by
an API key — the integrator's own opaque id for one of its users, namespaced by that key (the same
ref under two keys is two players). The ref is written with the seat, store-side beside its tokens
(never in the stream, never in an answer but to the key that set it); when the match ends a
follow-up job counts the game once in each player's record for that key and variant: games, wins
and a rating (contract R, service/app/ratings.py), and the key's leaderboard."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from service.app import ratings, table_meta
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.table_meta import Meta
from service.eventstore.contract import FollowUp
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Event
from service.games.kernel.state import TableState
from service.games.kernel.table import seat_taken
from service.integrations.players.jobs import players_job

REF_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$"
"""A player ref: 1-64 characters of letters, digits and ``._:@-``, starting with a letter or digit."""
_REF = re.compile(REF_PATTERN)
FLAG = table_meta.field(Meta.PLAYERS)  # set on a table once any of its seats carries a player
KEEP_GAMES = 10_000  # finished games remembered per key and variant, so a replayed job counts nothing
PAGE_MAX = 100


def seat_field(seat: int) -> str:
    """The token-hash field of a seat's player (the one owner of that name)."""
    return table_meta.player(seat)


def check_ref(ref: str) -> str:
    """A ref as given, or 422 ``invalid_request`` (the API's schemas refuse one first)."""
    if not isinstance(ref, str) or not _REF.match(ref):
        raise AppError(KernelCode.INVALID_REQUEST,
                       "a player ref is 1-64 letters, digits or ._:@- (starting with a letter or digit)")
    return ref


def seat_tokens(seat: int, key_id: str, ref: str) -> dict[str, bytes]:
    """What a seat taken with a player writes beside its tokens, with the seat (one append)."""
    return {seat_field(seat): orjson.dumps({"key": key_id, "ref": ref}), FLAG: b"1"}


def tokens_for_join(key_id: str | None, ref: str | None):
    """``tokens_from_events`` for a join that carries ``ref`` under ``key_id`` (None: carries none)."""
    if ref is None or key_id is None:
        return None

    def tokens(events: Sequence[Event]) -> dict[str, bytes]:
        return seat_tokens(seat_taken(events), key_id, ref)
    return tokens


def seat_players(ctx: AppContext, game_id: str, seats: int) -> dict[int, tuple[str, str]]:
    """Each seat's (key id, ref), for the seats that carry one (one read when none does)."""
    if not ctx.tokens.token_get(game_id, FLAG):
        return {}
    out: dict[int, tuple[str, str]] = {}
    for seat in range(seats):
        raw = ctx.tokens.token_get(game_id, seat_field(seat))
        if raw:
            rec = orjson.loads(raw)
            out[seat] = (str(rec["key"]), str(rec["ref"]))
    return out


def refs_for(ctx: AppContext, game_id: str, key_id: str | None, state: TableState | None = None) -> dict[int, str]:
    """The player refs the key ``key_id`` set on this table's seats, by seat: what the key's own
    answers (the view, its webhooks) name. None (no key) sees none."""
    if key_id is None:
        return {}
    state = state if state is not None else ctx.load(game_id)
    return {seat: ref for seat, (key, ref) in seat_players(ctx, game_id, len(state.seats)).items() if key == key_id}


# ------------------------------------------------------------------ the match's end
def followup(ctx: AppContext, game_id: str, ended_at: int) -> FollowUp | None:
    """The job that counts a finished game in its players' records, if any seat carries a player."""
    if not ctx.tokens.token_get(game_id, FLAG):
        return None
    return players_job(game_id, ended_at)


def record_match(ctx: AppContext, game_id: str) -> str:
    """Count a finished game once per key and variant: each player's games, wins (rank 1) and
    rating (rated against every seat of the standings; a seat with no player of that key, a bot
    or another key's player, rates as a new player). Idempotent: a replayed job finds the game
    counted ("duplicate"); a record changed meanwhile by another game is read again."""
    state = ctx.load(game_id)
    if state.status != "finished" or not state.standings:
        return "closed"
    players = seat_players(ctx, game_id, len(state.seats))
    outcomes = []
    for key_id in sorted({k for k, _ in players.values()}):
        mine = {seat: ref for seat, (k, ref) in players.items() if k == key_id}
        outcomes.append(_record_for_key(ctx, game_id, state, key_id, mine))
    return "done" if "ok" in outcomes else (outcomes[0] if outcomes else "closed")


def _record_for_key(ctx: AppContext, game_id: str, state: TableState, key_id: str, mine: Mapping[int, str]) -> str:
    rows = [(int(row["seat"]), int(row["rank"])) for row in state.standings]
    ranked = dict(rows)
    refs = sorted({ref for seat, ref in mine.items() if seat in ranked})
    if not refs:
        return "closed"
    for _ in range(8):
        current = dict(zip(refs, ctx.players.player_get(key_id, state.variant, refs)))
        prior = {ref: _parse(raw) for ref, raw in current.items() if raw is not None}
        room = ctx.settings.players_per_key - ctx.players.player_count(key_id, state.variant)
        for ref in refs:  # a new player beyond the key's cap is not recorded (bounded keys per key)
            if ref not in prior and room > 0:
                prior[ref], room = _parse(None), room - 1
        field = [(rank, mine.get(seat)) for seat, rank in rows]
        before = [ratings.from_json(prior[who]) if who in prior else ratings.new_rating() for _, who in field]
        after = ratings.rate(before, [rank for rank, _ in field])
        new: dict[str, tuple[bytes, float]] = {}
        for (rank, who), rating in zip(field, after):
            if who is not None and who in prior and who not in new:  # (one ref on two seats: its first counts)
                rec = {"games": prior[who]["games"] + 1, "wins": prior[who]["wins"] + (rank == 1),
                       **ratings.to_json(rating), "last_game": game_id}
                new[who] = (orjson.dumps(rec), ratings.display(rating))
        got = ctx.players.player_record(key_id, state.variant, game_id, {r: current[r] for r in new}, new,
                                        ctx.clock(), KEEP_GAMES)
        if got != "conflict":
            return got
    return "busy"


def _parse(raw: bytes | None) -> dict[str, Any]:
    if raw is None:
        return {"games": 0, "wins": 0, **ratings.to_json(ratings.new_rating())}
    return dict(orjson.loads(raw))


# ------------------------------------------------------------------ reading
def public_record(ref: str, raw: bytes, rank: int | None = None) -> dict[str, Any]:
    """A player's record as the key's answers show it."""
    rec = orjson.loads(raw)
    rating = ratings.from_json(rec)
    lo, hi = ratings.interval95(rating)
    out = {"player": ref, "games": int(rec["games"]), "wins": int(rec["wins"]),
           "rating": round(ratings.display(rating), 3), "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
           "interval95": [round(lo, 3), round(hi, 3)]}
    if rank is not None:
        out["rank"] = rank
    return out


def player(ctx: AppContext, key_id: str, variant: str, ref: str) -> dict[str, Any] | None:
    """One player's record for the key and variant (None: no game counted yet)."""
    raw = ctx.players.player_get(key_id, variant, [check_ref(ref)])[0]
    return public_record(ref, raw) if raw is not None else None


def leaderboard(ctx: AppContext, key_id: str, variant: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
    """A page of the key's leaderboard, best rating first; the next page's offset (None: the last)."""
    limit = max(1, min(limit, PAGE_MAX))
    rows = ctx.players.player_page(key_id, variant, offset, limit + 1)
    page = [public_record(ref, raw, offset + i + 1) for i, (ref, raw) in enumerate(rows[:limit])]
    return page, (offset + limit if len(rows) > limit else None)
