"""The terminal client's polish (issue 42, item 8), on textual's pilot against the fake server of
test_tui_app.py: at 80x24 the scores are whole (a row and a total per seat, ten seats too), a
spectator's footer offers no play keys, your own win reads "you win" (the default name is `me`),
the client's own "cannot be played now" is gone once the table moves on (the end screen), and
the story is told from the recent events when the screen opens."""
from __future__ import annotations

import asyncio

import httpx
import pytest
from textual.widgets import Static

from service.tui import render
from service.tui.app import WATCH_HELP, TableApp
from service.tui.client import MeowClient
from service.tui.game import Game
from service.tui.session import Plan
from tests.unit.client_entry import entry
from tests.unit.test_tui_app import FakeServer, _until
from tests.unit.test_tui_story import _busy_view, _rendered

NAMES = ["me", "bot 1", "bot 2", "bot 3", "bot 4", "bot 5", "bot 6", "bot 7", "bot 8", "bot 9"]


def _view_of(seats: int, rounds: int, finished: bool = False) -> dict:
    view = _busy_view(seats=2, rounds=rounds)
    view["seats"] = [{"seat": s, "name": NAMES[s], "kind": "human" if s == 0 else "bot", "strength": None if s == 0 else "easy",
                      "state": "active", "hand_count": 7, "score": 100 + s} for s in range(seats)]
    view["scores"] = [{"round": r, "points": {str(s): r * s for s in range(seats)},
                       "totals": {str(s): 100 + s if r == rounds else r * s for s in range(seats)}}
                      for r in range(1, rounds + 1)]
    if finished:
        view.update(status="finished", turn=None, phase="over", end_reason="x")
        view["you"]["legal_actions"] = []
        view["standings"] = [{"seat": s, "name": NAMES[s], "rank": 1 if s == 0 else 2, "total": 100 + s}
                             for s in range(seats)]
    return view


class Watched(FakeServer):
    """The fake server for a spectator: the view without a token."""

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/games/g1" and request.method == "GET":
            assert "authorization" not in request.headers
            return httpx.Response(200, json=self.view)
        return super().__call__(request)


def _run(server: FakeServer, scenario, size=(80, 24), plan: Plan | None = None) -> None:
    async def go() -> None:
        client = MeowClient("http://meow.test", transport=httpx.MockTransport(server))
        app = TableApp(client, plan or Plan(join="g1", token="T"))
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: app.view and app.feed.over, "the view and the feed's end")
            await pilot.pause(0.1)
            await scenario(pilot, app, server)
        await client.close()

    asyncio.run(go())


@pytest.mark.parametrize(("seats", "finished"), [(3, True), (10, False), (10, True)],
                         ids=["3-seats-match-over", "10-seats-playing", "10-seats-match-over"])
def test_at_80x24_the_scores_show_every_seat_and_its_total(seats, finished):
    """The end screen (its summary fills the table box) and a ten-seat table: every seat's score row
    with its total, and every seat's row, on an 80x24 screen (before: the scores were cut to a row)."""
    server = FakeServer()
    server.view = _view_of(seats, 2, finished)

    async def scenario(pilot, app, server):
        rows = [line.split() for line in _rendered(app, "scores")]
        for s in range(seats):
            name = NAMES[s].split()
            assert any(r[:len(name)] == name and r[-1] == str(100 + s) for r in rows), (NAMES[s], rows)
        shown = " ".join(_rendered(app, "seats"))
        assert all(f"{s}: {NAMES[s]}" in shown for s in range(seats)), shown
        if finished:
            assert _rendered(app, "table")[0].strip().startswith("Game over")

    _run(server, scenario)


def test_a_spectators_footer_offers_no_play_keys():
    server = Watched()
    server.view = {**_view_of(3, 1), "you": None}

    async def scenario(pilot, app, server):
        footer = " ".join(_rendered(app, "help"))
        assert footer.strip() == WATCH_HELP and "Enter" not in footer and "card" not in footer
        assert str(app.query_one("#hand", Static).content) == "watching: no hand"

    _run(server, scenario, plan=Plan(watch="g1"))


def test_your_own_win_reads_you_win_whatever_your_name():
    view = _view_of(2, 1, finished=True)
    game = Game(entry("any"))
    game.view = view
    assert render.summary_lines(game, view, {"reason": "x", "winner": 0}, None, me=0)[0] == "Game over (x): you win"
    assert render.summary_lines(game, view, {"reason": "x", "winners": [1, 0]}, None, me=0)[0] == \
        "Game over (x): you and bot 1 win"
    assert render.summary_lines(game, view, None, None, me=0)[0] == "Game over (x): you win"  # from the standings
    assert render.summary_lines(game, view, None, None, me=1)[0] == "Game over (x): me wins"  # another's name
    ended = {"seq": 6, "type": "RoundEnded", "seat": None, "data": {"reason": "x", "winner": 0}}
    assert render.event_line(game, ended, me=0).endswith("— you win")


def test_a_stale_cannot_be_played_now_is_gone_on_the_end_screen():
    server = FakeServer()

    async def scenario(pilot, app, server):
        await pilot.press("3")  # 8S:1 has no legal action
        await pilot.press("enter")
        await _until(pilot, lambda: "cannot be played now" in app.message, "the hint")
        over = _view_of(2, 1, finished=True)
        over["version"] = server.view["version"] + 3
        app.apply(over)  # the match ended (as the next fetch after the last event brings it)
        await pilot.pause(0.05)
        assert app.message == "" and not app.query_one("#status", Static).display

    _run(server, scenario, size=(120, 40))


def test_the_story_is_told_from_the_recent_events_when_the_screen_opens():
    """The log opens with the events before the view (the JSON page the web page also reads, from
    version - 60), not empty until the next move; the stream then follows from the view's version."""
    server = FakeServer()
    server.past = [{"seq": s, "type": "CardPlayed", "seat": 1, "data": {"seat": 1, "card": "9H:0"}}
                   for s in range(1, 6)]

    async def scenario(pilot, app, server):
        assert list(app.told)[:5] == ["bot 1 played 9 of hearts"] * 5, list(app.told)
        assert "bot 1 played 9 of hearts" in " ".join(_rendered(app, "log"))
        assert app.seen == [99]  # the stream brought only what came after the view

    _run(server, scenario, size=(120, 40))
