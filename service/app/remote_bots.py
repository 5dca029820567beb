"""Remote bots (docs/remote-bots.md): bots that live on their authors' servers, registered under an API
key and seated by a table's owner like a built-in strength (the seat's strength is ``remote``, the
kernel's ``REMOTE``; which bot plays it is kept beside the game's tokens, ``remote:<seat>``, written
with the join). Whenever the seat has legal actions, a job on the remote lane POSTs the seat's view —
exactly what a human there would get from GET /v1/games/{id} — signed (service/outbound/signing.py),
with the table's deadline, and applies the answer on the one write path. A failed call (a timeout, an
error status, a malformed or illegal answer) gives the seat its default action (RULES §2.7, as a timed
out human) and counts; after ``remote_bot_failures`` in a row the bot is away and its seats play as an
absent seat's autopilot until a health check finds it answering again. Its secret never leaves this
module but in the answer that creates or rotates it."""
from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from service.app import credentials, followups as fu, queries
from service.app.actions import bot_write
from service.app.auth import Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError, not_found
from service.app.idempotency import Idempotency, Precondition
from service.app.write_path import MAX_ATTEMPTS, Outcome, WritePlan, write
from service.eventstore.versioned import CONFLICT, MISSING, OK
from service.games import engine, registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.due import Kind
from service.games.kernel.model import Event, JoinSeat
from service.games.kernel.state import TableState
from service.games.kernel.table import REMOTE, seat_taken
from service.integrations.remote_bots.jobs import RemoteKind, health_check
from service.outbound import http as outbound
from service.outbound.signing import sign

log = logging.getLogger("meow.remote_bots")

KIND = REMOTE
"""The bot kind a seat names to be played by a registered bot (``{"bot": {"remote": <id>}}``) and the
seat's strength in every view: a stable name (arenas seat registered bots through ``seat_remote_bot``)."""
BINDING = "remote"
"""The first part of the store-side field naming a seat's bot (``remote:<seat>``)."""
FAILURES = ("timeout", "status", "malformed", "illegal", "refused")
"""Why a call failed, as counted (``failed_<why>``): no answer in time, an error status, an answer that
is no JSON action, an action not among the legal ones, a call the outbound client would not make."""
BUSY_RETRY_MS = 100  # a bot or host at its concurrency cap: its turn is asked again this much later
GRACE_RETRY_MS = 250  # another seat's announcement grace holds the answer back
MARGIN_MS = 150  # a call ends this long before the table's deadline, so its answer can still be applied
MIN_CALL_MS = 50  # less time than this to the deadline: no call, the seat's timer answers
HEALTH_TIMEOUT_MS = 2000
LEASE_MARGIN_MS = 5000  # a call's place among the bot's and host's calls outlives its budget by this much
MAX_NAME = 40
MAX_GAMES = 16


@dataclass(frozen=True)
class RemoteBot:
    """A registered bot: its public id, the API key that owns it, its name, URL and variants."""

    id: str
    owner: str  # the owning API key's id
    name: str
    url: str
    games: tuple[str, ...]
    created_at: int
    secret: str = field(repr=False, default="")  # signs its calls; never in an answer but the creating one
    version: int = 0  # one more with each change (registered: 1; service/app/credentials.py)

    def public(self, counts: Mapping[str, int]) -> dict[str, Any]:
        """The bot as its owner sees it: everything but the secret, with its counters."""
        stats = {name: int(counts.get(name, 0)) for name in ("calls", "answered", "failures", "consecutive", "went_away")}
        stats.update({f"failed_{why}": int(counts.get(f"failed_{why}", 0)) for why in FAILURES})
        return {"id": self.id, "name": self.name, "url": self.url, "games": list(self.games),
                "created_at": self.created_at, "status": "away" if counts.get("away") else "ok", "stats": stats,
                "version": self.version}

    def record(self) -> bytes:
        return orjson.dumps({"id": self.id, "owner": self.owner, "name": self.name, "url": self.url,
                             "games": list(self.games), "created_at": self.created_at, "secret": self.secret,
                             "version": self.version})

    @staticmethod
    def of(raw: bytes) -> RemoteBot:
        d = orjson.loads(raw)
        return RemoteBot(d["id"], d["owner"], d["name"], d["url"], tuple(d["games"]), int(d["created_at"]),
                         d["secret"], int(d.get("version") or 0))


# ---------------------------------------------------------------------------- the registry


def register(ctx: AppContext, owner: str, name: str, url: str, games: list[str]) -> tuple[RemoteBot, str]:
    """A new bot of ``owner`` (an API key id): its record and its secret, shown this once."""
    _check(ctx, url, games)
    bot = RemoteBot("b" + ctx.random_bytes(6).hex(), owner, name[:MAX_NAME], url, tuple(dict.fromkeys(games)),
                    ctx.clock(), _new_secret(), 1)
    if not ctx.bot_records.bot_create(owner, bot.id, bot.record(), ctx.settings.remote_bots_per_key,
                                      credentials.entry(bot.created_at, "created", 1, owner), credentials.LOG_KEEP):
        raise AppError(AppCode.BOT_LIMIT, f"this key has {ctx.settings.remote_bots_per_key} bots: delete one first",
                       limit=ctx.settings.remote_bots_per_key)
    return bot, bot.secret


def owned(ctx: AppContext, owner: str, bot_id: str) -> RemoteBot:
    """``owner``'s bot ``bot_id``; anyone else's (or none) is not found."""
    raw = ctx.bot_records.bot_load(bot_id) if _plausible(bot_id) else None
    bot = RemoteBot.of(raw) if raw is not None else None
    if bot is None or bot.owner != owner:
        raise not_found("bot")
    return bot


def listing(ctx: AppContext, owner: str) -> list[dict[str, Any]]:
    out = []
    for bot_id in ctx.bot_records.bot_ids(owner):
        raw = ctx.bot_records.bot_load(bot_id)
        if raw is not None:
            out.append(RemoteBot.of(raw).public(ctx.bot_records.bot_counts(bot_id)))
    return out


def show(ctx: AppContext, owner: str, bot_id: str) -> dict[str, Any]:
    bot = owned(ctx, owner, bot_id)
    return bot.public(ctx.bot_records.bot_counts(bot.id))


def rotate(ctx: AppContext, owner: str, bot_id: str, pre: Precondition | None = None) -> tuple[RemoteBot, str]:
    """A new secret for ``owner``'s bot (the old one stops signing at once), shown this once: by
    compare-and-set on the version read (or ``pre``, If-Match), so of concurrent rotations one
    succeeds, and a bot deleted meanwhile stays deleted (404)."""
    bot = owned(ctx, owner, bot_id)
    credentials.expect("bot", bot.version, pre)
    fresh = dataclasses.replace(bot, secret=_new_secret(), version=bot.version + 1)
    done = ctx.bot_records.bot_change(owner, bot.id, bot.version, fresh.record(),
                                      credentials.entry(ctx.clock(), "rotated", fresh.version, owner),
                                      credentials.LOG_KEEP)
    if done.status == MISSING or done.record is None:
        raise not_found("bot")
    if done.status == CONFLICT:
        raise credentials.conflict("bot", RemoteBot.of(done.record).version, pre)
    return fresh, fresh.secret


def delete(ctx: AppContext, owner: str, bot_id: str, pre: Precondition | None = None) -> None:
    """Unregister ``owner``'s bot, for good: the seats it held play as the autopilot from their next
    turn on. Needs only that it exists (or, with ``pre``, that it is still at that version)."""
    for _ in range(credentials.RETRIES):
        bot = owned(ctx, owner, bot_id)
        credentials.expect("bot", bot.version, pre)
        done = ctx.bot_records.bot_change(owner, bot.id, bot.version, None,
                                          credentials.entry(ctx.clock(), "deleted", bot.version + 1, owner),
                                          credentials.LOG_KEEP)
        if done.status == OK:
            _deleted(ctx, bot.id)
            return
        if done.status == MISSING:
            raise not_found("bot")
    raise credentials.conflict("bot", owned(ctx, owner, bot_id).version, pre)


def audit_log(ctx: AppContext, owner: str, bot_id: str) -> list[dict[str, Any]]:
    """The audit log of ``owner``'s bot, newest first; a deleted bot's while it is kept
    (``LOG_TTL_S``); another key's bot, or none: not found."""
    raws = ctx.bot_records.bot_log(owner, bot_id, credentials.LOG_KEEP) if _plausible(bot_id) else []
    if not raws:
        owned(ctx, owner, bot_id)  # a bot registered before the logs: an empty log
    return credentials.log(raws)


def _new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def _plausible(bot_id: str) -> bool:
    return 2 <= len(bot_id) <= 32 and bot_id.isascii() and bot_id.isalnum()


def _check(ctx: AppContext, url: str, games: list[str]) -> None:
    unknown = [g for g in games if g not in registry.BY_VARIANT]
    if not games or unknown or len(games) > MAX_GAMES:
        raise AppError(KernelCode.INVALID_REQUEST, f"games: name 1 to {MAX_GAMES} variants of GET /v1/variants",
                       errors=[{"field": "games", "detail": f"unknown variant {g!r}"} for g in unknown])
    try:
        outbound.check_url(url, allow_private=ctx.settings.outbound_allow_private)
    except outbound.OutboundRefused as exc:
        raise AppError(AppCode.URL_REFUSED, f"this URL cannot be called: {exc.reason}", reason=exc.reason) from exc


# ---------------------------------------------------------------------------- seating


def seat_remote_bot(ctx: AppContext, game_id: str, caller: Caller, owner: str, bot_id: str,
                    idem: Idempotency | None = None) -> Outcome:
    """The table's owner (``caller``) seats ``owner``'s bot ``bot_id`` (owner: the API key id): a bot
    seat of strength ``remote``, its bot recorded beside the game's tokens in the same append."""
    if not caller.is_owner:
        raise AppError(AppCode.FORBIDDEN, "only the owner adds bots")
    bot = owned(ctx, owner, bot_id)

    def command(state: TableState | None) -> JoinSeat:
        if state is not None and state.variant not in bot.games:
            raise AppError(KernelCode.INVALID_REQUEST, f"bot {bot.id} does not play {state.variant}",
                           errors=[{"field": "remote", "detail": "variant_not_played"}])
        return JoinSeat(bot.name, "bot", REMOTE, False)

    def binding(events: list[Event] | Any) -> dict[str, bytes]:
        return {f"{BINDING}:{seat_taken(events)}": bot.id.encode()}

    return write(ctx, game_id, caller, WritePlan(command, idempotency=idem, status=201, tokens_from_events=binding,
                                                 extra_from_events=lambda ev: {"seat": seat_taken(ev)}))


def plays(state: TableState, seat: int) -> bool:
    """Whether a registered remote bot plays ``seat`` (its strength is ``remote``)."""
    return fu.remote_seat(state, seat)


def bot_of_seat(ctx: AppContext, game_id: str, seat: int) -> RemoteBot | None:
    """The bot that plays ``seat``, or None (the binding is gone, or the bot was deleted)."""
    bot_id = ctx.tokens.token_get(game_id, f"{BINDING}:{seat}")
    raw = ctx.bot_records.bot_load(bot_id.decode()) if bot_id else None
    return RemoteBot.of(raw) if raw is not None else None


def away(ctx: AppContext, game_id: str, seat: int) -> bool:
    """The seat's bot is gone or away: its seat plays as the autopilot (the game's easy bot)."""
    bot = bot_of_seat(ctx, game_id, seat)
    return bot is None or bool(ctx.bot_records.bot_counts(bot.id).get("away"))


# ---------------------------------------------------------------------------- the remote lane


AUTOPILOT = "autopilot"
"""``run``'s answer when the seat's bot is away or gone: the caller (service/app/jobs.py) plays the
seat as an absent seat's autopilot, the game's easy bot."""


def run(ctx: AppContext, payload: Mapping[str, Any]) -> str:
    """Serve one remote-lane job: a seat's turn, or an away bot's health check."""
    if payload["kind"] == RemoteKind.HEALTH:
        return health(ctx, str(payload["key"]))
    return remote_turn(ctx, str(payload["game"]), int(payload["seat"]), int(payload["opened_seq"]),
                       int(payload.get("attempt", 0)), payload.get("chosen"))


def owner_of_job(ctx: AppContext, payload: Mapping[str, Any]) -> str:
    """The API key that owns the bot a remote-lane job calls ("" when the bot is gone): the remote
    lane shares its threads across these keys (workers/remote_lane.py)."""
    if payload.get("kind") == RemoteKind.HEALTH:
        raw = ctx.bot_records.bot_load(str(payload.get("key", "")))
        bot = RemoteBot.of(raw) if raw is not None else None
    else:
        bot = bot_of_seat(ctx, str(payload.get("game", "")), int(payload.get("seat", 0)))
    return bot.owner if bot is not None else ""


def _open(state: TableState, seat: int, opened_seq: int) -> bool:
    return any(d.kind == Kind.BOT and d.seat == seat and d.opened_seq == opened_seq for d in engine.pending_work(state))


def _deadline(view: Mapping[str, Any]) -> int | None:
    turn = view.get("turn")
    deadline = turn.get("deadline") if isinstance(turn, Mapping) else None
    return int(deadline) if isinstance(deadline, int) else None


def remote_turn(ctx: AppContext, game_id: str, seat: int, opened_seq: int, attempt: int = 0,
                chosen: Mapping[str, Any] | None = None) -> str:
    """Ask the seat's bot for its action and apply it; a closed turn closes it (RULES §2.6)."""
    if chosen is not None:
        return _apply(ctx, None, game_id, seat, opened_seq, dict(chosen), attempt)
    state, view = queries.view(ctx, game_id, Caller("seat", seat))
    if not _open(state, seat, opened_seq):
        return "closed"
    bot = bot_of_seat(ctx, game_id, seat)
    if bot is None or ctx.bot_records.bot_counts(bot.id).get("away"):
        return AUTOPILOT
    legal = list(view.get("you", {}).get("legal_actions") or [])
    now = ctx.clock()
    if not legal:  # another seat's announcement grace holds closing actions back
        ctx.due_queue.schedule(fu.remote_turn(game_id, seat, opened_seq, now + GRACE_RETRY_MS, attempt))
        return "deferred"
    deadline = _deadline(view)
    budget = ctx.settings.remote_bot_timeout_ms
    if deadline is not None:
        budget = min(budget, deadline - now - MARGIN_MS)
    if budget < MIN_CALL_MS:
        return "late"  # no time left to ask: the seat's timer plays its default
    held = _slots(ctx, bot, f"{game_id}-{seat}-{opened_seq}-{attempt}", now, budget)
    if held is None:
        ctx.due_queue.schedule(fu.remote_turn(game_id, seat, opened_seq, now + BUSY_RETRY_MS, attempt))
        return "busy"
    body = orjson.dumps({"type": "turn", "bot": bot.id, "game": game_id, "variant": state.variant,
                         "version": state.version, "seat": seat, "deadline": deadline, "view": view})
    try:
        action, why = _ask(ctx, bot, body, f"{game_id}-{seat}-{state.version}", budget, legal)
    finally:
        ctx.leases.lease_release_many(held)
    if why is not None:
        return _failed(ctx, bot, why, game_id, seat, opened_seq)
    assert action is not None
    return _apply(ctx, bot, game_id, seat, opened_seq, action, attempt)


def _slots(ctx: AppContext, bot: RemoteBot, member: str, now: int, budget: int) -> list[tuple[str, str]] | None:
    """A place among the bot's and its host's calls in flight, or None (either is at its cap)."""
    host = _host(bot.url)
    held: list[tuple[str, str]] = []
    for name, cap in ((ctx.leases.lease_name("rbot", bot.id), ctx.settings.remote_bot_concurrency),
                      (ctx.leases.lease_name("rhost", host), ctx.settings.remote_host_concurrency)):
        if not ctx.leases.lease_acquire(name, member, cap, now, budget + LEASE_MARGIN_MS):
            ctx.leases.lease_release_many(held)
            return None
        held.append((name, member))
    return held


def _host(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0].rsplit("@", 1)[-1].lower()[:255]


def _ask(ctx: AppContext, bot: RemoteBot, body: bytes, delivery: str, budget_ms: int,
         legal: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str | None]:
    """The bot's action for ``body``, or why there is none (one of FAILURES)."""
    headers = {"User-Agent": "meow-remote-bot/1", **sign(bot.secret, body, timestamp=ctx.clock() // 1000,
                                                         delivery_id=delivery)}
    try:
        reply = outbound.post_json(bot.url, body, headers, timeout_s=budget_ms / 1000,
                                   max_bytes=ctx.settings.remote_bot_max_bytes,
                                   allow_private=ctx.settings.outbound_allow_private)
    except outbound.OutboundRefused as exc:
        return None, "timeout" if exc.reason == "timeout" else "refused"
    if not 200 <= reply.status < 300:
        return None, "status"
    try:
        answer = orjson.loads(reply.body)
    except orjson.JSONDecodeError:
        return None, "malformed"
    action = answer.get("action", answer) if isinstance(answer, dict) else None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None, "malformed"
    if action not in legal:
        return None, "illegal"
    return action, None


def _apply(ctx: AppContext, bot: RemoteBot | None, game_id: str, seat: int, opened_seq: int,
           action: dict[str, Any], attempt: int) -> str:
    """Write the bot's answer against the latest state while its turn is open; an answer the table
    moved past (it changed while the bot thought) is asked for again, twice at most."""
    for _ in range(MAX_ATTEMPTS):
        state = ctx.load(game_id)
        if not _open(state, seat, opened_seq):
            return "closed"
        now = ctx.clock()
        if action not in engine.legal_actions(state, seat, now):
            if attempt < 2:
                ctx.due_queue.schedule(fu.remote_turn(game_id, seat, opened_seq, now, attempt + 1))
                return "asked_again"
            return "stale"  # the seat's timer answers
        outcome = bot_write(ctx, game_id, state, seat, action)
        if outcome == "grace":
            ctx.due_queue.schedule(fu.remote_turn(game_id, seat, opened_seq, now + GRACE_RETRY_MS, attempt, action))
            return "deferred"
        if outcome == "moved":
            if bot is not None:
                ctx.bot_records.bot_count(bot.id, {"calls": 1, "answered": 1}, reset={"consecutive": 0})
            return "moved"
    return "busy"


def _failed(ctx: AppContext, bot: RemoteBot, why: str, game_id: str, seat: int, opened_seq: int) -> str:
    """Count the failure; the bot goes away after too many in a row; the seat gets its default
    (only in the turn it was asked for: a call that outlived it plays nothing on a later one)."""
    count_failure(ctx, bot, why, game_id, seat)
    return play_default(ctx, game_id, seat, opened_seq)


def count_failure(ctx: AppContext, bot: RemoteBot, why: str, game_id: str, seat: int) -> None:
    """Count a failed call; after ``remote_bot_failures`` in a row the bot is away, and its first
    health check is due (on the service's own due set)."""
    counts = ctx.bot_records.bot_count(bot.id, {"calls": 1, "failures": 1, f"failed_{why}": 1, "consecutive": 1})
    log.info("remote bot %s failed at %s seat %d: %s", bot.id, game_id, seat, why)
    tipping = counts.get("consecutive", 0) >= ctx.settings.remote_bot_failures and not counts.get("away")
    if tipping and ctx.bot_records.bot_count(bot.id, {"away": 1}).get("away") == 1:  # one failure sends it away
        ctx.bot_records.bot_count(bot.id, {"went_away": 1})
        log.warning("remote bot %s is away after %d failures in a row", bot.id, counts["consecutive"])
        ctx.due_queue.schedule(health_check(bot.id, ctx.clock() + ctx.settings.remote_bot_health_ms))


def arena_turn(ctx: AppContext, game: AppContext, game_id: str, seat: int, bot_id: str, *,
               arena_id: str) -> tuple[str, dict[str, Any] | None]:
    """An arena game's remote seat (service/app/arena_play.py), asked synchronously from the arena's
    job: ``("action", <one of its legal actions>)``; ``("default", None)`` after a failed call,
    counted as on a table (the caller plays the seat's default action); ``("autopilot", None)`` when
    the bot is away or gone (the caller plays the game's easy bot). ``ctx``: the service's own
    context (the real clock signs the call; counts and health checks go to the real store);
    ``game``: the arena game's (its view, at the game's own clock). The call waits at most
    ``remote_bot_timeout_ms``: the game's clock is virtual, so its deadline is no bound for the call.
    A bot or host at its concurrency cap is waited for (at most that long again plus the
    lease's margin); still busy, the seat plays its default, not counted as the bot's failure."""
    raw = ctx.bot_records.bot_load(bot_id)
    bot = RemoteBot.of(raw) if raw is not None else None
    if bot is None or ctx.bot_records.bot_counts(bot.id).get("away"):
        return AUTOPILOT, None
    state, view = queries.view(game, game_id, Caller("seat", seat))
    legal = list(view.get("you", {}).get("legal_actions") or [])
    if not legal:
        return "default", None
    budget = ctx.settings.remote_bot_timeout_ms
    member = f"{game_id}-{seat}-{state.version}"
    give_up = time.monotonic() + (budget + LEASE_MARGIN_MS) / 1000
    while (held := _slots(ctx, bot, member, ctx.clock(), budget)) is None:
        if time.monotonic() > give_up:
            log.info("remote bot %s busy for arena %s game %s seat %d: its default", bot.id, arena_id, game_id, seat)
            return "default", None
        time.sleep(BUSY_RETRY_MS / 1000)
    body = orjson.dumps({"type": "turn", "bot": bot.id, "game": game_id, "variant": state.variant, "arena": arena_id,
                         "version": state.version, "seat": seat, "deadline": ctx.clock() + budget, "view": view})
    try:
        action, why = _ask(ctx, bot, body, member, budget, legal)
    finally:
        ctx.leases.lease_release_many(held)
    if why is not None:
        count_failure(ctx, bot, why, game_id, seat)
        return "default", None
    ctx.bot_records.bot_count(bot.id, {"calls": 1, "answered": 1}, reset={"consecutive": 0})
    return "action", action


def play_default(ctx: AppContext, game_id: str, seat: int, opened_seq: int | None = None) -> str:
    """RULES §2.7 as for a timed-out human: the seat's default actions until its turn ends (one
    failure); a game whose defaults only its timers play (Sakapuss) leaves it to the step's timer.
    ``opened_seq``: the turn the failed call was for; closed already (the turn timer, another
    seat's move), nothing is played: the seat's next turn is its own job's."""
    played, turn = 0, None
    for _ in range(MAX_ATTEMPTS):
        state = ctx.load(game_id)
        if turn is None and opened_seq is not None and not _open(state, seat, opened_seq):
            return "closed"
        now_turn = getattr(state.rnd, "turn_id", None)
        if turn is not None and now_turn != turn:
            break
        action = engine.default_action(state, seat)
        if action is None:
            break
        turn = now_turn
        outcome = bot_write(ctx, game_id, state, seat, action)
        if outcome == "grace":
            break  # the seat's timer plays it once the grace is over
        played += outcome == "moved"
    return "default" if played else "default_by_timer"


def _probe_answered(ctx: AppContext, bot: RemoteBot) -> bool:
    """Whether the bot answers a probe turn (the body a table's turn has, plus ``probe``) legally."""
    from service.app import remote_probe

    now = ctx.clock()
    known = [g for g in bot.games if g in registry.BY_VARIANT]
    turn = remote_probe.position(known[ctx.random_bytes(1)[0] % len(known)], now, ctx.random_bytes) if known else None
    if turn is None:
        log.warning("remote bot %s: no probe turn for its variants %s", bot.id, list(bot.games))
        return False
    deadline = now + HEALTH_TIMEOUT_MS
    body = orjson.dumps({"type": "turn", "probe": True, "bot": bot.id, "game": turn.game, "variant": turn.variant,
                         "version": turn.version, "seat": turn.seat, "deadline": deadline, "view": turn.view})
    _, why = _ask(ctx, bot, body, f"{turn.game}-{turn.seat}-{turn.version}", HEALTH_TIMEOUT_MS, turn.legal)
    if why is not None:
        log.info("remote bot %s failed its health check: %s", bot.id, why)
    return why is None


def health(ctx: AppContext, bot_id: str) -> str:
    """An away bot's health check: a signed turn of a probe game (service/app/remote_probe.py, marked
    ``"probe": true``) of a variant it registered; only one of that turn's legal actions brings it
    back (a bot that answers pings but not turns stays away), else the next check is due."""
    raw = ctx.bot_records.bot_load(bot_id)
    if raw is None:
        return "closed"
    bot = RemoteBot.of(raw)
    if not ctx.bot_records.bot_counts(bot_id).get("away"):
        return "closed"
    if _probe_answered(ctx, bot):
        ctx.bot_records.bot_count(bot_id, {}, reset={"away": 0, "consecutive": 0})
        log.warning("remote bot %s answers again", bot_id)
        return "back"
    ctx.due_queue.schedule(health_check(bot_id, ctx.clock() + ctx.settings.remote_bot_health_ms))
    return "away"


# ---------------------------------------------------------------------------- hooks

ON_DELETE: dict[str, Callable[[AppContext, str], None]] = {}
"""What else a deleted bot leaves, by feature (``(ctx, bot id)``): the arenas' leaderboards
(service/api/arenas.py registers it). Run after the delete; a failure is logged, not raised (the
delete happened; a leaderboard drops a deleted bot's row when a page meets it)."""


def _deleted(ctx: AppContext, bot_id: str) -> None:
    for name, hook in list(ON_DELETE.items()):
        try:
            hook(ctx, bot_id)
        except Exception:
            log.warning("bot %s deleted, but its %s hook failed", bot_id, name, exc_info=True)
