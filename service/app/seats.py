"""Tables, seats and the tokens that hold them: who a bearer token is (``authenticate``), creating a
table (its options resolved, the bots' search time capped, an owner token issued), taking a seat
(a human's token issued, a bot named) or leaving one (its token revoked, an owner who held it stays
owner), and starting the match. Fresh tokens are sealed into the idempotency record, so a retry
shows them again; each of these is one ``WritePlan`` on the write path."""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from service.app import api_keys, players, private_tables
from service.app.api_keys import ApiKey
from service.app.auth import SPECTATOR, Caller, caller_from_record, new_token, role_record, token_hash
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError, forbidden, unauthorized
from service.app.fairness import Origin, origin_tokens, take_bots_only_slots
from service.app.idempotency import Idempotency, Precondition
from service.app.write_path import Outcome, WritePlan, write
from service.games import registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import CreateMatch, Event, JoinSeat, LeaveSeat, RuleViolation, StartMatch
from service.games.kernel.state import TableState
from service.games.kernel.table import RULES_VERSION, seat_taken


def authenticate(ctx: AppContext, game_id: str, token: str | None, invite: str | None = None) -> Caller:
    """The caller a bearer token names: none is a spectator, an unknown one is 401. Without a
    token, a private table is no table (404) unless ``invite`` is its invite code (a join);
    its spectator token is a spectator (service/app/private_tables.py)."""
    if not token:
        private_tables.gate(ctx, game_id, SPECTATOR, invite)
        return SPECTATOR
    thash = token_hash(token)
    if thash in ctx.settings.audit_token_hashes:
        return Caller("audit", None, thash)
    record = ctx.tokens.token_get(game_id, thash)
    if record is None:
        watcher = private_tables.spectator(ctx, game_id, thash)
        if watcher is None:
            raise unauthorized()
        return watcher
    return caller_from_record(record, thash)


def require_seat(caller: Caller) -> int:
    """Seat-only endpoints: no token is 401 (API.md: a missing token), a seatless token 403; else the seat."""
    if caller.role == "spectator":
        raise unauthorized("this needs a seat token")
    if caller.seat is None:
        raise forbidden("only a seated player has actions")
    return caller.seat


def create(ctx: AppContext, variant: str, options: dict[str, Any], max_players: int | None, name: str | None,
           idem: Idempotency | None, origin: Origin | None = None, key: ApiKey | None = None,
           private: bool = False) -> Outcome:
    """A new table; with an API key, that key's (``table_key``, listed in its own lobby), and
    ``private``: unlisted, with an invite code and a spectator token shown once."""
    if private and key is None:
        raise AppError(AppCode.KEY_REQUIRED, "a private table is an API key's: send its Meow-Key")
    resolved, warnings = _resolve(variant, options, max_players)
    resolved, warnings = _cap_budget(resolved, warnings, ctx.settings.max_bot_budget_ms)
    if idem:  # anonymous creation: the game id follows from the key, so a retry finds it
        scope = f"{key.id}\0".encode() if key is not None else b""  # another key's twin is another game
        game_id = hashlib.sha256(b"meow-create\0" + scope + idem.key.encode()).hexdigest()[:16]
    else:
        game_id = ctx.random_bytes(8).hex()
    owner = new_token(ctx.random_bytes)
    cmd = CreateMatch(game_id, variant, resolved, resolved["max_players"], name, RULES_VERSION)
    tokens = {token_hash(owner): role_record("owner"), "owner": token_hash(owner).encode(), **origin_tokens(origin),
              **api_keys.key_tokens(key)}
    sealed = {"owner_token": owner}
    if private:
        sealed["invite_code"], sealed["spectator_token"] = private_tables.new_invite_code(ctx), new_token(ctx.random_bytes)
        tokens.update(private_tables.private_tokens(sealed["invite_code"], sealed["spectator_token"]))
    if key is not None:  # listed first: a create that then fails leaves a row its lobby skips (and drops)
        ctx.api_keys.key_game_add(key.id, game_id, ctx.clock(), ctx.settings.key_games_max)
    out = write(ctx, game_id, SPECTATOR, WritePlan(
        lambda s: cmd, idempotency=idem, tokens=tokens, status=201,
        extra={"id": game_id, "warnings": warnings, "private": private}, new_game=True, sealed=sealed))
    for name_, value in sealed.items():
        out.extra.setdefault(name_, value)
    return out


def join(ctx: AppContext, game_id: str, caller: Caller, name: str | None, bot: dict[str, Any] | None,
         idem: Idempotency | None, invite: str | None = None, player: tuple[str, str] | None = None,
         held: tuple[Mapping[str, bytes], Precondition] | None = None) -> Outcome:
    """A seat for a human or a bot; ``player`` (key id, ref): the seat carries that key's player;
    ``held``: a human's join writes these token-hash fields too, at the version it saw (quick play's
    seats per address, service/app/quickplay.py)."""
    if caller.role == "spectator" and caller.token_hash is not None:  # a private table's spectator token:
        private_tables.gate(ctx, game_id, SPECTATOR, invite)  # a seat needs the invite code all the same
        caller = SPECTATOR
    if invite is None or caller.token_hash is not None:
        return _join(ctx, game_id, caller, name, bot, idem, player, held)
    try:  # a join with an invite code: an unknown game answers as a private table's wrong code would
        return _join(ctx, game_id, caller, name, bot, idem, player)
    except AppError as exc:
        if exc.code == KernelCode.NOT_FOUND:
            raise private_tables.invite_invalid() from None
        raise


def _join(ctx: AppContext, game_id: str, caller: Caller, name: str | None, bot: dict[str, Any] | None,
          idem: Idempotency | None, player: tuple[str, str] | None = None,
          held: tuple[Mapping[str, bytes], Precondition] | None = None) -> Outcome:
    with_player = players.tokens_for_join(*(player or (None, None)))
    if bot is not None:
        if not caller.is_owner:
            raise forbidden("only the owner adds bots")
        cmd = JoinSeat(name or "", "bot", bot.get("strength"), False)
        return write(ctx, game_id, caller, WritePlan(lambda s: _named(cmd, s), idempotency=idem, status=201,
                                                     extra_from_events=_seat_extra, tokens_from_events=with_player))
    if caller.is_owner and caller.seat is not None:
        raise AppError(KernelCode.ALREADY_SEATED, "the owner already has a seat")
    if caller.role == "seat":
        raise AppError(KernelCode.ALREADY_SEATED, "this token already holds a seat; join without a token")
    token = new_token(ctx.random_bytes)
    thash = token_hash(token)
    creator = caller.is_owner

    def tokens_for(events: Sequence[Event]) -> dict[str, bytes]:
        seat = seat_taken(events)
        out = {thash: role_record("seat", seat), f"seat:{seat}": thash.encode()}
        if creator and caller.token_hash:
            out[caller.token_hash] = role_record("owner", seat)
        return {**out, **(with_player(events) if with_player else {}), **(held[0] if held else {})}

    out = write(ctx, game_id, caller, WritePlan(
        lambda s: JoinSeat(name or "", "human", None, creator), idempotency=idem, status=201,
        tokens_from_events=tokens_for, extra_from_events=_seat_extra, sealed={"token": token},
        precondition=held[1] if held else None))
    out.extra.setdefault("token", token)
    return out


def leave(ctx: AppContext, game_id: str, caller: Caller, seat: int, idem: Idempotency | None = None,
          pre: Precondition | None = None) -> Outcome:
    if not (caller.is_owner or (caller.role == "seat" and caller.seat == seat)):
        raise forbidden("only that seat or the owner can remove a seat")
    tokens, revoke = seat_tokens_revoked(ctx, game_id, seat)
    return write(ctx, game_id, caller, WritePlan(lambda s: LeaveSeat(seat), idempotency=idem, tokens=tokens,
                                                 revoke=revoke, precondition=pre))


def seat_tokens_revoked(ctx: AppContext, game_id: str, seat: int) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """§3.10: the leaver's seat token is revoked; an owner who held that seat stays owner."""
    revoke: list[str] = []
    seat_hash = ctx.tokens.token_get(game_id, f"seat:{seat}")
    if seat_hash:
        revoke += [seat_hash.decode(), f"seat:{seat}"]
    tokens: dict[str, bytes] = {}
    owner_hash = ctx.tokens.token_get(game_id, "owner")
    if owner_hash:
        rec = ctx.tokens.token_get(game_id, owner_hash.decode())
        if rec and orjson.loads(rec).get("seat") == seat:
            tokens[owner_hash.decode()] = role_record("owner")
    return tokens, tuple(revoke)


def start(ctx: AppContext, game_id: str, caller: Caller, idem: Idempotency | None = None,
          pre: Precondition | None = None) -> Outcome:
    if not caller.is_owner:
        raise forbidden("only the owner starts the game")
    taken = take_bots_only_slots(ctx, game_id, ctx.load(game_id))  # bots_only_limit beyond the caps
    try:
        return write(ctx, game_id, caller, WritePlan(lambda s: StartMatch(), idempotency=idem, precondition=pre))
    except BaseException:
        ctx.leases.lease_release_many(taken)
        raise


def _resolve(variant: str, options: dict[str, Any], max_players: int | None) -> tuple[dict[str, Any], list]:
    try:
        game = registry.for_variant(variant)
        if max_players is None:
            max_players = options.get("max_players", game.preset_defaults(variant)["max_players"])
        return game.resolve_options(variant, options, max_players)
    except RuleViolation as rv:
        raise AppError(rv.code, rv.detail, **rv.extra) from rv


def _cap_budget(resolved: dict[str, Any], warnings: list, cap_ms: int) -> tuple[dict[str, Any], list]:
    """The operator caps hard bots' search time (MEOW_MAX_BOT_BUDGET_MS): a table asking for more
    is created with the cap, and told so in ``warnings``."""
    asked = resolved.get("hard_bot_budget_ms")
    if asked is None or asked <= cap_ms:
        return resolved, warnings
    return ({**resolved, "hard_bot_budget_ms": cap_ms},
            [*warnings, {"option": "hard_bot_budget_ms",
                         "detail": f"this server searches at most {cap_ms} ms: {asked} was lowered to {cap_ms}"}])


def _named(cmd: JoinSeat, state: TableState | None) -> JoinSeat:
    """A bot added without a name is called after its seat."""
    if cmd.name or state is None:
        return cmd
    return JoinSeat(f"bot {len(state.seats)}", cmd.kind, cmd.strength, cmd.creator)


def _seat_extra(events: Sequence[Event]) -> dict[str, Any]:
    return {"seat": seat_taken(events)}


def create_at(ctx: AppContext, game_id: str, variant: str, options: dict[str, Any], max_players: int | None,
              name: str | None, tokens: dict[str, bytes]) -> Outcome:
    """A new table under a chosen id (a rematch's, quick play's) with the given token records; a
    taken id is 409 ``game_exists`` (the caller's retry finds its table there)."""
    resolved, warnings = _resolve(variant, options, max_players)
    resolved, warnings = _cap_budget(resolved, warnings, ctx.settings.max_bot_budget_ms)
    cmd = CreateMatch(game_id, variant, resolved, resolved["max_players"], name, RULES_VERSION)
    return write(ctx, game_id, SPECTATOR, WritePlan(lambda s: cmd, tokens=tokens, status=201,
                                                    extra={"id": game_id, "warnings": warnings}, new_game=True))


def resolve_variant(variant: str) -> None:
    """A variant this server serves, else 422 ``unknown_variant``."""
    _resolve(variant, {}, None)
