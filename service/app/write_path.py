"""The one write path, for requests and jobs alike: load the game, decide the command against it
(drawing fresh seeds, more when the rules ask for more), and append the events with their
follow-ups, tokens, idempotency record and lobby summary in one atomic append — retried against the
newer state when another write came first. A ``WritePlan`` says everything a write needs besides
the game and the caller; an ``Outcome`` is what it produced, or the replay of a stored answer."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from service import metrics
from service.app import commands, fairness, followups as fu
from service.app.auth import Caller
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.idempotency import Idempotency, Precondition, answer_record, read_answer
from service.eventstore.chain import GENESIS
from service.eventstore.codec import encode_batch
from service.eventstore.contract import AppendRequest, Listing
from service.games import engine, registry
from service.games.kernel.model import Context, Event, NeedMoreSeeds, RuleViolation
from service.games.kernel.state import TableState

MAX_ATTEMPTS = 8


@dataclass
class Outcome:
    """What a write produced, rendered per caller by ``render``."""

    game_id: str
    state: TableState
    events: Sequence[Event]
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    replayed: bool = False


@dataclass(frozen=True)
class WritePlan:
    """Everything one write needs besides the game and the caller."""

    # the command, built from the state just loaded (None for a new game); rebuilt on every retry
    build_command: Callable[[TableState | None], Any]
    # the version the caller last saw: any other is a version_conflict, never retried
    precondition: Precondition | None = None
    # the caller's Idempotency-Key: a stored answer is replayed, a fresh one is stored with the events
    idempotency: Idempotency | None = None
    # token keys written with the events: a token hash -> its role record, or an alias -> a hash
    tokens: Mapping[str, bytes] = field(default_factory=dict)
    # token keys deleted with the events (a leaver's seat token and its alias)
    revoke: Sequence[str] = ()
    # more token keys, from the decided events (the seat a join was given)
    tokens_from_events: Callable[[Sequence[Event]], dict[str, bytes]] | None = None
    # the answer's HTTP status
    status: int = 200
    # fields of the answer's body besides version, events and game
    extra: Mapping[str, Any] = field(default_factory=dict)
    # more body fields, from the decided events (the seat a join was given)
    extra_from_events: Callable[[Sequence[Event]], dict[str, Any]] | None = None
    # a new game: decided against no state and appended at version 0 with its expiry; a taken id is game_exists
    new_game: bool = False
    # body fields stored in the idempotency record only sealed with the client's key (fresh tokens)
    sealed: Mapping[str, str] = field(default_factory=dict)
    # the state and chain head the caller just loaded (a bot's turn): the first try decides against
    # them instead of loading the game again; the append's version check refuses them if stale
    loaded: tuple[TableState, str] | None = None


def write(ctx: AppContext, game_id: str, caller: Caller, plan: WritePlan) -> Outcome:
    """Load -> decide -> append, retried on a conflict; an idempotent retry gets the stored answer."""
    idem = plan.idempotency
    scoped = idem.scoped(caller.scope) if idem else None

    def stored() -> Outcome | None:
        """The answer already stored under the caller's key (None without a key or a record)."""
        if idem is None or scoped is None:
            return None
        prior = ctx.idempotency.idem_get(game_id, scoped)
        return replay(ctx, game_id, prior, idem) if prior is not None else None

    if (answer := stored()) is not None:
        return answer
    for attempt in range(MAX_ATTEMPTS):
        if attempt and (answer := stored()) is not None:  # a twin with this key won the race that made us retry
            return answer
        try:
            out = _attempt(ctx, game_id, plan, scoped, attempt)
        except (AppError, RuleViolation):
            # A twin with the same key (sent concurrently) may have written while this one loaded
            # or decided: its stored answer is this request's answer, not the refusal that followed.
            if (answer := stored()) is not None:
                return answer
            raise
        if out is not None:
            return out
    raise AppError(AppCode.VERSION_CONFLICT, "the game kept changing; try again", version=ctx.event_log.version(game_id))


def _attempt(ctx: AppContext, game_id: str, plan: WritePlan, scoped: str | None, attempt: int = 0) -> Outcome | None:
    """One try; None when another write came first and the plan has no precondition to refuse it."""
    state, head = _start(ctx, game_id, plan, attempt)
    version = state.version if state is not None else 0
    pre = plan.precondition
    if pre is not None and pre.version != version:
        raise pre.error(version)
    now = ctx.clock()
    cmd = plan.build_command(state)
    events, after = decide(state, cmd, now, ctx.random_bytes)
    extra = dict(plan.extra)
    if plan.extra_from_events:
        extra.update(plan.extra_from_events(events))
    req = _append_request(ctx, game_id, plan, scoped, (state, head), cmd, (events, after), extra)
    result = ctx.event_log.append(req)
    metrics.APPENDS.labels(result.status).inc()
    if result.ok:
        new_head = orjson.loads(req.payloads[-1])["h"] if req.payloads else head
        ctx.cache.put(game_id, (after, new_head))
        ctx.keep_snapshot(game_id, version, after, new_head)
        if after.status == "finished" and (state is None or state.status != "finished"):
            fairness.match_over(ctx, game_id)  # its bots-only slots go back
        return Outcome(game_id, after, events, plan.status, extra)
    if result.status == "duplicate":
        # only a keyed append finds a duplicate, and it reports the record stored under the key
        assert result.record is not None and plan.idempotency is not None
        return replay(ctx, game_id, result.record, plan.idempotency)
    if plan.new_game:
        raise AppError(AppCode.GAME_EXISTS, "a game with this id already exists")
    if result.version < version:  # the stream shrank: an open table expired under our cache
        ctx.cache.drop(game_id)
    if pre is not None:
        raise pre.error(result.version)
    return None


def _start(ctx: AppContext, game_id: str, plan: WritePlan, attempt: int) -> tuple[TableState | None, str]:
    """What a try decides against: nothing for a new game; on the first try the state the caller
    already loaded (``plan.loaded``: the game loaded once per bot move); else the game loaded now."""
    if plan.new_game:
        return None, GENESIS
    if attempt == 0 and plan.loaded is not None:
        return plan.loaded
    return ctx.load_with_head(game_id)


def _append_request(ctx: AppContext, game_id: str, plan: WritePlan, scoped: str | None,
                    loaded: tuple[TableState | None, str], cmd: Any, decided: tuple[Sequence[Event], TableState],
                    extra: dict[str, Any]) -> AppendRequest:
    """The one atomic append of a decided command: events, follow-ups, tokens, answer, lobby row."""
    (state, head), (events, after) = loaded, decided
    version = state.version if state is not None else 0
    record = None
    if plan.idempotency:
        assert scoped is not None  # the key's name in the caller's scope, made with the key
        record = answer_record(plan.idempotency, scoped, plan.status, events[0].seq if events else version + 1,
                               after.version, extra, plan.sealed, ctx.settings.idempotency_ttl_s)
    tokens = dict(plan.tokens)
    if plan.tokens_from_events:
        tokens.update(plan.tokens_from_events(events))
    cmd_record = commands.to_record(cmd)
    payloads = encode_batch(events, head, cmd_record, registry.of(after).name)
    followups = fu.new_followups(game_id, state, after, ctx.settings.max_bot_budget_ms,
                                 ctx.settings.bots_only_min_delay_ms)
    if plan.new_game:  # a table nobody starts goes away with all its keys (no sweeper)
        followups.append(fu.expiry(game_id, after.created_at + ctx.settings.open_game_ttl_s * 1000))
    grace = ctx.settings.compact_after_s
    if after.status == "finished" and (state is None or state.status != "finished") and grace >= 0:
        ended = events[-1].at if events else ctx.clock()  # the match ended: compact it after the grace
        followups.append(fu.compaction(game_id, ended + grace * 1000))
    hooks = ctx.integrations  # what the integrations add to the append (service/app/plugins.py)
    for hook in hooks.followups:
        followups += hook(ctx, game_id, state, after, events, tokens)
    private = False  # a table some integration keeps out of the public lobby (a private table)
    for unlisted in hooks.unlisted:
        if unlisted(ctx, game_id, plan.new_game, plan.tokens):
            private = True
            break
    return AppendRequest(game_id, version, events, followups, tokens, plan.revoke, record,
                         None if private else lobby_summary(game_id, after), prev_hash=head, command=cmd_record,
                         payloads=payloads,
                         listing=None if private else Listing(after.status, after.variant, after.created_at,
                                                              state.status if state is not None else None),
                         cancel=fu.closed_followups(game_id, state, after))


def decide(state: TableState | None, cmd: object, now: int, random_bytes: Callable[[int], bytes]) -> engine.Decided:
    """The rules' answer with fresh seeds from ``random_bytes`` (a few; more when they ask); a
    violation becomes an AppError."""
    seeds = 4
    while True:
        try:
            return engine.outcome(state, cmd, Context(now, tuple(random_bytes(32) for _ in range(seeds))))
        except NeedMoreSeeds as more:
            seeds = max(more.needed, seeds * 4)
        except RuleViolation as rv:
            raise AppError(rv.code, rv.detail, **rv.extra) from rv


def replay(ctx: AppContext, game_id: str, record: bytes, idem: Idempotency) -> Outcome:
    """A stored answer as an outcome: its events read back from the stream, its tokens unsealed."""
    answer = read_answer(record, idem)
    state = ctx.load(game_id)
    events = [s.event for s in ctx.event_log.read_stored(game_id, after=answer.first - 1,
                                                     count=max(0, answer.last - answer.first + 1))]
    return Outcome(game_id, state, events, answer.status, answer.fields(idem), replayed=True)


def lobby_summary(game_id: str, state: TableState) -> bytes:
    """The game's row in the lobby, as the append stores it."""
    return orjson.dumps({
        "id": game_id,
        "variant": state.variant,
        "name": state.name,
        "status": state.status,
        "players": sum(1 for s in state.seats if s.state in ("active", "waiting", "absent")),
        "max_players": state.max_players,
        "version": state.version,
        "created_at": state.created_at,
    })
