"""Remote bots on the real stack (gunicorn, a real `meow worker` with its remote lane, a real Redis):
bots registered with an API key and seated by a table's owner, each turn POSTed, signed, to a
reference bot (examples/remote_bot.py) served by this process. A good bot plays a whole match; a bot
that times out, answers garbage, answers an illegal move or answers 500 gets the seat's default, goes
away after two failures in a row and its seat plays on as the autopilot — and every table, the good
bot's among them, finishes (outcomes are awaited, times never asserted). The secret is shown once; a
URL the outbound client would not call is refused."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from examples.remote_bot import make_server, random_legal
from service.app import api_keys
from service.settings import Settings
from service.wiring import build_store
from tools.trickler import Trickler

from .conftest import Stack, live_stack

pytestmark = pytest.mark.xdist_group("e2e-remote-bots")
VARIANT = "crazy-eights"  # a match is one hand: short
FAST = {"bot_delay_ms": {"easy": [0, 0], "medium": [0, 0]}}
SLOW_S = 5.0  # the sleeping bot answers after this, past its call's timeout (MEOW_REMOTE_BOT_TIMEOUT_MS)
Choose = Callable[[dict[str, Any]], Any]


def _sleepy(request: dict[str, Any]) -> Any:
    time.sleep(SLOW_S)
    return random_legal(request)


def _garbage(request: dict[str, Any]) -> Any:
    return "the queen of hearts, please"


def _illegal(request: dict[str, Any]) -> Any:
    return {"type": "play", "card": "XX:9"}


def _crash(request: dict[str, Any]) -> Any:
    raise RuntimeError("the bot's brain fell over")  # the reference server answers 500


BAD: dict[str, Choose] = {"timeout": _sleepy, "malformed": _garbage, "illegal": _illegal, "status": _crash}


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url, MEOW_OUTBOUND_ALLOW_PRIVATE="1", MEOW_REMOTE_BOT_FAILURES="2",  # + an arena worker
                    MEOW_REMOTE_BOT_TIMEOUT_MS="1500", MEOW_REMOTE_BOT_HEALTH_MS="2000",
                    workers=[[], ["--queues", "arena", "--no-dispatcher"]]) as s:
        yield s


@pytest.fixture(scope="module")
def key(stack: Stack) -> str:
    store = build_store(Settings(redis_url=stack.env["REDIS_URL"], key_prefix=stack.env["MEOW_KEY_PREFIX"]))
    return api_keys.create(store, "e2e remote bots", now_ms=int(time.time() * 1000))[1]


@pytest.fixture(scope="module")
def bot_url() -> Iterator[Callable[[Choose, dict[str, str]], str]]:
    """A reference bot on loopback playing ``choose``; it reads its secret from ``holder["secret"]``
    (known once the bot is registered)."""
    servers: list[Any] = []

    def start(choose: Choose, holder: dict[str, str]) -> str:
        server = make_server(lambda: holder.get("secret", ""), 0, choose)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/meow"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def register(stack: Stack, key: str, name: str, url: str) -> dict[str, Any]:
    r = httpx.post(f"{stack.base}/v1/bots", json={"name": name, "url": url, "games": [VARIANT]},
                   headers={"Meow-Key": key})
    assert r.status_code == 201, r.text
    return r.json()


def table(stack: Stack, key: str, bot_id: str) -> str:
    """A running table: the remote bot in seat 0, an easy bot in seat 1."""
    created = httpx.post(f"{stack.base}/v1/games", json={"variant": VARIANT, "max_players": 2, "options": FAST}).json()
    gid, owner = created["id"], {"Authorization": f"Bearer {created['owner_token']}", "Meow-Key": key}
    seated = httpx.post(f"{stack.base}/v1/games/{gid}/seats", json={"bot": {"remote": bot_id}}, headers=owner)
    assert seated.status_code == 201, seated.text
    assert httpx.post(f"{stack.base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}},
                      headers=owner).status_code == 201
    assert httpx.post(f"{stack.base}/v1/games/{gid}/start", headers=owner).status_code == 200
    return gid


def wait_for(what: Callable[[], bool], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.1)
    raise AssertionError("not reached")


def status(stack: Stack, gid: str) -> str:
    return str(httpx.get(f"{stack.base}/v1/games/{gid}").json()["status"])


def version(stack: Stack, gid: str) -> int:
    return int(httpx.get(f"{stack.base}/v1/games/{gid}").json()["version"])


def bot(stack: Stack, key: str, bot_id: str) -> dict[str, Any]:
    r = httpx.get(f"{stack.base}/v1/bots/{bot_id}", headers={"Meow-Key": key})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_good_and_failing_remote_bots_play_on_the_real_stack(stack: Stack, key: str,
                                                              bot_url: Callable[[Choose, dict[str, str]], str]) -> None:
    holders: dict[str, dict[str, str]] = {why: {} for why in ("good", *BAD)}
    ids: dict[str, str] = {}
    for why, holder in holders.items():
        made = register(stack, key, f"bot {why}", bot_url(BAD.get(why, random_legal), holder))
        holder["secret"] = made["secret"]
        ids[why] = made["id"]
    listed = httpx.get(f"{stack.base}/v1/bots", headers={"Meow-Key": key})
    assert listed.status_code == 200 and {b["id"] for b in listed.json()["bots"]} == set(ids.values())
    assert not any(h["secret"] in listed.text for h in holders.values())  # shown once, at registration
    games = {why: table(stack, key, ids[why]) for why in holders}
    # every failing bot goes away, and the good bot's table plays its whole match meanwhile
    wait_for(lambda: all(bot(stack, key, ids[why])["stats"]["went_away"] >= 1 for why in BAD))
    wait_for(lambda: status(stack, games["good"]) == "finished")
    good = bot(stack, key, ids["good"])["stats"]
    # (on a loaded machine even a good bot may miss a call's time: only that failure is allowed)
    assert good["answered"] > 0 and good["failures"] == good["failed_timeout"], good
    for why in BAD:
        stats = bot(stack, key, ids[why])["stats"]
        assert stats[f"failed_{why}"] >= 2 and stats["answered"] == 0, (why, stats)
    # a failing bot's table plays on (its seat's defaults, then the autopilot)
    at = {why: version(stack, games[why]) for why in BAD}
    wait_for(lambda: all(version(stack, games[why]) >= at[why] + 10 or status(stack, games[why]) == "finished"
                         for why in BAD))
    events = httpx.get(f"{stack.base}/v1/games/{games['good']}/events", params={"after": 0}).json()["events"]
    assert any(e.get("seat") == 0 and e["type"] != "SeatJoined" for e in events)  # the remote seat played
    assert not any(e["type"] == "TimedOut" for e in events)  # its defaults, if any, were played at once


def test_refusals_of_the_bots_api(stack: Stack, key: str) -> None:
    assert httpx.post(f"{stack.base}/v1/bots", json={"name": "x", "url": "http://127.0.0.1:9/", "games": [VARIANT]}
                      ).status_code == 401  # no key
    bad_url = httpx.post(f"{stack.base}/v1/bots", json={"name": "x", "url": "ftp://example.com/", "games": [VARIANT]},
                         headers={"Meow-Key": key})
    assert bad_url.status_code == 422 and bad_url.json()["code"] == "url_refused"
    assert httpx.get(f"{stack.base}/v1/bots/b000000000000", headers={"Meow-Key": key}).status_code == 404
    made = register(stack, key, "rotating", "http://127.0.0.1:9/")
    rotated = httpx.post(f"{stack.base}/v1/bots/{made['id']}/rotate", headers={"Meow-Key": key}).json()
    assert rotated["secret"] != made["secret"] and rotated["id"] == made["id"]
    assert httpx.delete(f"{stack.base}/v1/bots/{made['id']}", headers={"Meow-Key": key}).status_code == 204
    assert httpx.get(f"{stack.base}/v1/bots/{made['id']}", headers={"Meow-Key": key}).status_code == 404


def test_a_registered_bot_plays_an_arena_on_the_arena_worker(stack: Stack, key: str,
                                                              bot_url: Callable[[Choose, dict[str, str]], str]) -> None:
    """A registered bot as an arena entrant, asked by the arena lane's worker through the signed call
    (its failures: tests/unit/test_arenas.py); another key's bot is 404, a bot that does not play the
    variant or an entrant naming both a strength and a bot is 422."""
    store = build_store(Settings(redis_url=stack.env["REDIS_URL"], key_prefix=stack.env["MEOW_KEY_PREFIX"]))
    other = api_keys.create(store, "another integrator", now_ms=int(time.time() * 1000))[1]
    holder: dict[str, str] = {}
    mine = register(stack, key, "arena entrant", bot_url(random_legal, holder))
    holder["secret"] = mine["secret"]
    theirs = register(stack, other, "x", "http://127.0.0.1:9/")

    def arena(entrant: dict[str, Any], variant: str = VARIANT) -> httpx.Response:
        return httpx.post(f"{stack.base}/v1/arenas", headers={"Meow-Key": key}, json={
            "variant": variant, "games": 2, "seats": 2, "entrants": [{"strength": "easy"}, entrant]})

    assert arena({"remote": theirs["id"]}).status_code == 404
    other_variant = next(v for v in ("prsi", "crazy-eights", "uno") if v != VARIANT)
    assert arena({"remote": mine["id"]}, other_variant).json()["code"] == "invalid_request"
    assert arena({"remote": mine["id"], "strength": "easy"}).status_code == 422
    made = arena({"remote": mine["id"]})
    assert made.status_code == 202, made.text
    assert made.json()["entrants"][1] == {"name": "arena entrant", "strength": "remote", "remote": mine["id"]}
    assert made.json()["duplicate"] is False
    url = f"{stack.base}/v1/arenas/{made.json()['id']}"
    wait_for(lambda: httpx.get(url, headers={"Meow-Key": key}).json()["status"] != "running")
    end = httpx.get(url, headers={"Meow-Key": key}).json()
    assert end["status"] == "finished" and [e["name"] for e in end["result"]["entrants"]] == ["easy", "arena entrant"]
    stats = bot(stack, key, mine["id"])["stats"]
    assert stats["answered"] == stats["calls"] > 0, stats


def test_a_trickling_bot_holds_back_no_other_key(stack: Stack, bot_url: Callable[[Choose, dict[str, str]], str]) -> None:
    """Issue 37: one key's two bots trickle their answers (a header byte a second), seated at eight
    tables (every remote-lane thread: four calls per bot) and in an arena. Another key's bot, seated
    after, still plays its own moves (not the seat's default) and that key's arena finishes its games,
    while the trickling bots are still being called and have never finished an answer. (Before the
    total deadline and the per-key share: each trickled call held its thread for minutes, and the
    other key's bot got no call at all.)"""
    store = build_store(Settings(redis_url=stack.env["REDIS_URL"], key_prefix=stack.env["MEOW_KEY_PREFIX"]))
    slow_key = api_keys.create(store, "trickling integrator", now_ms=int(time.time() * 1000))[1]
    good_key = api_keys.create(store, "patient integrator", now_ms=int(time.time() * 1000))[1]
    tricklers = [Trickler(), Trickler()]
    arena_url = ""
    try:
        slow = [register(stack, slow_key, f"trickler {i}", t.url)["id"] for i, t in enumerate(tricklers)]
        for bot_id in slow:
            for _ in range(4):
                table(stack, slow_key, bot_id)
        made = httpx.post(f"{stack.base}/v1/arenas", headers={"Meow-Key": slow_key}, json={
            "variant": VARIANT, "games": 4, "seats": 2, "entrants": [{"strength": "easy"}, {"remote": slow[0]}]})
        assert made.status_code == 202, made.text
        arena_url = f"{stack.base}/v1/arenas/{made.json()['id']}"
        wait_for(lambda: sum(t.accepted for t in tricklers) >= 8, 30)
        holder: dict[str, str] = {}
        good = register(stack, good_key, "patient", bot_url(random_legal, holder))
        holder["secret"] = good["secret"]
        gid = table(stack, good_key, good["id"])
        theirs = httpx.post(f"{stack.base}/v1/arenas", headers={"Meow-Key": good_key}, json={
            "variant": VARIANT, "games": 2, "seats": 2, "entrants": [{"strength": "easy"}, {"remote": good["id"]}]})
        assert theirs.status_code == 202, theirs.text
        their_url = f"{stack.base}/v1/arenas/{theirs.json()['id']}"
        wait_for(lambda: bot(stack, good_key, good["id"])["stats"]["answered"] >= 3
                 and httpx.get(their_url, headers={"Meow-Key": good_key}).json()["status"] != "running", 40)
        stats = bot(stack, good_key, good["id"])["stats"]
        assert stats["answered"] >= 3 and stats["failures"] == 0, stats  # its own moves, none a default
        end = httpx.get(their_url, headers={"Meow-Key": good_key}).json()
        assert end["status"] == "finished" and end["result"]["games"] == 2, end
        assert status(stack, gid) in ("running", "finished")
        assert sum(t.finished for t in tricklers) == 0  # the tricklers never finished an answer
    finally:
        if arena_url:
            httpx.post(f"{arena_url}/cancel", headers={"Meow-Key": slow_key})
        for t in tricklers:
            t.close()
