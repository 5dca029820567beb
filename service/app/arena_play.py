"""One arena game, played to its end inside one job (docs/arenas.md): an ordinary game, written
through the one write path (load -> decide -> append, hash chain, verifiable), whose follow-ups the
job serves itself, in due order, on a clock of its own.

- **Full speed, reproducible.** The game's clock is virtual: it starts at the job's real time and
  jumps to each follow-up's due time (a bot's reaction, an intermission, a timer), so nothing waits
  and the order of events is the one their due times give, on any machine. Bots answer with no
  delay (the arena sets ``bot_delay_ms`` to zero) and a searching bot searches by iterations
  (``hard_bot_iterations``), never by time: no fairness shrinking, no pace floor, no bots-only cap.
- **Duplicate deals.** Every seed a command draws comes from ``DealSeeds``: HMAC-SHA256 of the
  deal's seed over a label naming the command's moment (``create``, ``join/<i>``, ``start``,
  ``deal/<round>``, ``score/<round>``, ``timer/<key>``, ``bot/<seat>-<opened>/<version>``), so every
  game of one deal (its seats rotated) gets the same match seed and the same shuffles at the same
  moments. A label's draws are the same bytes whatever the process, so a resumed game goes on alike.
- **Nothing public before the arena ends.** The append keeps the game out of the lobby and out of
  the due set (the job serves its work); its token hash names its arena (``meta:arena``), which the
  API's read guard looks up (service/app/arenas.py)."""
from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any, cast

from service.app import followups as fu, jobs, table_meta
from service.app.actions import bot_write
from service.app.auth import SPECTATOR, role_record, token_hash
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError
from service.app.idempotency import Precondition
from service.app.plugins import Integrations
from service.app.remote_bots import BINDING
from service.app.table_meta import Meta
from service.app.write_path import WritePlan, write
from service.eventstore.contract import AppendRequest, AppendResult, FollowUp
from service.eventstore.ports import EventStore
from service.games import engine, registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.due import Due, Kind
from service.games.kernel.model import CreateMatch, Event, JoinSeat, StartMatch
from service.games.kernel.state import TableState
from service.games.kernel.table import REMOTE, RULES_VERSION, seat_taken
from service.games.registry import SEAT_ACTIONS
from service.settings import Settings

ARENA_META = Meta.ARENA  # the token-hash field naming a game's arena (service/app/table_meta.py)
GRACE_MS = jobs.GRACE_RETRY_MS  # a bot held back by another seat's announcement grace looks again after this
MAX_DEFAULTS = 8  # default actions played for one failed call at most (a turn's draw, then its pass)
MAX_STEPS = 20_000  # follow-ups served in one game before it is given up (a game that never ends)
PASSED = (Kind.EXPIRE, Kind.COMPACT)  # the follow-ups left to the service's own workers


def derive(secret: bytes, label: str) -> bytes:
    """An arena's secret material: HMAC-SHA256(arena secret, label)."""
    return hmac.new(secret, label.encode(), hashlib.sha256).digest()


def game_id(secret: bytes, index: int) -> str:
    """Game ``index``'s id: 16 hex digits nobody can guess before the arena shows it."""
    return derive(secret, f"game/{index}")[:8].hex()


def owner_token(secret: bytes, index: int) -> str:
    """Game ``index``'s owner token, derived (never stored): the arena's key gets it once the arena ended."""
    return base64.urlsafe_b64encode(derive(secret, f"owner/{index}")).rstrip(b"=").decode("ascii")


class DealSeeds:
    """The seed source of one game of a deal: the same label gives the same bytes in every game
    of the deal (HMAC-SHA256 of the deal's seed over ``<label>/<counter>``)."""

    def __init__(self, deal_seed: bytes) -> None:
        self.key = deal_seed
        self.label = "create"
        self.count = 0

    def at(self, label: str) -> None:
        self.label, self.count = label, 0

    def __call__(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hmac.new(self.key, f"{self.label}/{self.count}".encode(), hashlib.sha256).digest()
            self.count += 1
        return out[:n]


def _plan(cmd: object) -> WritePlan:
    return WritePlan(lambda s: cmd)


def _constant(cmd: object) -> Callable[[TableState | None], object]:
    return lambda s: cmd


def _binding(bot_id: str) -> Callable[[Sequence[Event]], dict[str, bytes]]:
    """The token written with a registered bot's join: which bot plays the seat (``remote:<seat>``)."""
    return lambda events: {f"{BINDING}:{seat_taken(events)}": bot_id.encode()}


class _Held:
    """The event store as an arena game's writes see it: an append keeps the game out of the lobby
    and leaves its follow-ups to the job (only expiry and compaction reach the due set)."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def append(self, req: AppendRequest) -> AppendResult:
        kept = [f for f in req.followups if f.payload.get("kind") in PASSED]
        return self._store.append(dataclasses.replace(req, followups=kept, lobby=None, listing=None))

    def schedule(self, followup: FollowUp) -> None:
        """A deferred bot or a re-armed timer: the job serves the game's pending work itself."""


@dataclasses.dataclass(frozen=True)
class Seating:
    """Who plays game ``index``: its deal, its rotation, and the entrant of each seat.

    Rotation r < k seats entrant ``(seat + r) mod k``: over the k rotations of a deal every entrant
    sits in every seat. With more entrants than seats a deal is played k more times, mirrored
    (entrant ``(r - seat) mod k``), so that two entrants who meet on a deal meet in both seat orders."""

    index: int
    deal: int
    rotation: int
    entrants: tuple[int, ...]  # seat -> entrant index


def deal_size(entrants: int, seats: int) -> int:
    """The games of one deal: one per rotation, twice as many when the entrants outnumber the seats."""
    return 2 * entrants if entrants > seats else entrants


def seating(index: int, entrants: int, seats: int) -> Seating:
    deal, r = divmod(index, deal_size(entrants, seats))
    if r < entrants:
        return Seating(index, deal, r, tuple((s + r) % entrants for s in range(seats)))
    return Seating(index, deal, r, tuple((r - entrants - s) % entrants for s in range(seats)))


class VirtualClock:
    def __init__(self, start: int) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


def policy_for(state: TableState, seat: int) -> Callable[..., dict[str, Any]]:
    """The seat's bot: a searching strength searches by the table's ``hard_bot_iterations`` only
    (no time budget, so the same on any machine)."""
    game = registry.of(state)
    strength = state.seats[seat].strength or "easy"
    choose = game.bots.get(strength, game.bots["easy"])
    if strength in game.searching:
        return functools.partial(choose, budget_ms=None)
    return choose


RemoteAsk = Callable[[AppContext, str, int, str], tuple[str, "dict[str, Any] | None"]]
"""How a registered bot's seat is asked (``remote_bots.arena_turn`` bound to the service's context):
(the game's context, game id, seat, bot id) -> ``("action", action)``, ``("default", None)`` or
``("autopilot", None)``."""


class ArenaGame:
    """Game ``seat.index`` of an arena, played (or resumed) to its end by ``play``.

    ``bots``: per entrant, the registered bot that plays it ("" for a built-in strength, whose
    strength is then ``REMOTE``), asked through ``remote``. ``duplicate``: the games of a deal get
    the same cards (off when a registered bot plays: it could remember the cards it saw and hold the
    other hands of the deal in its next rotation, so each game then has cards of its own)."""

    def __init__(self, store: EventStore, settings: Settings, arena_id: str, secret: bytes, variant: str,
                 options: dict[str, Any], names: Sequence[str], strengths: Sequence[str], seat: Seating,
                 start_ms: int, cancelled: Callable[[], bool] = lambda: False, bots: Sequence[str] = (),
                 remote: RemoteAsk | None = None, duplicate: bool = True, integrations: Integrations | None = None) -> None:
        label = f"deal/{seat.deal}" if duplicate else f"deal/{seat.deal}/{seat.rotation}"
        self.seeds = DealSeeds(derive(secret, label))
        self.bots, self.remote = tuple(bots) or ("",) * len(strengths), remote
        self.clock = VirtualClock(start_ms)
        held = cast(EventStore, _Held(store))
        self.ctx = AppContext(held, dataclasses.replace(settings, bots_only_min_delay_ms=0),
                              clock=self.clock, random_bytes=self.seeds, integrations=integrations)
        self.arena_id, self.variant, self.options = arena_id, variant, options
        self.names, self.strengths, self.seat = names, strengths, seat
        self.game_id = game_id(secret, seat.index)
        self.owner = owner_token(secret, seat.index)
        self.cancelled = cancelled
        self.not_before: dict[str, int] = {}

    def play(self) -> TableState | None:
        """Create, seat and start the table unless a previous run did, then serve its work in due
        order until the match ends; None when the arena was cancelled meanwhile."""
        state = self._started()
        for step in range(MAX_STEPS):
            if state.status == "finished":
                return state
            if step % 25 == 0 and self.cancelled():
                return None
            state = self._next(state)
        raise AppError(AppCode.GAME_CORRUPTED, f"arena game {self.game_id} did not end in {MAX_STEPS} steps")

    def _started(self) -> TableState:
        try:
            state = self.ctx.load(self.game_id)
        except AppError as exc:
            if exc.code != KernelCode.NOT_FOUND:
                raise
            state = self._create()
        for i in range(len(state.seats), len(self.seat.entrants)):
            entrant = self.seat.entrants[i]
            join = JoinSeat(self.names[entrant], "bot", self.strengths[entrant], False)
            self.seeds.at(f"join/{i}")
            bot = self.bots[entrant]
            plan = WritePlan(_constant(join), tokens_from_events=_binding(bot) if bot else None)
            state = write(self.ctx, self.game_id, SPECTATOR, plan).state
        if state.status == "open":
            self.seeds.at("start")
            state = write(self.ctx, self.game_id, SPECTATOR, _plan(StartMatch())).state
        return state

    def _create(self) -> TableState:
        thash = token_hash(self.owner)
        resolved, _ = registry.resolve_options(self.variant, self.options, len(self.seat.entrants))
        cmd = CreateMatch(self.game_id, self.variant, resolved, resolved["max_players"],
                          f"arena {self.arena_id} #{self.seat.index}", RULES_VERSION)
        tokens = {thash: role_record("owner"), "owner": thash.encode(), table_meta.field(ARENA_META): self.arena_id.encode()}
        self.seeds.at("create")
        out = write(self.ctx, self.game_id, SPECTATOR, WritePlan(lambda s: cmd, tokens=tokens, new_game=True))
        return out.state

    def _next(self, state: TableState) -> TableState:
        """Serve the earliest due follow-up (ties in job-id order), the clock moved to its time."""
        work = [(max(d.due_at + self._bot_delay(state, d), self.not_before.get(fu.job_id(self.game_id, d), 0)),
                 fu.job_id(self.game_id, d), d) for d in engine.pending_work(state)]
        if not work:
            raise AppError(AppCode.GAME_CORRUPTED, f"arena game {self.game_id} is running with nothing due")
        at, job, due = min(work, key=lambda w: (w[0], w[1]))
        self.clock.now = max(self.clock.now, at)
        if due.kind == Kind.BOT:
            return self._bot(state, due, job)
        self.seeds.at(f"{due.kind}/{due.key}")
        jobs.run_followup(self.ctx, dict(fu.to_followup(self.game_id, state, due, 0, 0).payload))
        return self.ctx.load(self.game_id)

    def _bot_delay(self, state: TableState, due: Due) -> int:
        """The app-side delay of a bot (``bot_delay_ms``: zero in an arena unless the table asks)."""
        if due.kind != Kind.BOT or due.seat is None:
            return 0
        return fu.bot_delay_ms(state, self.game_id, due.seat, due.opened_seq)

    def _bot(self, state: TableState, due: Due, job: str) -> TableState:
        assert due.seat is not None  # a bot's turn is a seat's
        seat, now = due.seat, self.clock.now
        view = engine.seat_view(state, seat, now)
        if not view.legal_actions:  # another seat's announcement grace holds it back
            self.not_before[job] = now + GRACE_MS
            return state
        bot = self.bots[self.seat.entrants[seat]] if state.seats[seat].strength == REMOTE else ""
        how, asked = self.remote(self.ctx, self.game_id, seat, bot) if bot and self.remote else ("autopilot", None)
        if how == "default":
            return self._default(state, seat, job)
        if asked is None:  # a built-in strength, or an away bot's autopilot (the game's easy bot)
            asked = policy_for(state, seat)(view, jobs.bot_rng(state, state.version, seat))
        action = dict(asked)
        kind = action.pop("type")
        cmd = SEAT_ACTIONS[kind](seat=seat, **action)
        self.seeds.at(f"bot/{seat}-{due.opened_seq}/{state.version}")
        try:
            return write(self.ctx, self.game_id, SPECTATOR,
                         WritePlan(lambda s: cmd, precondition=Precondition(state.version, "body"))).state
        except AppError as exc:
            if exc.code == KernelCode.ANNOUNCE_GRACE:
                self.not_before[job] = now + GRACE_MS
                return state
            raise

    def _default(self, state: TableState, seat: int, job: str) -> TableState:
        """A registered bot's failed call: the seat's default actions until its turn ends, as for a
        timed-out human (RULES §2.7); a game whose defaults only its timers play leaves it to the
        timer: the bot's turn waits behind the game's other work."""
        turn, played = getattr(state.rnd, "turn_id", None), 0
        for _ in range(MAX_DEFAULTS):
            action = engine.default_action(state, seat)
            if action is None or getattr(state.rnd, "turn_id", None) != turn:
                break
            self.seeds.at(f"default/{seat}/{state.version}")
            if bot_write(self.ctx, self.game_id, state, seat, action) != "moved":
                break
            state, played = self.ctx.load(self.game_id), played + 1
            if not any(d.kind == Kind.BOT and d.seat == seat for d in engine.pending_work(state)):
                break
        if not played:  # asked again only once the next timer has fired (as on a table: once per turn)
            timers = [d.due_at for d in engine.pending_work(state) if d.kind == Kind.TIMER]
            self.not_before[job] = max(self.clock.now, min(timers)) + 1 if timers else self.clock.now + GRACE_MS
        return state
