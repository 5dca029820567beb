"""Players, rematch and quick play (issue 30 items 4, 5) through the API on the in-memory store,
follow-ups run in-process: a player ref set by a key and seen only by it, a finished match counted
once in the key's leaderboard, a rematch with the same seats and tokens, quick play's one table."""
from __future__ import annotations

from typing import Any

from service.app import api_keys
from service.app.rematch import rematch_id

from .conftest import Table, auth

OTHER = {"REMOTE_ADDR": "203.0.113.77"}  # a second caller's address (quick play steers one address's second seat)
ONE_ROUND = {"match_end_mode": "single_round", "bot_delay_ms": {"easy": [0, 0], "medium": [0, 0]},
             "announce_grace_ms": 0, "round_intermission_s": 0, "hand_size": 4, "max_turns_per_round": 50,
             "turn_timeout_s": None}


def _key(table: Table, name: str = "portal") -> str:
    _, secret = api_keys.create(table.service.api_keys, name, now_ms=table.clock.now)
    return secret


def _seat(table: Table, gid: str, body: dict[str, Any], token: str | None = None, key: str | None = None) -> Any:
    headers = {**auth(token), **({"Meow-Key": key} if key else {})}
    return table.client.post(f"/v1/games/{gid}/seats", json=body, headers=headers)


def test_a_players_ref_is_the_keys_own_and_a_match_counts_once(table: Table) -> None:
    key, other = _key(table), _key(table, "other")
    g = table.create("prsi", ONE_ROUND)
    gid, owner = g["id"], g["owner_token"]
    assert _seat(table, gid, {"bot": {"strength": "easy"}, "player": "p-1"}, owner).status_code == 401  # no key
    assert _seat(table, gid, {"bot": {"strength": "easy"}, "player": "no spaces"}, owner, key).status_code == 422
    assert _seat(table, gid, {"bot": {"strength": "easy"}, "player": "p-1"}, owner, key).status_code == 201
    assert _seat(table, gid, {"bot": {"strength": "easy"}, "player": "p-2"}, owner, key).status_code == 201
    assert _seat(table, gid, {"bot": {"strength": "easy"}, "player": "p-1"}, owner, other).status_code == 201
    seen = table.client.get(f"/v1/games/{gid}", headers={"Meow-Key": key}).json
    assert seen["players"] == [{"seat": 0, "player": "p-1"}, {"seat": 1, "player": "p-2"}]
    assert table.client.get(f"/v1/games/{gid}", headers={"Meow-Key": other}).json["players"] == [{"seat": 2, "player": "p-1"}]
    assert "players" not in table.view(gid) and "players" not in table.view(gid, owner)  # nobody else learns them
    table.start(gid, owner)
    table.drain()
    assert table.view(gid)["status"] == "finished"
    board = table.client.get("/v1/leaderboard?variant=prsi", headers={"Meow-Key": key}).json
    ranks = {row["seat"]: row["rank"] for row in table.view(gid)["standings"]}
    assert {p["player"]: (p["games"], p["wins"]) for p in board["players"]} == \
        {"p-1": (1, int(ranks[0] == 1)), "p-2": (1, int(ranks[1] == 1))}
    assert board["players"][0]["rating"] >= board["players"][1]["rating"] and board["next_offset"] is None
    # a replayed job counts nothing twice
    assert table.service.run_followup({"kind": "players", "game": gid, "key": "final"}) == "duplicate"
    again = table.client.get("/v1/leaderboard?variant=prsi", headers={"Meow-Key": key}).json
    assert again == board
    one = table.client.get("/v1/players/p-1?variant=prsi", headers={"Meow-Key": other}).json
    assert one["games"] == 1 and one["player"] == "p-1"  # the other key's p-1: another player
    assert table.client.get("/v1/leaderboard?variant=prsi").status_code == 401
    assert table.client.get("/v1/leaderboard?variant=prsi&limit=101", headers={"Meow-Key": key}).status_code == 422
    assert table.client.get("/v1/players/p-9?variant=prsi", headers={"Meow-Key": key}).status_code == 404


def _play_out(table: Table, gid: str, token: str) -> None:
    """The seat's first legal action until the match ends, through the service (no HTTP: fast)."""
    svc = table.service
    caller = svc.authenticate(gid, token)
    for _ in range(2000):
        table.drain()
        state, legal = svc.legal_actions(gid, caller)
        if state.status == "finished":
            return
        if legal:
            svc.act(gid, caller, dict(legal[0]), None, None)
        else:
            table.clock.advance(1000)
    raise AssertionError("the match never ended")


def test_a_rematch_has_the_same_seats_and_tokens_and_is_asked_once(table: Table) -> None:
    g = table.create("prsi", ONE_ROUND)
    gid, owner = g["id"], g["owner_token"]
    ann = table.join(gid, "ann")["token"]
    table.add_bot(gid, owner)
    assert table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner)).status_code == 409  # not finished
    table.start(gid, owner)
    _play_out(table, gid, ann)
    assert table.view(gid)["status"] == "finished" and "rematch" not in table.view(gid)
    assert table.client.post(f"/v1/games/{gid}/rematch", headers=auth(ann)).status_code == 403
    first = table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner))
    assert first.status_code == 201 and first.json == {"id": rematch_id(gid), "created": True}
    second = table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner))
    assert second.status_code == 200 and second.json["id"] == first.json["id"]
    rid = first.json["id"]
    assert table.view(gid)["rematch"] == rid
    new = table.view(rid, ann)
    old = table.view(gid)
    assert [(s["name"], s["kind"], s["strength"]) for s in new["seats"]] == \
        [(s["name"], s["kind"], s["strength"]) for s in old["seats"]]
    assert new["you"]["seat"] == 0 and new["options"] == old["options"] and new["status"] == "open"
    table.start(rid, owner)  # the old owner token owns the rematch
    assert table.view(rid)["status"] == "running"


def test_a_private_tables_rematch_has_a_fresh_invite_code_and_spectator_token(table: Table) -> None:
    key = _key(table)
    g = table.client.post("/v1/games", json={"variant": "prsi", "options": ONE_ROUND, "private": True},
                          headers={"Meow-Key": key}).json
    gid, owner, invite, watch = g["id"], g["owner_token"], g["invite_code"], g["spectator_token"]
    ann = _seat(table, gid, {"name": "ann", "invite": invite}).json["token"]
    table.add_bot(gid, owner)
    table.start(gid, owner)
    _play_out(table, gid, ann)
    first = table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner))
    assert first.status_code == 201 and first.json["created"] is True
    rid, new_invite, new_watch = first.json["id"], first.json["invite_code"], first.json["spectator_token"]
    assert new_invite not in (invite, "") and new_watch not in (watch, "")
    again = table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner))
    assert again.status_code == 200 and again.json == {"id": rid, "created": False}  # the codes: once
    # the seated players carry over without a code; the old code and watcher are no one's there
    assert table.view(rid, ann)["you"]["seat"] == 0
    r = _seat(table, rid, {"name": "eve", "invite": invite})
    assert (r.status_code, r.json["code"]) == (404, "invite_invalid")
    assert table.client.get(f"/v1/games/{rid}", headers=auth(watch)).status_code == 401
    assert table.client.get(f"/v1/games/{gid}", headers=auth(watch)).status_code == 200  # the old table's still
    assert table.client.get(f"/v1/games/{rid}", headers=auth(new_watch)).status_code == 200
    assert table.client.get(f"/v1/games/{rid}").status_code == 404  # still private
    assert _seat(table, rid, {"name": "bob", "invite": new_invite}).status_code == 201
    # a lost answer: the owner rotates the rematch's code as any private table's
    assert table.client.post(f"/v1/games/{rid}/invite", headers=auth(owner)).status_code == 200


def test_quick_play_seats_two_callers_at_one_table_and_bots_fill_it_after_the_wait(table: Table) -> None:
    a = table.client.post("/v1/quickplay", json={"variant": "prsi", "name": "ann"})
    b = table.client.post("/v1/quickplay", json={"variant": "prsi", "name": "bob"}, environ_base=OTHER)
    assert a.status_code == b.status_code == 201 and a.json["id"] == b.json["id"]
    assert (a.json["seat"], b.json["seat"]) == (0, 1) and a.json["token"] != b.json["token"]
    gid = a.json["id"]
    assert table.view(gid)["status"] == "open"
    table.drain()
    assert table.view(gid)["status"] == "open"  # the wait is not over
    table.clock.advance(table.service.settings.quickplay_wait_ms)
    table.drain(limit=1)
    view = table.view(gid)
    assert view["status"] == "running" and [s["kind"] for s in view["seats"]][:2] == ["human", "human"]
    assert len(view["seats"]) == view["options"]["max_players"]
    c = table.client.post("/v1/quickplay", json={"variant": "prsi", "name": "cid"})
    assert c.status_code == 201 and c.json["id"] != gid and c.json["seat"] == 0  # a new table
    assert table.client.post("/v1/quickplay", json={"variant": "nope", "name": "x"}).status_code == 422


def _quick(table: Table, name: str, address: str, key: str | None = None) -> Any:
    return table.client.post("/v1/quickplay", json={"variant": "prsi", "name": name},
                             environ_base={"REMOTE_ADDR": address}, headers={"Meow-Key": key} if key else {})


def test_one_addresss_second_quick_play_seat_is_steered_to_another_table(table: Table) -> None:
    """Issue 37 item 4: one address takes one seat of a public table (the default cap); its next seat
    goes to another table, and others still fill the first; a refusal only when every table is taken."""
    tables = table.service.settings.quickplay_tables
    first = _quick(table, "ann", "198.51.100.7")
    again = _quick(table, "ann2", "198.51.100.7")
    assert first.status_code == again.status_code == 201 and again.json["id"] != first.json["id"]
    other = _quick(table, "bob", "203.0.113.5")  # another address: the first table, beside ann
    assert other.status_code == 201 and (other.json["id"], other.json["seat"]) == (first.json["id"], 1)
    assert _quick(table, "bob2", "203.0.113.5").json["id"] == again.json["id"]  # steered, beside ann2
    seated = {first.json["id"], again.json["id"]}
    for n in range(2, tables):  # ann's address: one seat at each of the variant's open tables
        r = _quick(table, f"ann{n + 1}", "198.51.100.7")
        assert r.status_code == 201 and r.json["id"] not in seated
        seated.add(r.json["id"])
    refused = _quick(table, "ann-too-many", "198.51.100.7")
    assert (refused.status_code, refused.json["code"]) == (429, "quickplay_limit")
    assert "Retry-After" not in refused.headers
    v6 = [_quick(table, f"v6-{n}", f"2001:db8:1:2::{n + 1}") for n in range(2)]  # one /64 is one host
    assert v6[0].json["id"] != v6[1].json["id"]
    for gid in seated:
        view = table.view(gid)
        assert sum(s["name"].startswith("ann") for s in view["seats"]) == 1, view["seats"]
    # a key's own tables are not steered: its users all come through it
    key = _key(table)
    keyed = [_quick(table, f"k{n}", "198.51.100.7", key) for n in range(2)]
    assert keyed[0].json["id"] == keyed[1].json["id"]


def test_one_addresss_seats_at_once_land_at_different_tables(table: Table) -> None:
    """Two joins from one address that both read "no seat of theirs here" at the same version (the
    store pauses each after that read until the other has read too): the count is written by the
    join's own append at that version, so one of them conflicts, counts again and is steered."""
    import contextlib
    import threading

    store, reads = table.service.tokens, threading.Barrier(2, timeout=10)

    class Paused:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def token_get(self, game_id: str, field: str) -> Any:
            got = store.token_get(game_id, field)
            if field.startswith("meta:qp:") and not reads.broken:
                with contextlib.suppress(threading.BrokenBarrierError):
                    reads.wait()
            return got

    table.service.tokens = Paused()
    got, errors = [], []

    def ask(n: int) -> None:
        try:
            got.append(table.service.quick_play("prsi", None, f"p{n}", None, "198.51.100.9").game_id)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            reads.abort()  # the later reads of the one that conflicted do not wait
    threads = [threading.Thread(target=ask, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(got) == len(set(got)) == 2, (got, errors)


def test_a_private_tables_rematch_is_private_with_fresh_codes_and_the_keys(table: Table) -> None:
    key = _key(table)
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": ONE_ROUND, "private": True},
                          headers={"Meow-Key": key})
    assert r.status_code == 201, r.json
    gid, owner, watcher = r.json["id"], r.json["owner_token"], r.json["spectator_token"]
    for _ in range(2):
        table.add_bot(gid, owner)
    table.start(gid, owner)
    table.drain()
    made = table.client.post(f"/v1/games/{gid}/rematch", headers=auth(owner)).json
    rid = made["id"]
    assert table.client.get(f"/v1/games/{rid}").status_code == 404  # no table for a stranger
    assert table.client.get(f"/v1/games/{rid}", headers=auth(watcher)).status_code == 401  # the old watcher's not
    assert table.client.get(f"/v1/games/{rid}", headers=auth(made["spectator_token"])).json["status"] == "open"
    assert rid not in [g["id"] for g in table.client.get("/v1/games").json["games"]]
    mine = table.client.get("/v1/keys/me/games", headers={"Meow-Key": key}).json
    assert rid in [g["id"] for g in mine["games"]]
