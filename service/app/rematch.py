"""Rematch (issue 30 item 5): the owner of a finished table asks for a new one with the same
variant, options, name and seats, in the same order. Its id follows from the old one's, so asking
twice gives the same rematch (a second ask finishes seating it, if the first was cut short), and
the old table's view names it (``rematch``) once it exists. Every token carries over: the owner's
token owns the rematch, each human's seat token holds the same seat there (no new secret to hand
out; a human who does not want to play again leaves that seat), bots are seated again, and the
seats' players (service/app/players.py) stay theirs. The rematch belongs to the same API key, and a
private table's rematch is private with a fresh invite code and spectator token (issue 37): the
seated players carry over without them, the old table's code admits no one to the rematch and its
spectator token watches only the old table. The ask that makes the rematch returns the new code and
token to the owner (once, as a private create does); a later ask does not (the owner rotates them
with ``POST /v1/games/{id}/invite`` and ``/spectator-token`` if that answer was lost)."""
from __future__ import annotations

import hashlib

import orjson

from service.app import players, private_tables, seats, table_meta
from service.app.api_keys import KEY_META
from service.app.auth import SPECTATOR, Caller, new_token, role_record
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError, forbidden
from service.app.idempotency import Precondition
from service.app.write_path import MAX_ATTEMPTS, Outcome, WritePlan, write
from service.games.kernel.model import JoinSeat
from service.games.kernel.state import Seat, TableState

CARRIED = (table_meta.field(KEY_META),)
"""The old table's store-side fields its rematch keeps: its key (a private table's privacy is kept
with fresh codes: ``_private``)."""


def rematch_id(game_id: str) -> str:
    """The rematch's id: derived from the old table's, so a second ask finds the same table."""
    return hashlib.sha256(b"meow-rematch\0" + game_id.encode()).hexdigest()[:16]


def link(ctx: AppContext, state: TableState) -> str | None:
    """The id of a finished table's rematch, once it exists (what its view's ``rematch`` says)."""
    if state.status != "finished":
        return None
    rid = rematch_id(state.id)
    return rid if ctx.event_log.version(rid) > 0 else None


def rematch(ctx: AppContext, game_id: str, caller: Caller) -> tuple[str, bool, dict[str, str]]:
    """The rematch of a finished table (the owner only): its id, whether this ask made it, and a
    private table's fresh ``invite_code`` and ``spectator_token`` (only to the ask that made it)."""
    if not caller.is_owner:
        raise forbidden("only the owner asks for a rematch")
    old = ctx.load(game_id)
    if old.status != "finished":
        raise AppError(AppCode.GAME_RUNNING, "a rematch is for a finished table")
    rid = rematch_id(game_id)
    carried = [s for s in old.seats if s.state != "left"]
    made, codes = False, {}
    if ctx.event_log.version(rid) == 0:
        owner_hash = _get(ctx, game_id, "owner")
        owner_seat = next((i for i, s in enumerate(carried) if s.creator), None)
        tokens: dict[str, bytes] = {}
        if owner_hash:
            tokens = {owner_hash: role_record("owner", owner_seat), "owner": owner_hash.encode()}
        for field in CARRIED:  # the same key's
            value = _get(ctx, game_id, field)
            if value is not None:
                tokens[field] = value.encode()
        codes = _private(ctx, game_id)
        if codes:
            tokens.update(private_tables.private_tokens(codes["invite_code"], codes["spectator_token"]))
        key = _get(ctx, game_id, table_meta.field(KEY_META))
        if key:  # listed in the key's own lobby (first, as a keyed create does)
            ctx.api_keys.key_game_add(key, rid, ctx.clock(), ctx.settings.key_games_max)
        opts = {k: v for k, v in old.options.items() if k != "max_players"}
        try:
            seats.create_at(ctx, rid, old.variant, orjson.loads(orjson.dumps(opts)), old.max_players, old.name, tokens)
            made = True
        except AppError as exc:
            if exc.code != AppCode.GAME_EXISTS:
                raise
    _seat_all(ctx, game_id, rid, carried)
    return rid, made, codes if made else {}


def _private(ctx: AppContext, game_id: str) -> dict[str, str]:
    """A private table's rematch is private with a fresh invite code and spectator token (none of
    the old table's: whoever holds those is not let in); a public table's: nothing."""
    if not private_tables.is_private(ctx, game_id, exists=True):
        return {}
    return {"invite_code": private_tables.new_invite_code(ctx), "spectator_token": new_token(ctx.random_bytes)}


def _seat_all(ctx: AppContext, old_id: str, rid: str, carried: list[Seat]) -> None:
    """Seat the old table's seats at the rematch in order, from the first not yet seated (each
    join guarded by the version it saw, so two asks at once never seat anyone twice)."""
    for _ in range(MAX_ATTEMPTS * max(1, len(carried))):
        state = ctx.load(rid)
        n = len(state.seats)
        if state.status != "open" or n >= len(carried):
            return
        try:
            _join(ctx, old_id, rid, carried[n], n, state.version)
        except AppError as exc:
            if exc.code != AppCode.VERSION_CONFLICT:
                raise


def _join(ctx: AppContext, old_id: str, rid: str, seat: Seat, new_seat: int, version: int) -> Outcome:
    tokens: dict[str, bytes] = {}
    if seat.kind == "human":
        thash = _get(ctx, old_id, f"seat:{seat.seat}")
        if thash:
            tokens.update({thash: role_record("seat", new_seat), f"seat:{new_seat}": thash.encode()})
        owner = _get(ctx, old_id, "owner")
        if seat.creator and owner:
            tokens[owner] = role_record("owner", new_seat)
    raw = ctx.tokens.token_get(old_id, players.seat_field(seat.seat))
    if raw:
        rec = orjson.loads(raw)
        tokens.update(players.seat_tokens(new_seat, rec["key"], rec["ref"]))
    cmd = JoinSeat(seat.name, seat.kind, seat.strength, seat.creator)
    return write(ctx, rid, SPECTATOR, WritePlan(lambda s: cmd, tokens=tokens, status=201,
                                                precondition=Precondition(version, "body")))


def _get(ctx: AppContext, game_id: str, field: str) -> str | None:
    raw = ctx.tokens.token_get(game_id, field)
    return raw.decode() if raw else None
