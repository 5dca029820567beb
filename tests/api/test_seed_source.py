"""The service's seed source is injectable (service/app/entropy.py, issue 23): on the same seeded
source two services deal the same game with the same id and tokens; production keeps ``secrets``."""
from __future__ import annotations

import secrets

from service.api.app import create_app
from service.app import entropy
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

from .conftest import Clock, Table


def _dealt(seed: str) -> tuple[str, str, list[str], list]:
    app = create_app(Settings(), store=MemoryEventStore())
    app.extensions["meow.service"].clock = Clock()
    t = Table(app, app.extensions["meow.service"].clock, entropy.Seeded(seed))
    g = t.create()
    me = t.join(g["id"], "ann", g["owner_token"])
    t.join(g["id"], "bob")
    t.start(g["id"], g["owner_token"])
    return g["id"], g["owner_token"], t.view(g["id"], me["token"])["you"]["hand"], t.view(g["id"])["table"]


def test_the_same_seed_deals_the_same_game_with_the_same_id_and_tokens() -> None:
    assert _dealt("a") == _dealt("a")
    assert _dealt("a")[0] != _dealt("b")[0] and _dealt("a")[2] != _dealt("b")[2]


def test_production_draws_from_secrets() -> None:
    assert entropy.system is secrets.token_bytes
    service = create_app(Settings(), store=MemoryEventStore()).extensions["meow.service"]
    assert service.random_bytes is entropy.system


def test_a_seeded_source_is_a_stream_of_its_seed() -> None:
    one, two = entropy.Seeded(7), entropy.Seeded(7)
    assert [one(5), one(40), one(32)] == [two(5), two(40), two(32)]
    assert len({entropy.Seeded(7)(32) for _ in range(3)}) == 1 and entropy.Seeded(8)(32) != entropy.Seeded(7)(32)
