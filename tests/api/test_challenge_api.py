"""Issue 28: the challenge mode (RULES §3.8.4) over HTTP: ``challenge{target}`` is listed, accepted
without a version precondition, answered with ``ChallengeMade`` and refused 409 when repeated."""
from __future__ import annotations

import random

from tests.api.conftest import Table, auth


def test_a_challenge_is_listed_accepted_and_not_repeatable(table: Table) -> None:
    g = table.create("prsi", {"announce_penalty_requires_challenge": True, "false_challenge_penalty_cards": 1})
    gid = g["id"]
    tokens = [table.join(gid, "ann", g["owner_token"])["token"], table.join(gid, "bob")["token"],
              table.join(gid, "cyd")["token"]]
    table.start(gid, g["owner_token"])
    rng = random.Random(28)
    for _ in range(600):
        views = [table.view(gid, t) for t in tokens]
        assert views[0]["status"] == "running"
        catches = [(t, a) for t, v in zip(tokens, views) for a in v["you"]["legal_actions"] if a["type"] == "challenge"]
        if catches:
            break
        movers = [(t, [a for a in v["you"]["legal_actions"] if a["type"] != "announce" and not a.get("announce")])
                  for t, v in zip(tokens, views)]
        movers = [(t, acts) for t, acts in movers if acts]
        if not movers:
            table.clock.advance(60_000)
            table.drain()
            continue
        token, acts = rng.choice(movers)
        r = table.act(gid, token, {**rng.choice(acts), "expected_version": views[0]["version"]})
        assert r.status_code == 200, r.json
    token, action = catches[0]
    stale = views[0]["version"] - 1
    r = table.act(gid, token, {**action, "expected_version": stale})  # race-tolerant: no precondition
    assert r.status_code == 200, r.json
    made = [e for e in r.json["events"] if e["type"] == "ChallengeMade"]
    assert len(made) == 1 and made[0]["data"]["target"] == action["target"]
    assert made[0]["data"]["outcome"] in ("caught", "wrong")
    again = table.act(gid, token, action)
    assert again.status_code == 409 and again.json["code"] in ("window_closed", "already_challenged"), again.json
    legal = table.client.get(f"/v1/games/{gid}/actions", headers=auth(token)).json["legal_actions"]
    assert action not in legal
