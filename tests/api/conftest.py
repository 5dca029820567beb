"""API tests: the real Flask app on the in-memory store (or real Redis), follow-ups run in-process."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.api.app import create_app
from service.app.entropy import Seeded
from service.eventstore.contract import SHARDS
from service.eventstore.memory import MemoryEventStore
from service.games import registry
from service.settings import Settings
from tests.seeds import current_test_seed

from .spec_check import SpecCheckingClient

FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0}
FAST_WORDS = ("delay", "grace", "intermission")


def one_variant_per_game() -> list[str]:
    """The first variant of every registered game: a test of a per-game path runs for each game."""
    return [g.variants[0] for g in registry.GAMES]


def declared_options(variant: str, wanted: dict[str, Any]) -> dict[str, Any]:
    """Of ``wanted``, the options the variant declares (GET /v1/variants): one option set for a
    test that runs for every game, with no branch on a game's name."""
    entry = next(e for e in registry.variants_catalog() if e["name"] == variant)
    names = {o["name"] for o in entry["options"]}
    return {k: v for k, v in wanted.items() if k in names}


def fast_options(variant: str) -> dict[str, Any]:
    """Every delay, grace and intermission time the variant declares (GET /v1/variants: an option
    so named, in ms or s), at the minimum of its declared range: bots move, announcement windows
    close and rounds follow at once."""
    entry = next(e for e in registry.variants_catalog() if e["name"] == variant)
    out: dict[str, Any] = {}
    for o in entry["options"]:
        if any(w in o["name"] for w in FAST_WORDS) and o["name"].endswith(("_ms", "_s")) and o.get("range"):
            low = o["range"][0]
            out[o["name"]] = {k: [low, low] for k in o["default"]} if isinstance(o["default"], dict) else low
    return out


class Clock:
    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


class Table:
    """A Flask test client with helpers for the common steps of a game. Inside a test, the service
    draws its seeds, game ids and tokens from the test's seed (tests/seeds.py) unless told otherwise,
    so every deal repeats on a rerun; outside one (a golden recorder, a bench) it keeps ``secrets``."""

    def __init__(self, app: Any, clock: Clock, random_bytes: Any = None) -> None:
        self.app = app
        self.client = app.test_client()
        self.clock = clock
        self.service = app.extensions["meow.service"]
        seed = current_test_seed()
        if random_bytes is None and seed is not None:
            random_bytes = Seeded(seed)
        if random_bytes is not None:
            self.service.random_bytes = random_bytes

    def create(self, variant: str = "prsi", options: dict | None = None, **extra: Any) -> dict:
        body = {"variant": variant, "options": {**fast_options(variant), **(options or {})}, **extra}
        r = self.client.post("/v1/games", json=body)
        assert r.status_code == 201, r.json
        return r.json

    def join(self, game_id: str, name: str = "ann", token: str | None = None) -> dict:
        r = self.client.post(f"/v1/games/{game_id}/seats", json={"name": name}, headers=auth(token))
        assert r.status_code == 201, r.json
        return r.json

    def add_bot(self, game_id: str, owner: str, strength: str = "easy") -> dict:
        r = self.client.post(f"/v1/games/{game_id}/seats", json={"bot": {"strength": strength}}, headers=auth(owner))
        assert r.status_code == 201, r.json
        return r.json

    def start(self, game_id: str, owner: str) -> dict:
        r = self.client.post(f"/v1/games/{game_id}/start", headers=auth(owner))
        assert r.status_code == 200, r.json
        return r.json

    def view(self, game_id: str, token: str | None = None) -> dict:
        r = self.client.get(f"/v1/games/{game_id}", headers=auth(token))
        assert r.status_code == 200, r.json
        return r.json

    def act(self, game_id: str, token: str, action: dict, **headers: str) -> Any:
        return self.client.post(f"/v1/games/{game_id}/actions", json=action, headers={**auth(token), **headers})

    def play_random(self, game_id: str, tokens: list[str], moves: int, rng: Any) -> int:
        """Up to ``moves`` random legal actions of whichever seats may act (follow-ups run when
        nobody may); the number played (fewer once the match is over)."""
        done = 0
        while done < moves:
            views = [self.view(game_id, t) for t in tokens]
            if views[0]["status"] != "running":
                break
            movers = [(t, v["you"]["legal_actions"]) for t, v in zip(tokens, views) if v["you"]["legal_actions"]]
            if not movers:
                self.clock.advance(60_000)
                self.drain()
                continue
            token, actions = rng.choice(movers)
            r = self.act(game_id, token, {**rng.choice(actions), "expected_version": views[0]["version"]})
            assert r.status_code == 200, r.json
            done += 1
        return done

    def drain(self, limit: int = 10_000) -> int:
        """Run every follow-up due by the test clock (bot turns, scoring, deals) in-process, as a worker would."""
        store, ran = self.service.store, 0
        while ran < limit:
            batch = [(s, c) for s in SHARDS for c in store.claim_due(s, self.clock.now, 60_000)]
            if not batch:
                return ran
            for shard, claimed in batch:
                try:
                    self.service.run_followup(dict(claimed.payload))
                finally:
                    store.finish_due(shard, claimed.job_id)
                ran += 1
        return ran


ADMIN = "admin-secret-0123456789abcdefghijklm"  # the operator admin token (/v1/admin): 32+ characters


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.fixture
def clock() -> Clock:
    return Clock()


# bots-only tables at full speed and uncapped (Settings' keywords), for tests written before the pace floor
UNPACED: dict[str, int] = {"bots_only_min_delay_ms": 0, "bots_only_per_owner": 0, "bots_only_per_address": 0}


@pytest.fixture
def table(clock: Clock, random_bytes: Any) -> Iterator[Table]:
    """The app on the in-memory store, with the test clock and the test's seed source (so its deals,
    game ids and tokens repeat on every run of the same MEOW_TEST_SEED)."""
    # bots-only tables at full speed and uncapped, as the suite was written for (their pace floor
    # and caps have their own tests: tests/api/test_fair_search.py)
    settings = Settings(audit_token_hashes=frozenset({__import__("hashlib").sha256(b"audit-secret").hexdigest()}),
                        admin_token_hash=__import__("hashlib").sha256(ADMIN.encode()).hexdigest(), **UNPACED)
    app = create_app(settings, store=MemoryEventStore())
    app.test_client_class = SpecCheckingClient  # every response is checked against openapi.yaml
    app.extensions["meow.service"].clock = clock
    yield Table(app, clock, random_bytes)
