"""Private tables (docs/integrators.md): a table an API key creates unlisted. It is in no public
lobby (the append writes no lobby row nor index for it), only in its key's own lobby; a seat is
taken with the invite code its owner holds (and can rotate); every read needs a token of the table
(owner, seat, or the spectator token its owner hands out and can rotate) or an auditor's. For anyone
else the table does not exist: the same 404 ``not_found`` as an unknown game id, before anything
about the table is read, so no answer, error detail or feed tells it apart; and an unknown id
without a token is refused at that same point (``gate``), before any check a route makes of the
request, so no route answers the two differently (tests/api/test_private_oracle.py, over the spec).

What makes a table private is recorded store-side with its creation, in its token hash (written by
the creating append): "meta:private", the SHA-256 of the invite code ("meta:invite") and of the
spectator token ("meta:watch"). Privacy never changes after creation, so each process remembers
the answer for the games it has seen (``ctx.privacy``, service/app/cache.py)."""
from __future__ import annotations

import hashlib
import hmac

from service.app import table_meta
from service.app.auth import Caller, new_token, token_hash
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError, forbidden, not_found
from service.app.table_meta import Meta
from service.games.kernel.codes import KernelCode

PRIVATE, INVITE, WATCH = Meta.PRIVATE, Meta.INVITE, Meta.WATCH  # fields of service/app/table_meta.py


def invite_hash(code: str) -> str:
    return hashlib.sha256(b"meow-invite\0" + code.encode("utf-8")).hexdigest()


def private_tokens(invite_code: str, spectator_token: str) -> dict[str, bytes]:
    """The token-hash fields a new private table is created with."""
    return table_meta.fields({PRIVATE: b"1", INVITE: invite_hash(invite_code).encode(),
                             WATCH: token_hash(spectator_token).encode()})


def new_invite_code(ctx: AppContext) -> str:
    return new_token(ctx.random_bytes)[:24]  # 144 bits: unguessable, short enough to paste


def is_private(ctx: AppContext, game_id: str, exists: bool = False) -> bool:
    """Whether the table was created private. ``exists``: the caller knows the game exists (it
    loaded it), so a "no" may be remembered; a "yes" is remembered always."""
    found = ctx.privacy.get(game_id)
    if found is not None:
        return found
    private = table_meta.get(ctx.tokens, game_id, PRIVATE) is not None
    if private or exists or ctx.cache.get(game_id) is not None:
        ctx.privacy.put(game_id, private)
    return private


def spectator(ctx: AppContext, game_id: str, thash: str) -> Caller | None:
    """The caller a private table's spectator token is (None: not that token)."""
    watch = table_meta.get(ctx.tokens, game_id, WATCH)
    if watch is not None and hmac.compare_digest(watch.decode(), thash):
        return Caller("spectator", None, thash)
    return None


def gate(ctx: AppContext, game_id: str, caller: Caller, invite: str | None = None) -> None:
    """A caller without a token of the table (nor an auditor's) meets a private table as no table
    at all (404 ``not_found``); ``invite``: a join that carries a code, let in when it is the
    table's, else 404 ``invite_invalid``."""
    if caller.token_hash is not None:
        return
    if not is_private(ctx, game_id):
        if ctx.privacy.get(game_id) is not None or _exists(ctx, game_id):
            return  # a public table
        # an unknown id is refused here too, before any check of the request (the owner's, the key's):
        # it answers as a private table does, whatever the route (tests/api/test_private_oracle.py)
        raise not_found() if invite is None else invite_invalid()
    if invite is None:
        _as_unknown(ctx, game_id)
        raise not_found()
    stored = table_meta.get(ctx.tokens, game_id, INVITE)
    if stored is None or not hmac.compare_digest(stored.decode(), invite_hash(invite)):
        _as_unknown(ctx, game_id)
        raise invite_invalid()


def _exists(ctx: AppContext, game_id: str) -> bool:
    """Whether the (public) table is there: loaded, so the route's own load finds it cached; an
    unknown id costs the reads ``_as_unknown`` repeats for a private table."""
    try:
        ctx.load(game_id)
    except AppError as exc:
        if exc.code == KernelCode.NOT_FOUND:
            return False
        raise
    return True


def _as_unknown(ctx: AppContext, game_id: str) -> None:
    """The store reads an unknown game id costs before its 404 (the privacy check, unanswered by
    the cache; a snapshot looked for; the stream's first event), so that a refusal of a private
    table takes the time of an unknown game's: the timing tells them apart no better than the answer."""
    table_meta.get(ctx.tokens, game_id, PRIVATE)
    if ctx.settings.snapshot_every > 0:
        ctx.snapshots.snapshot_get(game_id, 0)
    ctx.event_log.read_stored(game_id, after=0, count=1)


def invite_invalid() -> AppError:
    return AppError(AppCode.INVITE_INVALID, "no table takes this invite code")


def rotate(ctx: AppContext, game_id: str, caller: Caller, what: str) -> str:
    """A new invite code (``what`` "invite") or spectator token ("spectator") for the owner of a
    private table; the old one is refused from now on."""
    if not caller.is_owner:
        raise forbidden("only the owner hands out invite codes and spectator tokens")
    ctx.load(game_id)  # (an owner token of a game that went: not found)
    if not is_private(ctx, game_id, exists=True):
        raise AppError(AppCode.NOT_PRIVATE, "this table is public: anyone may join and watch it")
    if what == "invite":
        code = new_invite_code(ctx)
        ctx.tokens.meta_put(game_id, INVITE, invite_hash(code).encode())
    else:
        code = new_token(ctx.random_bytes)
        ctx.tokens.meta_put(game_id, WATCH, token_hash(code).encode())
    return code
