"""UNO over HTTP (the real Flask app, in-memory store, follow-ups in-process): a human and two bots
play a match to its end; a wild names its colour in ``called_suit``; what is not playable is refused."""
from __future__ import annotations

import random

from tests.api.conftest import Table, fast_options


def test_a_human_and_two_bots_play_uno_to_the_end(table: Table) -> None:
    g = table.create("uno-rlcard", options=fast_options("uno-rlcard"))
    gid = g["id"]
    me = table.join(gid, "ann", g["owner_token"])
    table.add_bot(gid, g["owner_token"])
    table.add_bot(gid, g["owner_token"], "medium")
    table.start(gid, g["owner_token"])
    rng = random.Random(7)
    for _ in range(3000):
        table.drain()
        view = table.view(gid, me["token"])
        if view["status"] == "finished":
            break
        assert view["table"]["color"] in "RGBY"
        legal = view["you"]["legal_actions"]
        if not legal:
            continue
        if legal[0]["type"] == "play":
            playable = {a["card"] for a in legal}
            unplayable = [c for c in view["you"]["hand"] if c not in playable]
            if unplayable:
                r = table.act(gid, me["token"], {"type": "play", "card": unplayable[0]})
                assert r.status_code == 422 and r.json["code"] == "illegal_card", r.json
            r = table.act(gid, me["token"], {"type": "draw"})
            assert r.status_code == 422 and r.json["code"] == "illegal_action", r.json
        action = rng.choice(legal)
        r = table.act(gid, me["token"], action)
        assert r.status_code == 200, r.json
    view = table.view(gid)
    assert view["status"] == "finished"
    assert sorted(s["total"] for s in view["standings"]) == [-1, -1, 1]
