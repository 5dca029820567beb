"""Arenas (docs/arenas.md): many bots-only games of one variant between entrants, in duplicate
format, run as jobs on the workers' arena lane, ranked with 95 % intervals and ratings.

An arena belongs to the API key that created it. Its spec (``ArenaSpec``) names a variant and
options, its entrants (built-in strengths, and registered remote bots of the key, asked from the job
through ``remote_bots.arena_turn``), the seats of each table and the number of games, rounded up to
whole deals: each deal is played once per rotation (``arena_play.seating``), so every entrant sits in
every seat on the same cards (each game has its own cards when a remote bot plays: it could remember
them). Its jobs (``step``) each play one game to its end
(service/app/arena_play.py) and queue the next; the last result ends the arena, computes its table
(service/app/arena_results.py) and feeds the variant's leaderboard. Until an arena has ended, none of
its games can be read by anyone (``ReadGuard``): a duplicate deal must not leak to the entrant that
plays it next. ``Arenas`` is the one entry point for the routes and the workers."""
from __future__ import annotations

import contextlib
import functools
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from service.app import api_keys, arena_play, arena_results, credentials, remote_bots, table_meta, webhooks
from service.app.codes import AppCode
from service.app.context import AppContext, now_ms
from service.app.errors import AppError, not_found
from service.app.idempotency import Precondition
from service.app.plugins import Integrations
from service.app.remote_bots import RemoteBot
from service.app.table_meta import Meta
from service.eventstore.arenas import CANCELLED, FINISHED, RUNNING
from service.eventstore.ports import EventStore, Tokens
from service.eventstore.ports.arenas import ArenaStore
from service.games import registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import RuleViolation
from service.games.kernel.table import REMOTE
from service.settings import Settings

ARENA_ID = re.compile(r"ar[0-9a-f]{12}")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,31}")
MAX_ENTRANTS = 8
ARENA_OPTIONS = {"allow_join_between_rounds": False}  # nobody but the arena's bots ever sits at its tables
Enqueue = Callable[[str, str], None]  # (arena id, job id): queue one step on the arena lane


BOT_IDENTITY = "bot:"  # a registered bot's identity on the leaderboards: ``bot:<id>``
BOARD_PAGE, BOARD_PAGE_MAX = 20, 100  # the leaderboard's rows per page: by default, at most


def bot_identity(bot_id: str) -> str:
    return BOT_IDENTITY + bot_id


@dataclass(frozen=True)
class Entrant:
    name: str
    strength: str  # a built-in strength, or ``remote`` for a registered bot
    remote: str = ""  # the registered bot's id (service/app/remote_bots.py)

    @property
    def identity(self) -> str:
        """Who the leaderboard rates: the built-in strength (a registered bot: ``bot:<id>``)."""
        return bot_identity(self.remote) if self.remote else self.strength

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "strength": self.strength, **({"remote": self.remote} if self.remote else {})}


@dataclass(frozen=True)
class ArenaSpec:
    variant: str
    options: Mapping[str, Any]  # the arena's overrides (the tables get them with ARENA_OPTIONS and no bot delay)
    entrants: tuple[Entrant, ...]
    seats: int
    games: int  # whole deals (arena_play.deal_size games each)

    @property
    def deals(self) -> int:
        return self.games // arena_play.deal_size(len(self.entrants), self.seats)

    def table_options(self) -> dict[str, Any]:
        """The options every table of the arena is created with."""
        defaults = registry.preset_defaults(self.variant)
        out = {**self.options, **{k: v for k, v in ARENA_OPTIONS.items() if k in defaults}}
        if "bot_delay_ms" in defaults:  # full speed: the bots answer at once
            out["bot_delay_ms"] = {s: [0, 0] for s in defaults["bot_delay_ms"]}
        return out

    @property
    def duplicate(self) -> bool:
        """Whether a deal's games share their cards: not when a registered bot plays (it could
        remember a deal's cards and know the other hands in its next rotation)."""
        return not any(e.remote for e in self.entrants)

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "options": dict(self.options), "seats": self.seats, "games": self.games,
                "deals": self.deals, "duplicate": self.duplicate, "entrants": [e.to_json() for e in self.entrants]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ArenaSpec:
        entrants = tuple(Entrant(e["name"], e["strength"], e.get("remote", "")) for e in d["entrants"])
        return cls(d["variant"], d["options"], entrants, int(d["seats"]), int(d["games"]))


def make_spec(variant: str, options: Mapping[str, Any], entrants: Sequence[Mapping[str, Any]], seats: int | None,
              games: int, max_games: int, bots: Mapping[str, RemoteBot] | None = None) -> ArenaSpec:
    """A checked spec (422 ``invalid_request`` / ``invalid_option`` / ``unknown_variant`` otherwise).
    An entrant names a built-in ``strength`` or a registered bot (``remote``: its id), found in
    ``bots`` (the caller looked them up among its key's: another key's is 404 there)."""
    try:
        game = registry.for_variant(variant)
    except RuleViolation as rv:
        raise AppError(rv.code, rv.detail, **rv.extra) from rv
    if not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise _invalid(f"an arena has 2 to {MAX_ENTRANTS} entrants")
    found: list[Entrant] = []
    for i, e in enumerate(entrants):
        strength, remote, default = str(e.get("strength") or ""), str(e.get("remote") or ""), ""
        if remote:
            bot = (bots or {}).get(remote)
            if strength or bot is None:
                raise _invalid(f"entrant {i}: name a built-in strength or a registered bot of this key, not both")
            if variant not in bot.games:
                raise _invalid(f"entrant {i}: bot {bot.id} does not play {variant} (its games: {', '.join(bot.games)})")
            strength, default = REMOTE, bot.name[:32].strip() if NAME.fullmatch(bot.name[:32].strip()) else bot.id
        elif strength not in game.bots:
            raise _invalid(f"entrant {i}: {variant} has the built-in strengths {', '.join(game.bots)}")
        name = str(e.get("name") or default or strength)
        if any(f.name == name for f in found):
            name = f"{name}-{i}"
        if not NAME.fullmatch(name):
            raise _invalid(f"entrant {i}: a name is 1-32 letters, digits, spaces, '.', '_' or '-'")
        found.append(Entrant(name, strength, remote))
    lo, hi = _seat_range(variant)
    n = seats if seats is not None else min(max(len(found), lo), hi)
    if not lo <= n <= hi:
        raise _invalid(f"{variant} seats {lo} to {hi} players")
    if not 1 <= games <= max_games:
        raise _invalid(f"an arena plays 1 to {max_games} games")
    k = arena_play.deal_size(len(found), n)
    spec = ArenaSpec(variant, dict(options), tuple(found), n, -(-games // k) * k)
    if spec.games > max_games:
        raise _invalid(f"{games} games make {spec.games} in whole deals of {k}: at most {max_games}")
    try:
        registry.resolve_options(variant, spec.table_options(), n)
    except RuleViolation as rv:
        raise AppError(rv.code, rv.detail, **rv.extra) from rv
    return spec


def _seat_range(variant: str) -> tuple[int, int]:
    entry = next(v for v in registry.variants_catalog() if v["name"] == variant)
    return int(entry["min_players"]), int(entry["max_players"])


def _invalid(detail: str) -> AppError:
    return AppError(KernelCode.INVALID_REQUEST, detail)


class Arenas:
    """Create, read, cancel and play arenas: the game store (for the tables), the arenas' own store,
    the settings, a clock and the arena lane's queue."""

    def __init__(self, store: EventStore, arenas: ArenaStore, settings: Settings, enqueue: Enqueue,
                 clock: Callable[[], int] = now_ms, integrations: Integrations | None = None) -> None:
        self.games, self.arenas, self.settings, self.enqueue, self.clock = store, arenas, settings, enqueue, clock
        self.guard = ReadGuard(store, arenas)
        # webhooks and registered bots, on the real clock; the integrations the composition root plugged in
        self.ctx = AppContext(store, settings, clock=clock, integrations=integrations)

    # ------------------------------------------------------------------ requests
    def create(self, key_id: str, spec: ArenaSpec) -> dict[str, Any]:
        arena_id = "ar" + secrets.token_bytes(6).hex()
        fields = {"spec": orjson.dumps(spec.to_json()).decode(), "secret": secrets.token_bytes(32).hex()}
        cfg = self.settings
        if not self.arenas.create(arena_id, key_id, fields, self.clock(), cfg.arenas_per_key, cfg.arenas_kept_per_key):
            raise AppError(AppCode.ARENA_LIMIT, f"this key runs {cfg.arenas_per_key} arenas already: "
                                                "wait for one to end or cancel one")
        for slot in range(min(spec.games, max(1, cfg.arena_parallel))):
            self.enqueue(arena_id, f"arena-{arena_id}-s{slot}")
        return self.view(arena_id, key_id)

    def record(self, arena_id: str, key_id: str) -> dict[str, str]:
        """The arena's record if ``key_id`` owns it; 404 otherwise (another key's arena is not found)."""
        rec = self.arenas.get(arena_id) if ARENA_ID.fullmatch(arena_id) else None
        if rec is None or rec.get("key") != key_id:
            raise not_found("no such arena")
        return rec

    def view(self, arena_id: str, key_id: str) -> dict[str, Any]:
        """The arena as it stands (a read changes nothing: a game whose job died is taken again by the
        arena lane, ``step``)."""
        return render(arena_id, self.record(arena_id, key_id))

    def of_key(self, key_id: str, limit: int) -> list[dict[str, Any]]:
        out = []
        for arena_id in self.arenas.of_key(key_id, limit):
            rec = self.arenas.get(arena_id)
            if rec is not None:
                out.append(render(arena_id, rec, brief=True))
        return out

    def cancel(self, arena_id: str, key_id: str, pre: Precondition | None = None) -> dict[str, Any]:
        """Stop a running arena: no game starts after this, a game being played stops within a few
        moves (it stays unfinished); the games played so far make its table. Cancelling an ended
        arena changes nothing. The end is one store call against the state it needs (running): a
        cancel racing the last game's finish leaves one of them. ``pre`` (If-Match): only if the
        arena is still at that version (409/412 ``version_conflict`` otherwise)."""
        rec = self.record(arena_id, key_id)
        credentials.expect("arena", int(rec.get("version") or 0), pre)
        if rec["status"] == RUNNING:
            spec = ArenaSpec.from_json(orjson.loads(rec["spec"]))
            done = self.arenas.results(arena_id)
            if not self.arenas.end(arena_id, CANCELLED, self.clock(), arena_results.summarize(_names(spec), done)) \
                    and pre is not None:
                raise credentials.conflict("arena", int(self.record(arena_id, key_id).get("version") or 0), pre)
            self.announce(arena_id)
        return self.view(arena_id, key_id)

    def games_of(self, arena_id: str, key_id: str) -> list[dict[str, Any]]:
        """An ended arena's games: ids, seating, standings and each game's owner token (for its
        history and verification); 409 ``arena_running`` before the end."""
        rec = self.record(arena_id, key_id)
        if rec["status"] == RUNNING:
            raise AppError(AppCode.ARENA_RUNNING, "an arena's games are shown once it has ended", arena=arena_id)
        secret = bytes.fromhex(rec["secret"])
        out = []
        for index, res in sorted(self.arenas.results(arena_id).items()):
            out.append({**res, "owner_token": arena_play.owner_token(secret, index)})
        return out

    def leaderboard(self, variant: str, offset: int = 0, limit: int = BOARD_PAGE) -> tuple[list[dict[str, Any]], int | None]:
        """A page of the variant's leaderboard, best first, and the next page's offset (None: the
        last). A row of a bot deleted meanwhile (its delete's hook not run: a race with an arena's
        end, a failure) is dropped from the board as the page meets it."""
        try:
            registry.for_variant(variant)
        except RuleViolation as rv:
            raise AppError(rv.code, rv.detail, **rv.extra) from rv
        limit = max(1, min(limit, BOARD_PAGE_MAX))
        for _ in range(3):  # a page that met deleted bots is read again (they are gone from it now)
            page, total = self.arenas.leaderboard_page(variant, offset, limit, arena_results.board_score)
            gone = [i for i, _ in page if i.startswith(BOT_IDENTITY)
                    and self.ctx.bot_records.bot_load(i[len(BOT_IDENTITY):]) is None]
            for ident in gone:
                self.arenas.forget(ident, [variant])
            if not gone:
                break
        rows = [arena_results.board_row(i, row, offset + n + 1) for n, (i, row) in enumerate(page)]
        return rows, (offset + limit if offset + limit < total else None)

    def forget_bot(self, bot_id: str) -> None:
        """A deleted bot leaves every variant's leaderboard (remote_bots.ON_DELETE)."""
        self.arenas.forget(bot_identity(bot_id), list(registry.BY_VARIANT))

    # ------------------------------------------------------------------ the arena lane
    def step(self, arena_id: str) -> str:
        """One job: claim the next game (or a game whose job died), play it to its end, record it,
        and queue the next step; the last result ends the arena."""
        rec = self.arenas.get(arena_id)
        if rec is None or rec["status"] != RUNNING:
            return "closed"
        spec = ArenaSpec.from_json(orjson.loads(rec["spec"]))
        now = self.clock()
        index = self.arenas.stale_claim(arena_id, now - self.claim_lease_ms(), now)  # a game whose job died first
        if index is None:
            index = self.arenas.claim(arena_id, spec.games, now)
        if index is None:
            return "idle"
        secret = bytes.fromhex(rec["secret"])
        seat = arena_play.seating(index, len(spec.entrants), spec.seats)
        game = arena_play.ArenaGame(
            self.games, self.settings, arena_id, secret, spec.variant, spec.table_options(), _names(spec),
            [e.strength for e in spec.entrants], seat, now,
            cancelled=lambda: self.arenas.status(arena_id) != RUNNING, bots=[e.remote for e in spec.entrants],
            remote=functools.partial(remote_bots.arena_turn, self.ctx, arena_id=arena_id), duplicate=spec.duplicate,
            integrations=self.ctx.integrations)
        with self._claim_kept(arena_id, index):
            state = game.play()
        if state is None or self.arenas.status(arena_id) != RUNNING:  # cancelled meanwhile: not counted
            return "cancelled"
        result = {"index": index, "game": game.game_id, "deal": seat.deal, "rotation": seat.rotation,
                  "seats": [{"seat": int(r["seat"]), "entrant": seat.entrants[int(r["seat"])],
                             "rank": int(r["rank"]), "total": r["total"]} for r in state.standings]}
        done = self.arenas.record(arena_id, index, result)
        if done >= spec.games:
            self.finish(arena_id, spec)
            return "finished"
        self.enqueue(arena_id, f"arena-{arena_id}-g{index}")  # the next game (or "idle": this chain ends)
        return "played"

    def claim_lease_ms(self) -> int:
        """A game's claim is its lease: renewed every sixth of ``lease_ms`` while its job plays it, taken
        again by the arena's next step once unrenewed for half of ``lease_ms`` (5 s by default). A step
        lost with its process is itself taken again by the arena lane once its own lease (``lease_ms``)
        runs out (workers/lane_runner.py ``retake``), and resumes that game first."""
        return max(100, self.settings.lease_ms // 2)

    @contextlib.contextmanager
    def _claim_kept(self, arena_id: str, index: int) -> Iterator[None]:
        """Renew the claim of game ``index`` while the block plays it."""
        done = threading.Event()

        def renew() -> None:
            while not done.wait(self.claim_lease_ms() / 3000):
                with contextlib.suppress(Exception):  # Redis away: the claim may run out, the game is resumed
                    self.arenas.renew(arena_id, index, self.clock())

        threading.Thread(target=renew, name=f"claim-{arena_id}-{index}", daemon=True).start()
        try:
            yield
        finally:
            done.set()

    def finish(self, arena_id: str, spec: ArenaSpec) -> None:
        results = self.arenas.results(arena_id)
        summary = arena_results.summarize(_names(spec), results)
        if self.arenas.end(arena_id, FINISHED, self.clock(), summary):
            identities = [e.identity for e in spec.entrants]
            self.arenas.update_leaderboard(spec.variant, identities,
                                           arena_results.leaderboard_change(identities, results),
                                           arena_results.board_score)
        self.announce(arena_id)

    def announce(self, arena_id: str) -> int:
        """The ``arena.finished`` webhook of an ended arena (finished or cancelled: its ``status``
        says which) to its key's endpoints that subscribed: the arena as GET /v1/arenas/{id} shows
        it once ended (nothing secret: its games are public by then). Idempotent: one delivery per
        endpoint and arena however often the ending step runs; a revoked key's arena sends nothing.
        How many deliveries are due."""
        rec = self.arenas.get(arena_id)
        if rec is None or rec["status"] == RUNNING or not rec.get("key"):
            return 0
        key = api_keys.get(self.ctx.api_keys, rec["key"])
        if key is None or not key.active:
            return 0  # a revoked key's arenas send nothing (as its tables)
        body = render(arena_id, rec)
        return len(webhooks.deliver(self.ctx, rec["key"], "arena.finished", {"arena": body},
                                    dedup=f"arena/{arena_id}", route=arena_id[2:],
                                    at=int(rec.get("ended_at") or self.clock())))


def _names(spec: ArenaSpec) -> list[str]:
    return [e.name for e in spec.entrants]


def render(arena_id: str, rec: Mapping[str, str], brief: bool = False) -> dict[str, Any]:
    """An arena as the API shows it: its spec, progress, and once ended its result table."""
    spec = orjson.loads(rec["spec"])
    out: dict[str, Any] = {
        "id": arena_id, "status": rec["status"], **spec,
        "progress": {"done": int(rec.get("done", 0)), "total": int(spec["games"])},
        "created_at": int(rec["created_at"]),
        "ended_at": int(rec["ended_at"]) if rec.get("ended_at") else None,
        "version": int(rec.get("version") or 0),
    }
    if not brief:
        out["result"] = orjson.loads(rec["summary"]) if rec.get("summary") else None
    return out


class ReadGuard:
    """Whether a game may be read: not while the arena it belongs to runs (409 ``arena_running``).

    A game's arena is named in its token hash (``meta:arena``), written with its creation, so the
    answer for a game that is no arena's never changes and is remembered per process (bounded), as
    is an arena once ended; only a running arena's games cost a look-up each time."""

    SIZE = 8192

    def __init__(self, tokens: Tokens, arenas: ArenaStore) -> None:
        self.tokens, self.arenas = tokens, arenas
        self.of_game: OrderedDict[str, str] = OrderedDict()  # game -> its arena ("" none)
        self.ended: OrderedDict[str, bool] = OrderedDict()
        self.lock = threading.Lock()

    def check(self, game_id: str) -> None:
        arena_id = self._arena_of(game_id)
        if not arena_id or arena_id in self.ended:
            return
        status = self.arenas.status(arena_id)
        if status in (FINISHED, CANCELLED) or status is None:
            with self.lock:
                self.ended[arena_id] = True
                if len(self.ended) > self.SIZE:
                    self.ended.popitem(last=False)
            return
        raise AppError(AppCode.ARENA_RUNNING, "this game is part of an arena that is still running: its games "
                                              "are readable once the arena has ended", arena=arena_id)

    def _arena_of(self, game_id: str) -> str:
        with self.lock:
            if game_id in self.of_game:
                self.of_game.move_to_end(game_id)
                return self.of_game[game_id]
        raw = table_meta.get(self.tokens, game_id, Meta.ARENA)
        found = raw.decode() if isinstance(raw, bytes) else ""
        if raw is None and self.tokens.token_get(game_id, "owner") is None:
            return ""  # no such game (yet): nothing to remember
        with self.lock:
            self.of_game[game_id] = found
            if len(self.of_game) > self.SIZE:
                self.of_game.popitem(last=False)
        return found
