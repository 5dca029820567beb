"""The toy game over the API and in the terminal client's drawing: created, joined, started and played
to its end by a human seat and a bot. tests/test_adding_a_game.py copies this file into the
repository copy where the toy is registered (as tests/api/test_toy_table.py) and runs it there."""
from __future__ import annotations

import random

from service.games import registry
from service.tui import render
from service.tui.game import Game


def test_a_toy_match_is_played_to_its_end_over_the_api(table):
    variant = registry.BY_NAME["toy"].variants[0]
    entry = next(v for v in table.client.get("/v1/variants").json["variants"] if v["name"] == variant)
    g = table.create(variant, {"rounds": 2})
    me = table.join(g["id"], "ann", g["owner_token"])
    table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    rng = random.Random(27)
    for _ in range(200):
        view = table.view(g["id"], me["token"])
        if view["status"] == "finished":
            break
        actions = view["you"]["legal_actions"]
        if not actions:
            table.clock.advance(5_000)
            table.drain()
            continue
        r = table.act(g["id"], me["token"], {**rng.choice(actions), "expected_version": view["version"]})
        assert r.status_code == 200, r.json
    assert view["status"] == "finished" and len(view["scores"]) == 2, view
    assert sum(p for e in view["scores"] for p in e["points"].values()) == 2 * 3  # a trick a card per round
    game = Game(entry, "en", view)  # the terminal client's reading of the toy's catalogue entry
    lines = [*render.table_lines(game, view), *render.seat_lines(game, view, 0), *render.score_lines(game, view)]
    assert lines and all(render.printable(x) == x for x in lines)
