"""Headers that say what an answer is (issue 25, finding 6): who may keep it, what changes its body,
and when a refused client may come back.

The operations come from the app's own spec (every operation, every token its security takes), the
refusals that say when to retry from the status table (every code answered 429 or 503); what is
asserted is a property of each answer, not the policy's own table: an answer that carries a token,
a hand or anything else a spectator is not shown is ``no-store``; an answer to a request with a
token is never kept by a shared cache; every answer of an operation that takes a token varies on
``Authorization``, of one whose body ``Accept`` chooses on ``Accept``; every refusal is ``no-store``.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis.exceptions

from service.api.app import create_app
from service.api.codes import NO_RETRY_AFTER, STATUS, STORE_RETRY_AFTER_S
from service.app import api_keys, webhooks as wh
from service.app.auth import token_hash
from service.app.stream_slots import RETRY_AFTER_S as STREAM_RETRY_AFTER_S
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import ADMIN, Clock, Table, auth

AUDIT = "audit-secret"
PUBLIC_URL = "http://93.184.216.34/meow"  # a remote bot's URL: a literal public address (checked without DNS)
SHARED_CACHEABLE = ("no-cache",)  # what a shared cache may keep (and must revalidate)
PRIVATE_OR_NONE = ("no-store", "private, no-cache")
ETAG = re.compile(r'^"[0-9]+"$')  # API.md: strong, the game's version


def _spec(table: Table) -> dict[str, Any]:
    return table.app.extensions["meow.api"].spec.to_dict()


def _operations(table: Table) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(operationId, method, path template, operation) of every operation of the served spec, but
    the arenas' (an API key's things on a live Redis and its workers: their headers are checked in
    tests/e2e/test_arenas.py)."""
    for path, item in _spec(table)["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op and not path.startswith("/v1/arenas"):
                yield op["operationId"], method.upper(), path, op


def _schemes(op: dict[str, Any]) -> list[str | None]:
    """The tokens the operation takes (None: no token), from its security."""
    return [next(iter(req), None) for req in op.get("security") or [{}]]


def _negotiated(op: dict[str, Any]) -> bool:
    ok = next(v for k, v in op["responses"].items() if str(k).startswith("2"))
    return len(ok.get("content", {})) > 1


def _headers(scheme: str | None, token: str | None) -> dict[str, str]:
    """A token as its scheme sends it: an API key in ``Meow-Key``, any other as a bearer token."""
    return {"Meow-Key": token} if scheme == "apiKey" and token else auth(token)


def _vary(r: Any) -> set[str]:
    return {v.strip().lower() for v in r.headers.get("Vary", "").split(",") if v.strip()}


def _carries_secret(body: Any) -> bool:
    """A token, or a seat's part of a view (``you``: its hand, its legal actions), anywhere."""
    if isinstance(body, dict):
        if any(isinstance(body.get(k), str) for k in ("token", "owner_token", "secret", "invite_code",
                                                       "spectator_token")) or body.get("you"):
            return True
        return any(_carries_secret(v) for v in body.values())
    return isinstance(body, list) and any(_carries_secret(v) for v in body)


def _check(op_id: str, op: dict[str, Any], r: Any, token: str | None, seated: bool, public: bytes | None) -> None:
    """The properties every answer must have; ``public``: the anonymous answer to the same request."""
    where = (op_id, r.request.method, r.request.path, r.status_code, dict(r.headers))
    cache = r.headers.get("Cache-Control")
    if r.status_code >= 400:
        assert cache == "no-store", where
        return
    schemes = set(_schemes(op)) - {None}
    if schemes - {"apiKey"}:
        assert "authorization" in _vary(r), where
    if "apiKey" in schemes:
        assert "meow-key" in _vary(r), where
    if _negotiated(op):
        assert "accept" in _vary(r), where
    if r.mimetype == "application/json":
        assert "accept-encoding" in _vary(r), where  # a big one is gzipped
        assert ETAG.match(r.headers.get("ETag", '"0"')), where
    if token is not None:
        assert cache in PRIVATE_OR_NONE, where
    if r.mimetype == "application/json" and _carries_secret(r.json):
        assert cache == "no-store", where
    if seated and r.get_data() != public:  # a seat's own parts (its hand, the cards it drew)
        assert cache == "no-store", where
    if r.request.method != "GET":  # a write's answer: the caller's view, a new token
        assert cache == "no-store", where
    if token is None and r.request.method == "GET":
        assert cache in SHARED_CACHEABLE + PRIVATE_OR_NONE, where


def _finished(table: Table, key: str | None = None) -> tuple[str, str]:
    """A finished bots' table; with ``key``, its seats carry that key's players p-0 and p-1."""
    g = table.create(options={"penalty_limit": 50})
    for i in range(2):
        if key is None:
            table.add_bot(g["id"], g["owner_token"])
        else:
            r = table.client.post(f"/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}, "player": f"p-{i}"},
                                  headers={**auth(g["owner_token"]), "Meow-Key": key})
            assert r.status_code == 201, r.json
    table.start(g["id"], g["owner_token"])
    for _ in range(200):
        table.drain()
        if table.view(g["id"])["status"] == "finished":
            return g["id"], g["owner_token"]
        table.clock.advance(1000)
    raise AssertionError("the bots did not finish")


def test_every_read_says_who_may_keep_it(table: Table) -> None:
    """Every GET of the spec, on a running table (the owner seated, another seat) and a finished
    bots' table (the owner seatless), with no token and with each token its security takes."""
    g = table.create()
    owner = g["owner_token"]
    table.join(g["id"], "ann", owner)
    seat = table.join(g["id"], "bob")
    table.start(g["id"], owner)
    made = table.client.post("/v1/admin/keys", json={"name": "portal"}, headers=auth(ADMIN)).json
    done, done_owner = _finished(table, made["secret"])  # its seats carry the key's players p-0, p-1
    games = [  # game id, the token of each scheme, the seats those tokens hold
        (g["id"], {"seatToken": seat["token"], "ownerToken": owner, "auditToken": AUDIT},
         {seat["token"], owner}, seat["seat"]),
        (done, {"ownerToken": done_owner, "auditToken": AUDIT}, set(), 0),
    ]
    unscoped = {"apiKey": made["secret"], "adminToken": ADMIN}  # the operations on no game
    bot = table.client.post("/v1/bots", json={"name": "Felix", "url": PUBLIC_URL, "games": ["prsi"]},
                            headers={"Meow-Key": made["secret"]})
    assert bot.status_code == 201, bot.json
    hook = table.client.post("/v1/webhooks", json={"url": PUBLIC_URL, "events": ["match.ended"]},
                             headers={"Meow-Key": made["secret"]})
    assert hook.status_code == 201, hook.json
    succeeded: set[str] = set()
    gets = [(op_id, path, op) for op_id, method, path, op in _operations(table) if method == "GET"]
    assert {"getGame", "listEvents", "getHistory"} <= {op_id for op_id, _, _ in gets}
    for op_id, path, op in gets:
        query = {p["name"]: p["schema"].get("minimum", 1) for p in op.get("parameters", [])
                 if p.get("in") == "query" and p.get("required")}
        query.update({p["name"]: "prsi" for p in op.get("parameters", []) if p.get("in") == "query" and p["name"] == "variant"})
        for gid, tokens, seated, seat_no in games if "{game_id}" in path else [("", unscoped, set(), 0)]:
            url = path.replace("{game_id}", gid).replace("{seat}", str(seat_no)).replace("{key_id}", made["key"]["id"])
            url = url.replace("{player}", "p-0")
            url = url.replace("{bot_id}", bot.json["id"]).replace("{hook_id}", hook.json["id"])
            public = table.client.get(url, query_string=query)
            for scheme in _schemes(op):
                token = tokens.get(scheme) if scheme else None
                if scheme and token is None:
                    continue
                r = table.client.get(url, query_string=query, headers=_headers(scheme, token))
                _check(op_id, op, r, token, token in seated, public.get_data())
                if r.status_code < 300:
                    succeeded.add(op_id)
    assert succeeded == {op_id for op_id, _, _ in gets}  # every read answered at least once


def test_every_write_answer_is_no_store(table: Table) -> None:
    """Every operation of the spec that is not a GET, on a new table: create, seats taken by
    anonymous callers and by the owner, one leaves, the owner starts, the seat to move acts."""
    ops = {op_id: (method, path, op) for op_id, method, path, op in _operations(table)}
    seen: set[str] = set()
    keys = iter(range(100))

    def call(op_id: str, token: str | None, body: Any = None, scheme: str | None = None, **params: Any) -> Any:
        method, path, op = ops[op_id]
        url = path.format(**params)
        headers = {**_headers(scheme, token), "Idempotency-Key": f"key-{next(keys)}-0123456789abcdefghijklmn"}
        r = table.client.open(url, method=method, json=body, headers=headers)
        _check(op_id, op, r, token, False, None)
        assert r.status_code < 300, (op_id, r.json)
        seen.add(op_id)
        return r.json

    g = call("createGame", None, {"variant": "prsi", "options": {"turn_timeout_s": None}})
    gid, owner = g["id"], g["owner_token"]
    call("takeSeat", owner, {"name": "ann"}, game_id=gid)
    bob = call("takeSeat", None, {"name": "bob"}, game_id=gid)
    cid = call("takeSeat", None, {"name": "cid"}, game_id=gid)
    call("leaveSeat", cid["token"], seat=cid["seat"], game_id=gid)
    call("startGame", owner, game_id=gid)
    for token in (owner, bob["token"]):
        actions = table.view(gid, token)["you"]["legal_actions"]
        if actions:
            call("act", token, actions[0], game_id=gid)
            break
    made = call("createKey", ADMIN, {"name": "portal"})
    secret = call("rotateKey", ADMIN, key_id=made["key"]["id"])["secret"]
    private = call("createGame", secret, {"variant": "prsi", "private": True}, scheme="apiKey")
    call("rotateInvite", private["owner_token"], game_id=private["id"])
    call("rotateSpectatorToken", private["owner_token"], game_id=private["id"])
    bot = call("registerBot", secret, {"name": "Felix", "url": PUBLIC_URL, "games": ["prsi"]}, scheme="apiKey")
    call("rotateBotSecret", secret, scheme="apiKey", bot_id=bot["id"])
    call("deleteBot", secret, scheme="apiKey", bot_id=bot["id"])
    call("revokeKey", ADMIN, key_id=made["key"]["id"])
    done, done_owner = _finished(table)
    call("rematchGame", done_owner, game_id=done)
    call("quickPlay", None, {"variant": "prsi", "name": "dan"})
    hooked, key = api_keys.create(table.service.api_keys, "portal", now_ms=table.clock.now)
    hook = call("createWebhook", key, {"url": PUBLIC_URL, "events": ["match.ended"]}, scheme="apiKey")
    call("rotateWebhookSecret", key, scheme="apiKey", hook_id=hook["id"])
    call("enableWebhook", key, scheme="apiKey", hook_id=hook["id"])
    wh.deliver(table.service, hooked.id, "match.ended", {}, dedup="d", route=gid, at=table.clock.now)
    [delivery] = table.client.get("/v1/webhooks/deliveries", headers=_headers("apiKey", key)).json["deliveries"]
    call("replayWebhookDelivery", key, scheme="apiKey", delivery_id=delivery["id"])
    call("deleteWebhook", key, scheme="apiKey", hook_id=hook["id"])
    assert seen == {op_id for op_id, (method, _, _) in ops.items() if method != "GET"}


def test_a_seats_event_stream_is_no_store_and_varies_on_accept(table: Table) -> None:
    g = table.create()
    owner = g["owner_token"]
    table.join(g["id"], "ann", owner)
    seat = table.join(g["id"], "bob")["token"]
    table.start(g["id"], owner)
    for token, cache in ((seat, "no-store"), (None, "no-cache")):
        r = table.client.get(f"/v1/games/{g['id']}/events", headers={**auth(token), "Accept": "text/event-stream"},
                             buffered=False)
        try:
            assert r.mimetype == "text/event-stream"
            assert r.headers.getlist("Cache-Control") == [cache] and {"authorization", "accept"} <= _vary(r)
        finally:
            r.close()


# --- Retry-After: one per refusal, the refusing code's own ---------------------------------------

def _app(**settings: Any) -> Table:
    clock = Clock()
    app = create_app(Settings(**settings), store=MemoryEventStore())
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _stream_over_cap() -> tuple[Any, int]:
    """A long-poll of a token that already holds its one stream."""
    table = _app(max_streams_per_token=1)
    g = table.create()
    owner = g["owner_token"]
    table.join(g["id"], "ann", owner)
    table.client.get(f"/v1/games/{g['id']}")  # the rate limiter counts this client from here on
    with table.app.test_request_context():
        from service.api.http import stream_slots

        lease = stream_slots().acquire(token_hash(owner), "held elsewhere")
    try:
        r = table.client.get(f"/v1/games/{g['id']}/events?after=0&wait=1", headers=auth(owner))
    finally:
        table.app.extensions["meow.slots"].release(lease)
    return r, STREAM_RETRY_AFTER_S


def _rate_window() -> tuple[Any, int]:
    table = _app(rate_creates_per_address="1/minute")
    table.client.post("/v1/games", json={"variant": "prsi"})
    return table.client.post("/v1/games", json={"variant": "prsi"}), 0  # 0: the window's reset, 1-60 s


def _store_down(path: str) -> Callable[[], tuple[Any, int]]:
    def trigger() -> tuple[Any, int]:
        table = _app()
        table.client.get("/v1/variants")  # the rate limiter counts this client from here on

        def down(*_a: Any, **_k: Any) -> Any:
            raise redis.exceptions.ConnectionError("planted")
        for name in ("version", "lobby_page"):
            setattr(table.service.store, name, down)
        return table.client.get(path), STORE_RETRY_AFTER_S
    return trigger


TRIGGERS: dict[str, list[Callable[[], tuple[Any, int]]]] = {
    "rate_limited": [_rate_window, _stream_over_cap],
    "store_unavailable": [_store_down("/v1/games")],
    "not_ready": [_store_down("/readyz")],
}


def test_every_refusal_that_says_when_to_retry_says_it_once_as_its_code_means() -> None:
    retryable = {code for code, status in STATUS.items() if status in (429, 503)} - NO_RETRY_AFTER
    assert set(STATUS) >= NO_RETRY_AFTER, "a code without Retry-After must be a declared code"
    assert set(TRIGGERS) == retryable, "a code answered 429 or 503 needs a trigger here"
    answers = [(code, trigger.__name__, *trigger()) for code, triggers in TRIGGERS.items() for trigger in triggers]
    for code, name, r, seconds in answers:
        where = (code, name, dict(r.headers))
        assert (r.status_code, r.json["code"]) == (STATUS[code], code), where
        values = r.headers.getlist("Retry-After")
        assert len(values) == 1, where
        if seconds:
            assert values == [str(seconds)], where
        else:
            assert 0 < int(values[0]) <= 60, where
    for code, name, r, _ in answers:
        assert r.headers.getlist("Cache-Control") == ["no-store"], (code, name, dict(r.headers))


def test_answers_that_are_not_refusals_carry_no_retry_after(table: Table) -> None:
    g = table.create()
    for r in (table.client.get(f"/v1/games/{g['id']}"), table.client.get("/v1/games/0123456789abcdef")):
        assert "Retry-After" not in r.headers, dict(r.headers)


# --- per-prefix budgets ---------------------------------------------------------------------------

NEIGHBOURS = [  # (first address, a neighbour in its /24 or /64, an address outside it)
    ("198.51.100.7", "198.51.100.200", "198.51.101.7"),
    ("2001:db8:0:1::7", "2001:db8:0:1:ffff::9", "2001:db8:0:2::7"),
]


@pytest.mark.parametrize(("first", "neighbour", "stranger"), NEIGHBOURS)
def test_a_neighbour_in_the_same_prefix_shares_the_rate_budget(first: str, neighbour: str, stranger: str) -> None:
    table = _app(rate_creates_per_address="1/minute")

    def create(addr: str) -> int:
        return table.client.post("/v1/games", json={"variant": "prsi"}, environ_base={"REMOTE_ADDR": addr}).status_code

    assert create(first) == 201
    assert create(neighbour) == 429  # the same /24 or /64: the same budget
    assert create(stranger) == 201
    exact = _app(rate_creates_per_address="1/minute", prefix_v4=32, prefix_v6=128)
    for addr in (first, neighbour):  # per exact address again
        r = exact.client.post("/v1/games", json={"variant": "prsi"}, environ_base={"REMOTE_ADDR": addr})
        assert r.status_code == 201, addr


@pytest.mark.parametrize(("first", "neighbour", "stranger"), NEIGHBOURS)
def test_a_neighbour_in_the_same_prefix_shares_the_stream_cap(first: str, neighbour: str, stranger: str) -> None:
    for v4, v6, shared in ((24, 64, True), (32, 128, False)):
        table = _app(max_streams_per_address=1, prefix_v4=v4, prefix_v6=v6)
        gid = table.create()["id"]
        events = f"/v1/games/{gid}/events"
        held = table.client.get(events, headers={"Accept": "text/event-stream"}, environ_base={"REMOTE_ADDR": first},
                                buffered=False)  # an open stream holds its slot until it is closed
        try:
            assert held.status_code == 200
            answers = {addr: table.client.get(f"{events}?after=0&wait=0.05", environ_base={"REMOTE_ADDR": addr})
                       for addr in (neighbour, stranger)}
        finally:
            held.close()
        assert answers[neighbour].status_code == (429 if shared else 200), (v4, v6, answers[neighbour].json)
        assert answers[stranger].status_code == 200
        if shared:
            assert answers[neighbour].headers.getlist("Retry-After") == [str(STREAM_RETRY_AFTER_S)]
        deadline = time.monotonic() + 20
        while table.app.extensions["meow.slots"].held():  # the closed stream gave its slot back
            assert time.monotonic() < deadline
            time.sleep(0.01)
        again = table.client.get(f"{events}?after=0&wait=0.05", environ_base={"REMOTE_ADDR": neighbour})
        assert again.status_code == 200

