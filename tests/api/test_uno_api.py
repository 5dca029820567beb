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


def test_an_uncalled_last_card_is_caught_over_http(table: Table) -> None:
    g = table.create("uno-rlcard", options={"uno_call": True, "cards_dealt": 2})
    gid = g["id"]
    tokens = {0: table.join(gid, "ann", g["owner_token"])["token"], 1: table.join(gid, "bob")["token"]}
    table.start(gid, g["owner_token"])
    for _ in range(200):
        seat = table.view(gid)["turn"]["seat"]
        me = table.view(gid, tokens[seat])["you"]
        plain = [a for a in me["legal_actions"] if a["type"] == "play" and not a.get("announce")]
        if len(me["hand"]) == 2 and plain:
            assert any(a.get("announce") for a in me["legal_actions"])  # the call is offered
            assert table.act(gid, tokens[seat], plain[0]).status_code == 200
            other = table.view(gid, tokens[1 - seat])["you"]["legal_actions"]
            assert {"type": "challenge", "target": seat} in other
            r = table.act(gid, tokens[1 - seat], {"type": "challenge", "target": seat})
            assert r.status_code == 200, r.json
            assert table.view(gid)["seats"][seat]["hand_count"] == 3
            again = table.act(gid, tokens[1 - seat], {"type": "challenge", "target": seat})
            assert (again.status_code, again.json["code"]) == (409, "window_closed")
            return
        assert table.act(gid, tokens[seat], me["legal_actions"][0]).status_code == 200
    raise AssertionError("nobody played a next-to-last card")


def test_the_published_rules_play_hand_after_hand_to_the_target(table: Table) -> None:
    """The ``uno`` preset: a drawn card that follows is played or kept (``pass``), the UNO call is
    offered, and hands follow one another until a seat reaches ``target_points``."""
    g = table.create("uno", options={**fast_options("uno"), "target_points": 200, "cards_dealt": 3})
    gid = g["id"]
    me = table.join(gid, "ann", g["owner_token"])
    table.add_bot(gid, g["owner_token"])
    table.add_bot(gid, g["owner_token"], "medium")
    table.start(gid, g["owner_token"])
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(2000):
        table.drain()
        view = table.view(gid, me["token"])
        if view["status"] == "finished":
            break
        for a in view["you"]["legal_actions"]:
            seen.add(a["type"] + ("+call" if a.get("announce") else ""))
        legal = [a for a in view["you"]["legal_actions"] if a["type"] != "challenge"]
        if legal:
            r = table.act(gid, me["token"], rng.choice(legal))
            assert r.status_code == 200, r.json
    view = table.view(gid)
    assert view["status"] == "finished"
    assert max(s["total"] for s in view["standings"]) >= 50 and view["end_reason"] == "target_reached"
    assert len(view["scores"]) == view["round"] >= 2  # hand after hand
    assert "play+call" in seen or "pass" in seen
