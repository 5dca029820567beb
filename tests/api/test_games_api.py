"""The HTTP contract of API.md on the real Flask app (in-memory store, follow-ups run in-process)."""
from __future__ import annotations

import json
import random
import threading

from service.games import registry
from tests.api.conftest import FAST, Table, auth


def _two_humans(table: Table, **opts) -> tuple[str, str, str, str]:
    g = table.create(options=opts)
    a = table.join(g["id"], "ann", g["owner_token"])
    b = table.join(g["id"], "bob")
    table.start(g["id"], g["owner_token"])
    return g["id"], g["owner_token"], a["token"], b["token"]


def _current(table: Table, gid: str, tokens: dict[int, str]) -> tuple[int, str]:
    seat = table.view(gid)["turn"]["seat"]
    return seat, tokens[seat]


def test_variants_list_prsi_with_options_and_strengths(table: Table) -> None:
    r = table.client.get("/v1/variants")
    assert r.status_code == 200
    prsi = next(v for v in r.json["variants"] if v["name"] == "prsi")
    assert "penalty_limit" in json.dumps(prsi)
    assert "easy" in json.dumps(prsi)


def test_create_returns_owner_token_location_and_etag(table: Table) -> None:
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": FAST, "name": "t1"})
    assert r.status_code == 201
    assert r.headers["Location"] == f"/v1/games/{r.json['id']}"
    assert r.headers["ETag"] == f'"{r.json["version"]}"'
    assert len(r.json["owner_token"]) >= 22
    assert r.json["game"]["status"] == "open"


def test_bad_creation_requests_are_problems_and_create_nothing(table: Table) -> None:
    c = table.client
    unknown = "no-such-variant"
    assert unknown not in registry.BY_VARIANT  # a name no game serves (a game named so would need another)
    r = c.post("/v1/games", json={"variant": unknown})
    assert (r.status_code, r.json["code"]) == (422, "unknown_variant")
    assert r.content_type == "application/problem+json"
    r = c.post("/v1/games", json={"variant": "prsi", "options": {"penalty_limit": 5, "hand_size": "x"}})
    assert (r.status_code, r.json["code"]) == (422, "invalid_option")
    assert {"penalty_limit", "hand_size"} <= {e["option"] for e in r.json["errors"]}
    r = c.post("/v1/games", json={"variant": "prsi", "colour": "red"})
    assert (r.status_code, r.json["code"]) == (422, "invalid_request")
    assert [e["field"] for e in r.json["errors"]] == ["colour"]
    r = c.post("/v1/games", data="{not json", content_type="application/json")
    assert (r.status_code, r.json["code"]) == (400, "invalid_json")
    r = c.post("/v1/games", data=json.dumps({"variant": "prsi", "name": "x" * 70_000}), content_type="application/json")
    assert (r.status_code, r.json["code"]) == (413, "payload_too_large")
    r = c.post("/v1/games", json={"variant": "prsi", "max_players": "5"})
    assert (r.status_code, r.json["code"]) == (422, "invalid_request")
    assert "Traceback" not in r.get_data(as_text=True)
    assert c.get("/v1/games").json["games"] == []


def test_unknown_game_and_bad_tokens(table: Table) -> None:
    assert table.client.get("/v1/games/0123456789abcdef").json["code"] == "not_found"
    assert table.client.get("/v1/games/nope").status_code == 404
    g = table.create()
    r = table.client.get(f"/v1/games/{g['id']}", headers=auth("forged"))
    assert (r.status_code, r.json["code"]) == (401, "unauthorized")
    # no token where one is needed: 401 with a challenge, before the game is looked at
    for method, path in (("post", "start"), ("delete", "seats/0"), ("post", "actions"), ("get", "actions"),
                         ("get", "history"), ("get", "verify")):
        body = {"json": {"type": "draw"}} if method == "post" else {}
        r = getattr(table.client, method)(f"/v1/games/{g['id']}/{path}", **body)
        assert (r.status_code, r.json["code"]) == (401, "unauthorized"), path
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
    r = table.client.post(f"/v1/games/{g['id']}/start", headers=auth(table.join(g["id"], "ann")["token"]))
    assert (r.status_code, r.json["code"]) == (403, "forbidden")  # a token of the wrong role
    r = table.client.open(f"/v1/games/{g['id']}", method="PATCH")
    assert r.status_code == 405 and set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}


def test_only_the_owner_adds_bots_and_a_full_table_refuses(table: Table) -> None:
    g = table.create(max_players=2)
    a = table.join(g["id"], "ann")
    r = table.client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=auth(a["token"]))
    assert r.status_code == 403
    table.add_bot(g["id"], g["owner_token"])
    r = table.client.post(f"/v1/games/{g['id']}/seats", json={"name": "late"})
    assert (r.status_code, r.json["code"]) == (409, "game_full")
    r = table.client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "hard"}}, headers=auth(g["owner_token"]))
    assert r.status_code in (409, 422)


def test_views_show_only_the_callers_hand(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    va, vb, spectator = table.view(gid, ta), table.view(gid, tb), table.view(gid)
    assert len(va["you"]["hand"]) == 7 and len(vb["you"]["hand"]) == 7
    assert not set(va["you"]["hand"]) & set(vb["you"]["hand"])
    assert "you" not in spectator
    text = json.dumps(spectator)
    assert not any(card in text for card in va["you"]["hand"] + vb["you"]["hand"])
    assert not any(card in json.dumps(va) for card in vb["you"]["hand"])
    assert all(s["hand_count"] == 7 for s in spectator["seats"])
    assert spectator["phase"] == "play"


def test_bad_actions_are_refused_with_codes_and_change_nothing(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    tokens = {0: ta, 1: tb}
    seat, tok = _current(table, gid, tokens)
    other = tokens[1 - seat]
    before = table.view(gid)["version"]
    mine = table.view(gid, tok)["you"]["hand"]
    theirs = table.view(gid, other)["you"]["hand"]
    cases = [
        (other, {"type": "draw"}, 409, "not_your_turn"),
        (tok, {"type": "play", "card": theirs[0]}, 422, "card_not_in_hand"),
        (tok, {"type": "play", "card": "5X"}, 422, "invalid_request"),
        (tok, {"type": "fly"}, 422, "invalid_request"),
        (tok, {"type": "slap", "seen_step": 1}, 422, "invalid_action"),
        (tok, {"type": "draw", "card": mine[0]}, 422, "invalid_request"),
        (tok, {"type": "draw", "announce": "yes"}, 422, "invalid_request"),
        (tok, {"type": "draw", "expected_version": before - 1}, 409, "version_conflict"),
        ("wrong-token", {"type": "draw"}, 401, "unauthorized"),
        (None, {"type": "draw"}, 401, "unauthorized"),
        (tok, {"type": "draw", "announce": 1}, 422, "invalid_request"),
        (tok, {"type": "challenge", "target": 1}, 422, "invalid_action"),  # challenge mode is off
    ]
    for token, action, status, code in cases:
        r = table.act(gid, token, action)
        assert (r.status_code, r.json["code"]) == (status, code), (action, r.json)
        if status in (409, 422) and code in ("not_your_turn", "card_not_in_hand"):
            assert isinstance(r.json["legal_actions"], list)
    r = table.act(gid, tok, {"type": "draw"}, **{"If-Match": f'"{before - 1}"'})
    assert (r.status_code, r.json["code"], r.json["version"]) == (412, "version_conflict", before)
    r = table.client.post(f"/v1/games/{gid}/actions", data="{", content_type="application/json", headers=auth(tok))
    assert (r.status_code, r.json["code"]) == (400, "invalid_json")
    assert table.view(gid)["version"] == before
    assert table.view(gid, tok)["you"]["hand"] == mine


def test_a_legal_action_answers_version_events_and_view(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    seat, tok = _current(table, gid, {0: ta, 1: tb})
    legal = table.client.get(f"/v1/games/{gid}/actions", headers=auth(tok)).json["legal_actions"]
    assert legal
    before = table.view(gid)["version"]
    r = table.act(gid, tok, legal[0], **{"If-Match": f'"{before}"'})
    assert r.status_code == 200, r.json
    assert r.json["version"] > before and r.headers["ETag"] == f'"{r.json["version"]}"'
    assert [e["seq"] for e in r.json["events"]] == list(range(before + 1, r.json["version"] + 1))
    assert r.json["game"]["you"]["seat"] == seat


def test_idempotency_key_retried_ten_times_writes_once(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    _seat, tok = _current(table, gid, {0: ta, 1: tb})
    action = table.client.get(f"/v1/games/{gid}/actions", headers=auth(tok)).json["legal_actions"][0]
    answers = [table.act(gid, tok, action, **{"Idempotency-Key": "k-1"}) for _ in range(10)]
    assert {a.status_code for a in answers} == {200}
    assert len({a.json["version"] for a in answers}) == 1
    assert table.view(gid)["version"] == answers[0].json["version"]
    assert all(a.json["events"] == answers[0].json["events"] for a in answers)
    r = table.act(gid, tok, {"type": "announce"}, **{"Idempotency-Key": "k-1"})
    assert (r.status_code, r.json["code"]) == (422, "idempotency_key_reused")


def test_event_feed_redacts_private_fields(table: Table) -> None:
    gid, _owner, ta, _tb = _two_humans(table)
    feed_a = table.client.get(f"/v1/games/{gid}/events?after=0", headers=auth(ta)).json["events"]
    feed_s = table.client.get(f"/v1/games/{gid}/events?after=0").json["events"]
    dealt_a = next(e for e in feed_a if e["type"] == "CardsDealt")
    dealt_s = next(e for e in feed_s if e["type"] == "CardsDealt")
    assert list(dealt_a["private"]) == ["0"] and "private" not in dealt_s
    assert all("secret" not in e for e in feed_a + feed_s)
    shuffle = next(e for e in feed_s if e["type"] == "ShuffleCommitted")
    assert len(shuffle["data"]["commitment"]) == 64
    assert [e["seq"] for e in feed_s] == list(range(1, len(feed_s) + 1))


def test_long_poll_returns_when_an_event_arrives(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    _seat, tok = _current(table, gid, {0: ta, 1: tb})
    version = table.view(gid)["version"]
    got: dict = {}

    def poll() -> None:
        got["r"] = table.app.test_client().get(f"/v1/games/{gid}/events?after={version}&wait=20")

    t = threading.Thread(target=poll)
    t.start()
    action = table.client.get(f"/v1/games/{gid}/actions", headers=auth(tok)).json["legal_actions"][0]
    assert table.act(gid, tok, action).status_code == 200
    t.join(30)
    assert got["r"].status_code == 200 and got["r"].json["events"][0]["seq"] == version + 1
    empty = table.client.get(f"/v1/games/{gid}/events?after={version + 50}&wait=0.2").json
    assert empty["events"] == []
    assert table.client.get(f"/v1/games/{gid}/events?wait=31").status_code == 422


def test_history_rules_for_running_and_finished_games(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    assert table.client.get(f"/v1/games/{gid}/history", headers=auth(ta)).status_code == 403
    assert table.client.get(f"/v1/games/{gid}/history").status_code in (401, 403)
    audit = table.client.get(f"/v1/games/{gid}/history", headers=auth("audit-secret"))
    assert audit.status_code == 200
    assert all("secret" not in e and "private" not in e for e in audit.json["events"])
    # the other player leaves: a walkover ends the match and the history opens to its players
    r = table.client.delete(f"/v1/games/{gid}/seats/1", headers=auth(tb))
    assert r.status_code == 200, r.json
    assert table.view(gid)["status"] == "finished"
    assert table.client.get(f"/v1/games/{gid}", headers=auth(tb)).status_code == 401
    hist = table.client.get(f"/v1/games/{gid}/history", headers=auth(ta)).json["events"]
    assert any(e["type"] == "SeedsRevealed" for e in hist)
    assert any("secret" in e for e in hist if e["type"] == "ShuffleCommitted")


def test_human_and_bots_play_a_match_to_the_end(table: Table) -> None:
    g = table.create(options={"penalty_limit": 50})
    gid = g["id"]
    me = table.join(gid, "ann", g["owner_token"])
    table.add_bot(gid, g["owner_token"])
    table.add_bot(gid, g["owner_token"])
    table.start(gid, g["owner_token"])
    rng = random.Random(7)
    for _ in range(5000):
        table.drain()
        view = table.view(gid, me["token"])
        if view["status"] == "finished":
            break
        legal = view["you"]["legal_actions"]
        if legal:
            r = table.act(gid, me["token"], rng.choice(legal))
            assert r.status_code == 200, r.json
    view = table.view(gid)
    assert view["status"] == "finished"
    assert view["standings"]
    assert len(view["scores"]) >= 1


def test_lobby_filters_and_paginates(table: Table) -> None:
    ids = [table.create(name=f"t{i}")["id"] for i in range(5)]
    page = table.client.get("/v1/games?limit=2&status=open").json
    assert len(page["games"]) == 2 and page["next_cursor"]
    seen = [g["id"] for g in page["games"]]
    while page["next_cursor"]:
        page = table.client.get(f"/v1/games?limit=2&status=open&cursor={page['next_cursor']}").json
        seen += [g["id"] for g in page["games"]]
    assert sorted(seen) == sorted(ids)
    assert table.client.get("/v1/games?status=finished").json["games"] == []
    assert table.client.get("/v1/games?status=bogus").status_code == 422


def test_metrics_count_requests_by_route(table: Table) -> None:
    table.client.get("/v1/variants")
    table.client.get("/v1/games/0123456789abcdef")
    text = table.client.get("/metrics").get_data(as_text=True)
    assert 'meow_http_requests_total{method="GET",route="/v1/games/<game_id>",status="404"}' in text
    assert "meow_http_request_seconds_bucket" in text
    table.create()
    text = table.client.get("/metrics").get_data(as_text=True)
    assert 'meow_appends_total{outcome="ok"}' in text


def test_review_edge_cases_answer_cleanly(table: Table) -> None:
    gid, owner, _ta, tb = _two_humans(table)
    version = table.view(gid)["version"]
    r = table.client.get(f"/v1/games/{gid}/events?after={version + 10**6}&wait=0.1")
    assert r.status_code == 200 and r.json["events"] == []
    assert table.client.get(f"/v1/games/{gid}/events?after={10**30}").status_code == 422
    r = table.client.post(f"/v1/games/{gid}/start", headers={**auth(owner), "If-Match": '"1"'})
    assert (r.status_code, r.json["code"]) == (412, "version_conflict")
    r = table.client.delete(f"/v1/games/{gid}/seats/1", headers={**auth(tb), "If-Match": '"1"'})
    assert (r.status_code, r.json["code"]) == (412, "version_conflict")
    assert table.client.get("/v1/games?cursor=nonsense").status_code == 422
    r = table.client.post(f"/v1/games/{gid}/seats", json={"name": "again"}, headers=auth(owner))
    assert (r.status_code, r.json["code"]) == (409, "already_seated")
    assert table.client.get(f"/v1/games/{gid}/actions").status_code == 401
    assert table.client.get(f"/v1/games/{gid}/actions", headers=auth(owner)).status_code == 200  # the owner's seat


def test_a_replayed_answer_carries_the_first_answers_etag(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    _seat, tok = _current(table, gid, {0: ta, 1: tb})
    action = table.client.get(f"/v1/games/{gid}/actions", headers=auth(tok)).json["legal_actions"][0]
    first = table.act(gid, tok, action, **{"Idempotency-Key": "etag-1"})
    now_token = {0: ta, 1: tb}[table.view(gid)["turn"]["seat"]]
    other = table.client.get(f"/v1/games/{gid}/actions", headers=auth(now_token)).json["legal_actions"][0]
    assert table.act(gid, now_token, other).status_code == 200  # the game moves on
    again = table.act(gid, tok, action, **{"Idempotency-Key": "etag-1"})
    assert again.json["replayed"] and again.json["version"] == first.json["version"]
    assert again.headers["ETag"] == first.headers["ETag"] == f'"{first.json["version"]}"'


def test_leaving_a_finished_match_is_match_over(table: Table) -> None:
    gid, _owner, ta, tb = _two_humans(table)
    assert table.client.delete(f"/v1/games/{gid}/seats/1", headers=auth(tb)).status_code == 200
    r = table.client.delete(f"/v1/games/{gid}/seats/0", headers=auth(ta))
    assert (r.status_code, r.json["code"]) == (409, "match_over")


def test_a_retried_join_or_create_returns_the_same_token(table: Table) -> None:
    body = {"variant": "prsi", "options": FAST}
    key = "create-7-0123456789abcdefXYZ_-"
    first = table.client.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    again = table.client.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201 and again.json["replayed"]
    assert again.json["id"] == first.json["id"] and again.json["owner_token"] == first.json["owner_token"]
    gid = first.json["id"]
    seat_key = "2f1c6f0e-8a51-4c1b-9d7e-3b2a1f0e9d8c"
    a = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": seat_key})
    b = table.client.post(f"/v1/games/{gid}/seats", json={"name": "ann"}, headers={"Idempotency-Key": seat_key})
    assert a.json["token"] == b.json["token"] and a.json["seat"] == b.json["seat"]
    assert len(table.view(gid)["seats"]) == 1
    raw = b"".join(v[0] for v in table.service.store._idem.values())  # the records as stored: tokens sealed
    assert a.json["token"].encode() not in raw and first.json["owner_token"].encode() not in raw
