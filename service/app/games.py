"""The application layer: load -> decide -> append (with follow-ups), for requests and jobs."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import orjson

from service.app import audit, commands, compute, followups as fu
from service.app.auth import SPECTATOR, Caller, caller_after, caller_from_record, new_token, role_record, token_hash
from service.app.cache import StateCache
from service.app.errors import AppError, forbidden, not_found, unauthorized
from service.app.redaction import Viewer, project_event, project_view
from service.eventstore import chain
from service.eventstore.chain import GENESIS
from service.eventstore.codec import CorruptEvent, encode_batch
from service.eventstore.contract import AppendRequest, EventStore, FollowUp, IdemWrite, Listing
from service.games import engine
from service.games.kernel.table import RULES_VERSION
from service.games.kernel.model import Autopilot, Context, CreateMatch, DealRound, FireTimer, Event, JoinSeat, LeaveSeat, NeedMoreSeeds, RuleViolation, ScoreRound, StartMatch
from service.games.registry import RACE_TOLERANT, SEAT_ACTIONS
from service.games import registry
from service import metrics
from service.settings import Settings

MAX_ATTEMPTS = 8
GRACE_RETRY_MS = 250


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Precondition:
    """The version the caller last saw, from If-Match or from the body (the API answers 412 or 409)."""

    version: int
    source: str  # "if_match" | "body"

    def error(self, current: int) -> AppError:
        return AppError("version_conflict", f"the game is at version {current}", precondition=self.source,
                        version=current)


@dataclass(frozen=True)
class Idempotency:
    key: str  # a hash of the client's key: names the stored record
    request_hash: str
    secret: bytes = b""  # another hash of the client's key, never stored: seals tokens in the record

    def seal(self, name: str, value: str) -> str:
        """XOR with an HMAC keystream: only a caller holding the raw key can open it again."""
        raw = value.encode()
        return bytes(a ^ b for a, b in zip(raw, self._stream(name, len(raw)))).hex()

    def unseal(self, name: str, sealed: str) -> str:
        raw = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(raw, self._stream(name, len(raw)))).decode()

    def _stream(self, name: str, n: int) -> bytes:
        out = b""
        counter = 0
        while len(out) < n:
            out += hmac.new(self.secret, f"seal/{name}/{counter}".encode(), hashlib.sha256).digest()
            counter += 1
        return out[:n]


@dataclass
class Outcome:
    """What a write produced, rendered per caller by ``render``."""

    game_id: str
    state: Any
    events: Sequence[Event]
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    replayed: bool = False


class GameService:
    def __init__(self, store: EventStore, settings: Settings | None = None, clock: Callable[[], int] = now_ms) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.cache = StateCache(self.settings.state_cache_size)
        self.pause: Callable[[float], None] = _pause  # a searching bot waits out its budget (seconds)

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str) -> Any:
        """The folded state: the cached fold fast-forwarded with the events appended since."""
        return self.load_with_head(game_id)[0]

    def load_with_head(self, game_id: str) -> tuple[Any, str]:
        """The folded state and the hash-chain head at its version."""
        cached = self.cache.get(game_id)
        state, head = cached if cached is not None else (None, GENESIS)
        try:
            stored = self.store.read_stored(game_id, after=state.version if state is not None else 0)
        except CorruptEvent as exc:
            raise AppError("game_corrupted", f"event {exc.seq} of this game cannot be read", seq=exc.seq) from exc
        if len(stored) >= compute.HEAVY:
            state, head = compute.run(lambda: _fold(state, head, stored))
        else:
            state, head = _fold(state, head, stored)
        if state is None:
            raise not_found()
        if stored:
            self.cache.put(game_id, (state, head))
        elif state.status == "open" and self.store.version(game_id) == 0:  # an open table that expired
            self.cache.drop(game_id)
            raise not_found()
        return state, head

    def authenticate(self, game_id: str, token: str | None) -> Caller:
        if not token:
            return SPECTATOR
        thash = token_hash(token)
        if thash in self.settings.audit_token_hashes:
            return Caller("audit", None, thash)
        record = self.store.token_get(game_id, thash)
        if record is None:
            raise unauthorized()
        return caller_from_record(record, thash)

    def viewer(self, caller: Caller) -> Viewer:
        return Viewer(seat=caller.seat)

    def view(self, game_id: str, caller: Caller) -> tuple[Any, dict[str, Any]]:
        state, head = self.load_with_head(game_id)
        view = project_view(state, self.viewer(caller), self.clock())
        view["chain_head"] = head
        return state, view

    def legal_actions(self, game_id: str, caller: Caller) -> tuple[Any, list[dict[str, Any]]]:
        _require_seat(caller)
        state = self.load(game_id)
        return state, engine.legal_actions(state, caller.seat, self.clock())

    def events(self, game_id: str, caller: Caller, after: int, wait_s: float,
               waiter: Callable[[str, int, float], bool] | None = None) -> tuple[Any, list[dict[str, Any]]]:
        """The events after ``after`` as the caller may see them at each one: a batch that reaches
        the ``SeatLeft`` of the caller's seat shows it and stops there (the token is revoked), or
        goes on seatless for an owner (``caller_after``)."""
        state = self.load(game_id)
        after = min(after, state.version)  # nothing lies beyond the version (and Redis ids are bounded)
        if wait_s > 0 and state.version <= after:
            (waiter or self.store.wait)(game_id, after, min(wait_s, self.settings.max_wait_s))
            state = self.load(game_id)
        out: list[dict[str, Any]] = []
        if after < state.version:
            for e in self.store.read(game_id, after=after):
                if e.seq > state.version:
                    break
                nxt = caller_after(caller, e)
                out.append(project_event(e, self.viewer(nxt or SPECTATOR)))
                if nxt is None:
                    break
                caller = nxt
        return state, out

    def _history_viewer(self, state: Any, caller: Caller) -> Viewer:
        if state.status == "finished":
            if caller.role == "spectator":
                raise unauthorized("the history of a finished game is for its players, owner and auditors")
            return Viewer(reveal_all=True)
        if caller.role == "audit":
            return Viewer()
        raise forbidden("the history of a running game is for audit tokens only")

    def history(self, game_id: str, caller: Caller, page: int = 500) -> tuple[Any, Iterator[dict[str, Any]]]:
        """The log, read page by page: audit records of a finished game, or a spectator's view of a running one."""
        state = self.load(game_id)
        viewer = self._history_viewer(state, caller)
        last = state.version

        def stored() -> Iterator[Any]:
            after = 0
            while after < last:
                chunk = self.store.read_stored(game_id, after=after, count=min(page, last - after))
                if not chunk:
                    return
                yield from chunk
                after = chunk[-1].event.seq

        if viewer.reveal_all:
            return state, audit.history_records(stored())
        return state, ({**project_event(s.event, viewer), "hash": s.hash} for s in stored())

    def verify(self, game_id: str, caller: Caller) -> dict[str, Any]:
        state = self.load(game_id)
        if state.status != "finished":
            raise AppError("game_running", "a game can be verified once it is finished")
        self._history_viewer(state, caller)
        stored = self.store.read_stored(game_id)
        return compute.run(lambda: audit.verify(list(audit.history_records(stored))).as_dict())

    def state_at(self, game_id: str, caller: Caller, at: int) -> dict[str, Any]:
        """The view right after event ``at``, with the same redaction as the live view."""
        state = self.load(game_id)
        if not 1 <= at <= state.version:
            raise AppError("invalid_request", f"at must be between 1 and {state.version}",
                           errors=[{"field": "at", "in": "query", "messages": [f"1..{state.version}"]}])
        stored = self.store.read_stored(game_id, after=0, count=at)
        past, head = compute.run(lambda: _fold(None, chain.GENESIS, stored)) if at >= compute.HEAVY \
            else _fold(None, chain.GENESIS, stored)
        view = project_view(past, self.viewer(caller), stored[-1].event.at if stored else 0)
        view["chain_head"] = head
        return view

    def lobby(self, status: str | None, variant: str | None, cursor: tuple[int, str] | None,
              limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """A lobby page from the per-status indexes: O(page) however many games exist."""
        rows = [orjson.loads(v) for v in self.store.lobby_page(status, variant, cursor, limit + 1)]
        page = rows[:limit]
        nxt = f"{page[-1]['created_at']}:{page[-1]['id']}" if len(rows) > limit else None
        return page, nxt

    # ------------------------------------------------------------------ requests
    def create(self, variant: str, options: dict[str, Any], max_players: int | None, name: str | None,
               idem: Idempotency | None) -> Outcome:
        resolved, warnings = _resolve(variant, options, max_players)
        resolved, warnings = _cap_budget(resolved, warnings, self.settings.max_bot_budget_ms)
        if idem:  # anonymous creation: the game id follows from the key, so a retry finds it
            game_id = hashlib.sha256(b"meow-create\0" + idem.key.encode()).hexdigest()[:16]
        else:
            game_id = secrets.token_hex(8)
        owner = new_token()
        cmd = CreateMatch(game_id, variant, resolved, resolved["max_players"], name, RULES_VERSION)
        tokens = {token_hash(owner): role_record("owner"), "owner": token_hash(owner).encode()}
        out = self._execute(game_id, SPECTATOR, lambda s: cmd, idem=idem, tokens=tokens, status=201,
                            extra={"id": game_id, "warnings": warnings}, new_game=True,
                            sealed={"owner_token": owner})
        out.extra.setdefault("owner_token", owner)
        return out

    def join(self, game_id: str, caller: Caller, name: str | None, bot: dict[str, Any] | None,
             idem: Idempotency | None) -> Outcome:
        if bot is not None:
            if not caller.is_owner:
                raise forbidden("only the owner adds bots")
            cmd = JoinSeat(name or "", "bot", bot.get("strength"), False)
            return self._execute(game_id, caller, lambda s: _named(cmd, s), idem=idem, status=201,
                                 extra_from=_seat_extra)
        if caller.is_owner and caller.seat is not None:
            raise AppError("already_seated", "the owner already has a seat")
        if caller.role == "seat":
            raise AppError("already_seated", "this token already holds a seat; join without a token")
        token = new_token()
        thash = token_hash(token)
        creator = caller.is_owner

        def tokens_for(events: Sequence[Event]) -> dict[str, bytes]:
            seat = _joined_seat(events)
            out = {thash: role_record("seat", seat), f"seat:{seat}": thash.encode()}
            if creator and caller.token_hash:
                out[caller.token_hash] = role_record("owner", seat)
            return out

        out = self._execute(game_id, caller, lambda s: JoinSeat(name or "", "human", None, creator), idem=idem,
                            status=201, tokens_from=tokens_for, extra_from=_seat_extra, sealed={"token": token})
        out.extra.setdefault("token", token)
        return out

    def leave(self, game_id: str, caller: Caller, seat: int, idem: Idempotency | None = None,
              pre: Precondition | None = None) -> Outcome:
        if not (caller.is_owner or (caller.role == "seat" and caller.seat == seat)):
            raise forbidden("only that seat or the owner can remove a seat")
        tokens, revoke = self._seat_tokens_revoked(game_id, seat)
        return self._execute(game_id, caller, lambda s: LeaveSeat(seat), idem=idem, tokens=tokens, revoke=revoke,
                             pre=pre)

    def _seat_tokens_revoked(self, game_id: str, seat: int) -> tuple[dict[str, bytes], list[str]]:
        """§3.10: the leaver's seat token is revoked; an owner who held that seat stays owner."""
        revoke: list[str] = []
        seat_hash = self.store.token_get(game_id, f"seat:{seat}")
        if seat_hash:
            revoke += [seat_hash.decode(), f"seat:{seat}"]
        tokens: dict[str, bytes] = {}
        owner_hash = self.store.token_get(game_id, "owner")
        if owner_hash:
            rec = self.store.token_get(game_id, owner_hash.decode())
            if rec and orjson.loads(rec).get("seat") == seat:
                tokens[owner_hash.decode()] = role_record("owner")
        return tokens, revoke

    def start(self, game_id: str, caller: Caller, idem: Idempotency | None = None,
              pre: Precondition | None = None) -> Outcome:
        if not caller.is_owner:
            raise forbidden("only the owner starts the game")
        return self._execute(game_id, caller, lambda s: StartMatch(), idem=idem, pre=pre)

    def act(self, game_id: str, caller: Caller, action: dict[str, Any], pre: Precondition | None,
            idem: Idempotency | None) -> Outcome:
        _require_seat(caller)
        action = dict(action)
        kind = action.pop("type")
        if kind not in SEAT_ACTIONS:
            state = self.load(game_id)
            raise AppError("invalid_action", f"'{kind}' is not an action of {state.variant}",
                           legal_actions=engine.legal_actions(state, caller.seat, self.clock()))
        cmd = SEAT_ACTIONS[kind](seat=caller.seat, **action)
        if kind in RACE_TOLERANT:
            pre = None
        return self._execute(game_id, caller, lambda s: cmd, pre=pre, idem=idem)

    # ------------------------------------------------------------------ jobs
    def run_followup(self, payload: dict[str, Any]) -> str:
        """Serve one due follow-up; a no-op when what it serves has closed."""
        game_id, kind = payload["game"], payload["kind"]
        if kind == "bot":
            answer_at = payload.get("answer_at")
            return self._bot_turn(game_id, int(payload["seat"]), int(payload["opened_seq"]),
                                  int(answer_at) if answer_at is not None else None)
        if kind == "expire":
            return self._expire_open(game_id)
        if kind == "score":
            cmd: Any = ScoreRound(int(payload["key"]))
        elif kind == "deal":
            cmd = DealRound(int(payload["key"]))
        else:
            cmd = FireTimer(str(payload["key"]))
        tokens: dict[str, bytes] = {}
        revoke: list[str] = []
        removal = _absent_removal_seat(cmd)
        if removal is not None:  # RULES §2.7/§3.10: an absent seat removed leaves; its token goes
            tokens, revoke = self._seat_tokens_revoked(game_id, removal)
        try:
            self._execute(game_id, SPECTATOR, lambda s: cmd, tokens=tokens, revoke=revoke)
        except AppError as exc:
            if exc.code == "nothing_to_do":
                return self._rearm_timer(game_id, cmd)
            raise
        return "done"

    def _expire_open(self, game_id: str) -> str:
        """A never-started table past its TTL goes, with all its keys; a started one stays."""
        for _ in range(MAX_ATTEMPTS):
            try:
                state = self.load(game_id)
            except AppError as exc:
                if exc.code == "not_found":
                    return "closed"
                raise
            if state.status != "open":
                return "closed"
            if self.store.expire_game(game_id, state.version, state.variant):
                self.cache.drop(game_id)
                return "expired"
        return "busy"

    def _rearm_timer(self, game_id: str, cmd: Any) -> str:
        """A timer that fired before its due time waits for it (RULES §2.6(4)): the state's own
        pending work says when; a timer whose turn, step or absence has closed stays closed."""
        if not isinstance(cmd, FireTimer):
            return "closed"
        state = self.load(game_id)
        due = next((d for d in engine.pending_work(state) if d.kind == "timer" and d.key == cmd.key), None)
        if due is None or due.due_at <= self.clock():
            return "closed"
        self.store.schedule(FollowUp(f"{fu.job_id(game_id, due)}-w{due.due_at}", due.due_at,
                                     {"kind": "timer", "game": game_id, "key": cmd.key}))
        return "waiting"

    def _bot_turn(self, game_id: str, seat: int, opened_seq: int, answer_at: int | None = None) -> str:
        """One bot move. A searching bot answers at max(``answer_at``, its start + budget), whether
        it had a choice or not (RULES §7.1(4)): the gap before its move tells nobody what it held."""
        from service.app.bots import choose_for

        for attempt in range(MAX_ATTEMPTS):
            state = self.load(game_id)
            if not any(d.kind == "bot" and d.seat == seat and d.opened_seq == opened_seq
                       for d in engine.pending_work(state)):
                return "closed"
            now = self.clock()
            view = engine.seat_view(state, seat, now)
            if not view.legal_actions:  # another seat's announcement grace holds closing actions back
                return self._defer_bot(game_id, seat, opened_seq, now)
            budget = fu.search_budget_ms(state, seat, self.settings.max_bot_budget_ms)
            answer = max(answer_at or 0, now + budget) if attempt == 0 else now + budget
            policy = choose_for(state, seat, max(1, min(budget, answer - now)) if budget else None)
            action = dict(policy(view, _bot_rng(state, state.version, seat)))
            if budget:
                self.pause((answer - self.clock()) / 1000)
            chosen = dict(action)
            kind = action.pop("type")
            cmd = SEAT_ACTIONS[kind](seat=seat, **action)
            if getattr(state.seats[seat], "absent", False):  # RULES §2.7 bot_autopilot
                cmd = Autopilot(seat, chosen)
            pre = None if kind in RACE_TOLERANT else Precondition(state.version, "body")
            try:
                self._execute(game_id, SPECTATOR, lambda s: cmd, pre=pre)
                return "moved"
            except AppError as exc:
                if exc.code == "version_conflict":
                    continue
                if exc.code == "announce_grace":
                    return self._defer_bot(game_id, seat, opened_seq, now)
                if exc.status == 409:  # its moment passed (a slap window closed, a phase moved on)
                    return "closed"
                raise
        return self._defer_bot(game_id, seat, opened_seq, self.clock())  # a very busy table: come back

    def _defer_bot(self, game_id: str, seat: int, opened_seq: int, now: int) -> str:
        """Come back shortly, when the other seat's grace is over (never sleep in a worker)."""
        self.store.schedule(FollowUp(f"bot-{game_id}-{seat}-{opened_seq}-g{now}", now + GRACE_RETRY_MS,
                                     {"kind": "bot", "game": game_id, "seat": seat,
                                      "opened_seq": opened_seq, "key": f"{seat}-{opened_seq}"}))
        return "deferred"

    # ------------------------------------------------------------------ the one write path
    def _execute(self, game_id: str, caller: Caller, build: Callable[[Any], Any], *,
                 pre: Precondition | None = None, idem: Idempotency | None = None,
                 tokens: dict[str, bytes] | None = None, revoke: Sequence[str] = (),
                 tokens_from: Callable[[Sequence[Event]], dict[str, bytes]] | None = None,
                 extra_from: Callable[[Sequence[Event]], dict[str, Any]] | None = None,
                 status: int = 200, extra: dict[str, Any] | None = None, new_game: bool = False,
                 sealed: dict[str, str] | None = None) -> Outcome:
        scoped = f"{caller.scope}:{idem.key}" if idem else None
        if idem:
            prior = self.store.idem_get(game_id, scoped)
            if prior is not None:
                return self._replay(game_id, prior, idem)
        for _ in range(MAX_ATTEMPTS):
            state, head = (None, GENESIS) if new_game else self.load_with_head(game_id)
            version = state.version if state is not None else 0
            if pre is not None and pre.version != version:
                raise pre.error(version)
            now = self.clock()
            cmd = build(state)
            events, after = self._decide(state, cmd, now)
            out_extra = dict(extra or {})
            if extra_from:
                out_extra.update(extra_from(events))
            record = None
            if idem:
                record = IdemWrite(scoped, orjson.dumps({
                    "h": idem.request_hash, "status": status, "from": events[0].seq if events else version + 1,
                    "to": after.version, "extra": out_extra,
                    "sealed": {k: idem.seal(k, v) for k, v in (sealed or {}).items()}}), self.settings.idempotency_ttl_s)
            all_tokens = dict(tokens or {})
            if tokens_from:
                all_tokens.update(tokens_from(events))
            cmd_record = commands.to_record(cmd)
            payloads = encode_batch(events, head, cmd_record, registry.of(after).name)
            followups = fu.new_followups(game_id, state, after, self.settings.max_bot_budget_ms)
            if new_game:  # a table nobody starts goes away with all its keys (no sweeper)
                followups.append(fu.expiry(game_id, after.created_at + self.settings.open_game_ttl_s * 1000))
            req = AppendRequest(game_id, version, events, followups, all_tokens, revoke, record,
                                _lobby_summary(game_id, after), prev_hash=head, command=cmd_record,
                                payloads=payloads,
                                listing=Listing(after.status, after.variant, after.created_at,
                                                state.status if state is not None else None))
            result = self.store.append(req)
            metrics.APPENDS.labels(result.status).inc()
            if result.ok:
                new_head = orjson.loads(payloads[-1])["h"] if payloads else head
                self.cache.put(game_id, (after, new_head))
                return Outcome(game_id, after, events, status, out_extra)
            if result.status == "duplicate":
                return self._replay(game_id, result.record, idem)
            if new_game:
                raise AppError("game_exists", "a game with this id already exists")
            if result.version < version:  # the stream shrank: an open table expired under our cache
                self.cache.drop(game_id)
            if pre is not None:
                raise pre.error(result.version)
        raise AppError("version_conflict", "the game kept changing; try again", version=self.store.version(game_id))

    def _decide(self, state: Any, cmd: Any, now: int) -> engine.Decided:
        seeds = 4
        while True:
            try:
                return engine.outcome(state, cmd, Context(now, tuple(secrets.token_bytes(32) for _ in range(seeds))))
            except NeedMoreSeeds as more:
                seeds = max(more.needed, seeds * 4)
            except RuleViolation as rv:
                raise AppError(rv.code, rv.detail, **rv.extra) from rv

    def _replay(self, game_id: str, record: bytes, idem: Idempotency) -> Outcome:
        body = orjson.loads(record)
        if body["h"] != idem.request_hash:
            raise AppError("idempotency_key_reused", "this Idempotency-Key was used with a different request")
        state = self.load(game_id)
        events = [s.event for s in self.store.read_stored(game_id, after=body["from"] - 1,
                                                          count=max(0, body["to"] - body["from"] + 1))]
        extra = dict(body["extra"])
        extra.update({k: idem.unseal(k, v) for k, v in body.get("sealed", {}).items()})
        return Outcome(game_id, state, events, body["status"], extra, replayed=True)

    def render(self, out: Outcome, caller: Caller) -> dict[str, Any]:
        """The response body of a write, as this caller may see it."""
        viewer = self.viewer(caller)
        body = dict(out.extra)
        if out.replayed and body.get("token") and self.store.token_get(out.game_id, token_hash(body["token"])) is None:
            body["token"] = None  # a replayed join: its seat has gone, and its token with it
        elif out.extra.get("seat") is not None and caller.seat is None and out.status == 201 and "token" in out.extra:
            viewer = Viewer(seat=out.extra["seat"])  # the seat just taken (or, replayed, still held)
        body.update(
            version=out.state.version if not out.replayed else max((e.seq for e in out.events), default=out.state.version),
            events=[project_event(e, viewer) for e in out.events],
            game=project_view(out.state, viewer, self.clock()),
        )
        if out.replayed:
            body["replayed"] = True
        return body


def _fold(state: Any, head: str, stored: Sequence[Any]) -> tuple[Any, str]:
    for item in stored:
        try:
            state = engine.evolve(state, item.event)
        except Exception as exc:  # noqa: BLE001 - an event that cannot be applied poisons only its game
            seq = item.event.seq
            raise AppError("game_corrupted", f"event {seq} of this game cannot be applied", seq=seq) from exc
        head = item.hash or head
    return state, head


def _pause(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)


def _require_seat(caller: Caller) -> None:
    """Seat-only endpoints: no token is 401 (API.md: a missing token), a seatless token 403."""
    if caller.role == "spectator":
        raise unauthorized("this needs a seat token")
    if caller.seat is None:
        raise forbidden("only a seated player has actions")


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


def _absent_removal_seat(cmd: Any) -> int | None:
    """The seat an ``absent-<seat>-<n>`` timer would remove (RULES §2.7), else None."""
    if not isinstance(cmd, FireTimer) or not cmd.key.startswith("absent-"):
        return None
    parts = cmd.key.split("-")
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _named(cmd: JoinSeat, state: Any) -> JoinSeat:
    if cmd.name or state is None:
        return cmd
    return JoinSeat(f"bot {len(state.seats)}", cmd.kind, cmd.strength, cmd.creator)


def _joined_seat(events: Sequence[Event]) -> int:
    return next(e.seat if e.seat is not None else e.data["seat"] for e in events
                if e.type in ("SeatJoined", "SeatWaiting"))


def _seat_extra(events: Sequence[Event]) -> dict[str, Any]:
    return {"seat": _joined_seat(events)}


def _lobby_summary(game_id: str, state: Any) -> bytes:
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


def _bot_rng(state: Any, version: int, seat: int) -> Any:
    """RULES §7.1(5): seeded by (match, version, seat) — keyed by the secret match seed, so that
    opponents cannot replay a bot's policy against guessed hands; reproducible once revealed."""
    import random

    digest = hmac.new(fu.match_key(state), f"bot/{version}/{seat}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
