"""The terminal table's keys, on textual's pilot, against a small fake server (httpx's
MockTransport answering as the API does): what each key sends is exactly a legal action."""
from __future__ import annotations

import asyncio
import json
import time

import httpx
from textual.widgets import Static

from service.tui.app import TableApp
from service.tui.client import MeowClient
from service.tui.session import Plan
from tests.unit.client_entry import entry

JACK = [{"type": "play", "card": "JH:0", "called_suit": s} for s in "CDHS"]


def _view(version: int, legal: list[dict], hand: list[str]) -> dict:
    return {"id": "g1", "variant": "any", "status": "running", "phase": "play", "round": 1, "version": version,
            "options": {}, "seats": [{"seat": 0, "name": "ann", "kind": "human", "hand_count": len(hand), "score": 0},
                                     {"seat": 1, "name": "bot 1", "kind": "bot", "strength": "easy",
                                      "hand_count": 5, "score": 0}],
            "table": {"top_card": "9H:0", "called_suit": None}, "turn": {"seat": 0, "deadline": None},
            "scores": [], "standings": None, "you": {"seat": 0, "hand": hand, "legal_actions": legal}}


class FakeServer:
    """The catalogue (a made-up game's entry, docs/clients.md), GET the view, POST an action
    (recorded; a refusal when asked), an event stream that ends with the entry's end event."""

    def __init__(self) -> None:
        self.view = _view(5, JACK + [{"type": "play", "card": "7H:0"}, {"type": "draw"}], ["JH:0", "7H:0", "8S:1"])
        self.posted: list[dict] = []
        self.streams = 0
        self.refuse: dict | None = None
        self.past: list[dict] = []  # the events before the view, for the JSON page

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v1/variants":
            return httpx.Response(200, json={"variants": [entry("other"), entry("any")]})
        if path == "/v1/games/g1" and request.method == "GET":
            assert request.headers["authorization"] == "Bearer T"
            return httpx.Response(200, json=self.view)
        if path == "/v1/games/g1/actions":
            body = json.loads(request.content)
            self.posted.append(body)
            if self.refuse:
                return httpx.Response(409, json=self.refuse, headers={"content-type": "application/problem+json"})
            self.view = dict(self.view, version=self.view["version"] + 1)
            return httpx.Response(200, json={"version": self.view["version"], "events": [], "game": self.view})
        if path == "/v1/games/g1/events" and "text/event-stream" not in request.headers.get("accept", ""):
            after = int(request.url.params.get("after", 0))  # listEvents as JSON: the story so far
            return httpx.Response(200, json={"events": [e for e in self.past if e["seq"] > after]})
        if path == "/v1/games/g1/events":
            self.streams += 1
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=(
                b'retry: 1000\n\nid: 99\nevent: SeedsRevealed\ndata: {"seq": 99, "type": "SeedsRevealed",'
                b' "seat": null, "data": {}}\n\n'))
        return httpx.Response(404, json={"code": "not_found", "detail": "no such thing"})


async def _until(pilot, cond, what: str) -> None:
    deadline = time.monotonic() + 30  # generous: two xdist workers share the cores
    while not cond():
        assert time.monotonic() < deadline, what
        await pilot.pause(0.02)


def _run(scenario, **view) -> FakeServer:
    server = FakeServer()
    server.view.update(view)

    async def go() -> None:
        client = MeowClient("http://meow.test", transport=httpx.MockTransport(server))
        app = TableApp(client, Plan(join="g1", token="T"))
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.view, "the view")
            await scenario(pilot, app, server)
        await client.close()

    asyncio.run(go())
    return server


def test_a_jack_asks_for_the_suit_and_sends_exactly_that_legal_action():
    async def scenario(pilot, app, server):
        hand = str(app.query_one("#hand", Static).content)
        assert "1:J♥H*" in hand and "2:7♥H*" in hand and "3:8♠S" in hand and "3:8♠S*" not in hand
        await pilot.press("1", "enter")
        assert "1: call ♣C (clubs)   2: call ♦D (diamonds)   3: call ♥H (hearts)   4: call ♠S (spades)" in str(
            app.query_one("#choices", Static).content)
        await pilot.press("4")
        await _until(pilot, lambda: server.posted, "the post")

    assert _run(scenario).posted == [{"type": "play", "card": "JH:0", "called_suit": "S"}]


def test_arrows_then_enter_play_one_card_and_escape_backs_out_of_a_choice():
    async def scenario(pilot, app, server):
        await pilot.press("enter", "escape")  # the jack's choice, then back
        assert app.choosing is None
        await pilot.press("right", "enter")
        await _until(pilot, lambda: server.posted, "the post")

    assert _run(scenario).posted == [{"type": "play", "card": "7H:0"}]


def test_an_unplayable_card_sends_nothing_and_a_letter_sends_its_action():
    async def scenario(pilot, app, server):
        await pilot.press("3", "enter")
        assert app.message == "8♠S cannot be played now" and not server.posted
        assert "[d] Draw" in str(app.query_one("#actions").children[0].label)  # the game's word for it
        await pilot.press("d")
        await _until(pilot, lambda: server.posted, "the post")

    assert _run(scenario).posted == [{"type": "draw"}]


def test_a_refusal_shows_the_problems_detail():
    async def scenario(pilot, app, server):
        server.refuse = {"type": "about:blank", "title": "Conflict", "status": 409, "code": "not_your_turn",
                         "detail": "it is seat 1's turn", "legal_actions": []}
        await pilot.press("d")
        await _until(pilot, lambda: app.message, "the error")
        assert str(app.query_one("#status", Static).content) == "it is seat 1's turn (not_your_turn)"

    _run(scenario)


def test_q_quits():
    async def scenario(pilot, app, server):
        await pilot.press("q")
        await _until(pilot, lambda: app.return_code is not None, "the exit")

    assert _run(scenario).posted == []


def test_a_finished_game_is_shown_without_opening_a_stream():
    async def scenario(pilot, app, server):
        await pilot.pause(0.3)
        assert str(app.query_one("#turn", Static).content) == "the match is over"
        assert str(app.query_one("#table", Static).content).splitlines()[:3] == [
            "Game over: you win", "penalty points: fewer is better:", "  1. ann — 0"]  # told from the view alone

    server = _run(scenario, status="finished", standings=[{"seat": 0, "name": "ann", "rank": 1, "total": 0}])
    assert server.streams == 0


def test_the_clock_tick_after_the_screen_is_gone_does_nothing():
    """The half-second tick can fire once more while the app closes, after its widgets are gone
    (seen in the e2e TUI test: NoMatches '#turn' on exit): it must not raise."""
    async def scenario(pilot, app, server):
        await app.query_one("#turn", Static).remove()
        app.tick()  # raised textual.css.query.NoMatches before

    _run(scenario)


def test_the_feed_stops_at_the_event_the_catalogue_names_as_the_end():
    """The end of a match is the catalogue's `end_event` (one kernel module owns it), never a name
    of the client's: a made-up end event ends the stream, and the same stream without it goes on."""
    class Ending(FakeServer):
        def __init__(self, end: str) -> None:
            super().__init__()
            self.end = end

        def __call__(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/v1/variants":
                return httpx.Response(200, json={"variants": [{**entry("any"), "end_event": self.end}]})
            if request.url.path == "/v1/games/g1/events" and "text/event-stream" in request.headers.get("accept", ""):
                self.streams += 1
                return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=(
                    f'id: {5 + self.streams}\nevent: TheLastOne\ndata: {{"seq": {5 + self.streams}, '
                    f'"type": "TheLastOne", "seat": null, "data": {{}}}}\n\n').encode())
            return super().__call__(request)

    async def go(server: FakeServer) -> TableApp:
        client = MeowClient("http://meow.test", transport=httpx.MockTransport(server))
        app = TableApp(client, Plan(join="g1", token="T"))
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.seen, "the first event")
            await _until(pilot, lambda: app.feed.over or server.streams >= 2, "the end or a reconnect")
        await client.close()
        return app

    ended = Ending("TheLastOne")
    assert asyncio.run(go(ended)).feed.over and ended.streams == 1
    other = Ending("SomethingElse")
    app = asyncio.run(go(other))
    # each stream brings the next event (a third may open while the app closes): in order, none twice
    assert not app.feed.over and other.streams >= 2 and app.seen == list(range(6, 6 + len(app.seen)))
