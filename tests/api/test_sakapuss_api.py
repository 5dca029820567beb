"""Sakapuss over HTTP: sealed passes stay sealed, wrong-game and wrong-phase actions are refused."""
from __future__ import annotations

import json
from collections import Counter

from service.app.commands import to_record
from service.games.registry import SEAT_ACTIONS
from tests.api.conftest import Table, auth


def _table(table: Table) -> tuple[str, dict[int, str]]:
    g = table.create("sakapuss", {"pass_timeout_s": 30})
    tokens = {}
    for i in range(3):
        s = table.join(g["id"], f"p{i}", g["owner_token"] if i == 0 else None)
        tokens[s["seat"]] = s["token"]
    table.start(g["id"], g["owner_token"])
    return g["id"], tokens


def test_a_sealed_pass_is_seen_only_by_its_passer_until_the_step_resolves(table: Table) -> None:
    gid, tokens = _table(table)
    view = table.view(gid, tokens[0])
    passes = [a for a in view["you"]["legal_actions"] if a["type"] == "pass_card"]
    assert passes and all(a["step"] == 1 for a in passes)
    r = table.act(gid, tokens[0], passes[0])
    assert r.status_code == 200, r.json
    kind = passes[0]["kind"]
    for seat in (1, 2):
        feed = table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[seat])).json["events"]
        submitted = [e for e in feed if e["type"] == "PassSubmitted"]
        assert submitted and submitted[-1]["seat"] == 0 and "private" not in submitted[-1]
        assert kind not in json.dumps(submitted)
        assert 0 in [int(s) for s in table.view(gid, tokens[seat])["table"]["passed"]] or \
            "0" in json.dumps(table.view(gid, tokens[seat])["table"]["passed"])
    mine = table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(tokens[0])).json["events"]
    assert [e for e in mine if e["type"] == "PassSubmitted"][-1]["private"]["0"]["kind"] == kind
    spectator = table.client.get(f"/v1/games/{gid}/events?after=0").json["events"]
    assert all("private" not in e for e in spectator)
    assert all("kind" not in e["data"] for e in spectator if e["type"] == "PassSubmitted")


def test_wrong_game_wrong_kind_and_wrong_phase_are_refused_and_change_nothing(table: Table) -> None:
    gid, tokens = _table(table)
    version = table.view(gid)["version"]
    hand = table.view(gid, tokens[0])["you"]["hand"]
    missing = next(f"k{i}" for i in range(5) if f"cat:k{i}" not in hand)
    cases = [
        ({"type": "play", "card": "7H"}, 422, "invalid_action"),
        ({"type": "draw"}, 422, "invalid_action"),
        ({"type": "pass_card", "kind": missing, "step": 1}, 422, "kind_not_in_hand"),
        ({"type": "pass_card", "kind": hand[0].split(":")[1], "step": 7}, 409, "wrong_step"),
        ({"type": "slap"}, 422, "invalid_request"),
        # docs/clients.md: a pass_card's `card` names the same cat as its kind, a cat id or nothing
        ({"type": "pass_card", "kind": hand[0].split(":")[1], "step": 1, "card": f"cat:{missing}"}, 422,
         "invalid_action"),
        ({"type": "pass_card", "kind": hand[0].split(":")[1], "step": 1, "card": "7H:0"}, 422, "invalid_action"),
        ({"type": "pass_card", "kind": hand[0].split(":")[1], "step": 1, "card": "dog"}, 422, "invalid_request"),
    ]
    for action, status, code in cases:
        r = table.act(gid, tokens[0], action)
        assert (r.status_code, r.json["code"]) == (status, code), (action, r.json)
    assert table.view(gid)["version"] == version
    kinds = Counter(c.split(":")[1] for c in hand)
    first = table.act(gid, tokens[0], {"type": "pass_card", "kind": next(iter(kinds)), "step": 1})
    assert first.status_code == 200
    again = table.act(gid, tokens[0], {"type": "pass_card", "kind": next(iter(kinds)), "step": 1})
    assert again.status_code in (200, 409)
    assert table.view(gid)["version"] == first.json["version"]


def test_joining_a_running_sakapuss_table_is_closed(table: Table) -> None:
    gid, _tokens = _table(table)
    r = table.client.post(f"/v1/games/{gid}/seats", json={"name": "late"})
    assert (r.status_code, r.json["code"]) == (409, "joining_closed")


def test_slap_at_a_prsi_table_is_the_wrong_game(table: Table) -> None:
    g = table.create()
    a = table.join(g["id"], "a", g["owner_token"])
    table.join(g["id"], "b")
    table.start(g["id"], g["owner_token"])
    r = table.act(g["id"], a["token"], {"type": "slap", "seen_step": 1})
    assert (r.status_code, r.json["code"]) == (422, "invalid_action")
    r = table.act(g["id"], a["token"], {"type": "pass_card", "kind": "k1", "step": 1})
    assert (r.status_code, r.json["code"]) == (422, "invalid_action")


def test_a_pass_card_names_its_hand_card_and_is_recorded_without_it(table: Table) -> None:
    """Each pass_card legal action names a card of the hand (docs/clients.md); posted as listed it
    is taken, and the history records the command as before (seat, kind, step: no card)."""
    gid, tokens = _table(table)
    you = table.view(gid, tokens[0])["you"]
    passes = [a for a in you["legal_actions"] if a["type"] == "pass_card"]
    assert passes and all(a["card"] == f"cat:{a['kind']}" and a["card"] in you["hand"] for a in passes)
    assert len({a["card"] for a in passes}) == len(passes) == len(set(you["hand"]))  # equal ids: one card
    assert table.act(gid, tokens[0], passes[-1]).status_code == 200
    fields = {k: v for k, v in passes[-1].items() if k != "type"}
    assert to_record(SEAT_ACTIONS["pass_card"](seat=0, **fields)) == {
        "type": "PassCard", "v": 1, "seat": 0, "kind": passes[-1]["kind"], "step": 1}
