"""The health check of an away remote bot (service/app/remote_bots.py ``health``, issue 37 item 6): a
signed probe turn (service/app/remote_probe.py) that only a legal action answers, in process with the
reference bot on loopback (the helpers of tests/unit/test_remote_bots.py)."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from examples.remote_bot import random_legal
from service.app import remote_bots
from tests.unit.test_remote_bots import KEY, bot_server, serve_due, service, table_with

__all__ = ["bot_server"]  # the fixture, shared


def test_a_bot_that_answers_pings_but_not_turns_stays_away(bot_server: Callable[..., str]) -> None:
    """The health check is a signed probe turn (issue 37 item 6): a bot broken for turns but answering
    anything with a 2xx stays away (before: every check brought it back, to fail three more turns);
    a legal answer to the probe brings it back."""
    svc = service()
    broken = {"on": True}
    asked: list[dict[str, Any]] = []

    def choose(request: dict[str, Any]) -> Any:
        asked.append(request)
        return "a card, please" if broken["on"] else random_legal(request)

    secret = {"now": ""}  # the bot serves first, then registers its URL (no store call of the test's own)
    url = bot_server(lambda: secret["now"], choose)
    bot, secret["now"] = remote_bots.register(svc, KEY, "Felix", url, ["prsi", "sakapuss"])
    gid = table_with(svc, bot.id)
    serve_due(svc, lambda: remote_bots.show(svc, KEY, bot.id)["status"] == "away")
    asked.clear()
    checks = [remote_bots.health(svc, bot.id) for _ in range(4)]
    assert checks == ["away"] * 4 and remote_bots.show(svc, KEY, bot.id)["status"] == "away"
    assert len(asked) == 4
    for probe in asked:  # a real turn of a variant it plays, of a game no table has
        assert probe["type"] == "turn" and probe["probe"] is True and probe["variant"] in ("prsi", "sakapuss")
        assert probe["view"]["you"]["legal_actions"] and probe["game"] != gid
        assert probe["view"]["you"]["seat"] == probe["seat"]
    broken["on"] = False
    assert remote_bots.health(svc, bot.id) == "back"
    assert remote_bots.show(svc, KEY, bot.id)["status"] == "ok"


def test_every_variant_has_a_probe_turn(random_bytes: Callable[[int], bytes]) -> None:
    """The health check's turn (service/app/remote_probe.py) exists for every registered variant: a
    seat with legal actions, its view the seat's own (from the registry, not a list)."""
    from service.app import remote_probe
    from service.games import registry

    for variant in registry.BY_VARIANT:
        turn = remote_probe.position(variant, int(time.time() * 1000), random_bytes)
        assert turn is not None, variant
        assert turn.legal and turn.view["you"]["legal_actions"] == turn.legal and turn.view["you"]["seat"] == turn.seat
        assert turn.view["variant"] == variant and turn.view["id"] == turn.game and len(turn.game) == 16
