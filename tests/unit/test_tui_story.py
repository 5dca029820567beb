"""`meow play` tells the story (issue 29, item 2), headless on textual's pilot against the fake
server of test_tui_app.py and its made-up game: at 80x24 (and 120x40) nothing that matters is cut
off, the log is in the game's words, a round's end names its winner, its points and the hands shown,
and one key plays the chosen card with its announcement. What is checked is what the screen shows:
each widget's rendered lines, as a terminal of that size would draw them."""
from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest

from service.tui.app import TableApp
from service.tui.client import MeowClient
from service.tui.session import Plan
from tests.unit.test_tui_app import FakeServer, _until, _view

NAMES = ["ann", "bot 1", "bernadette", "bot 3", "a long name here"]
HAND = ["JH:0", "7H:0", "8S:1", "QD:0", "AC:1", "9S:0", "KH:0"]


def _event(seq: int, kind: str, seat: int | None, **data: object) -> dict:
    return {"seq": seq, "type": kind, "seat": seat, "data": data}


class StoryServer(FakeServer):
    """The fake server with a view and an event stream of the test's own (the stream ends at the
    entry's end event, so it is read once)."""

    def __init__(self, view: dict, events: list[dict]) -> None:
        super().__init__()
        self.view, self.events = view, events

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/games/g1/events" and "text/event-stream" in request.headers.get("accept", ""):
            self.streams += 1
            body = "".join(f"id: {e['seq']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in self.events)
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())
        return super().__call__(request)


def _busy_view(seats: int = 5, rounds: int = 8) -> dict:
    """A running table at its fullest: five seats, eight scored rounds, seven cards in hand."""
    view = _view(40, [{"type": "play", "card": "7H:0"}, {"type": "draw"}], HAND)
    view["seats"] = [{"seat": s, "name": NAMES[s], "kind": "human" if s == 0 else "bot", "strength": None if s == 0 else "easy",
                      "state": "active", "hand_count": 7 if s == 0 else 3 + s, "score": 100 + s} for s in range(seats)]
    view["scores"] = [{"round": r, "points": {str(s): r * s for s in range(seats)},
                       "totals": {str(s): 100 + s if r == rounds else r * s for s in range(seats)}}
                      for r in range(1, rounds + 1)]
    view["round"] = rounds + 1
    view["options"] = {"announce_word": "Mau"}
    return view


def _story(seats: int = 5) -> list[dict]:
    """Forty moves told by the game's words, a quiet event, and one the words do not know."""
    events = [_event(10, "RoundStarted", None, round=9), _event(11, "TurnStarted", 0)]
    events += [_event(12 + i, "CardPlayed", i % seats, card=f"{'789'[i % 3]}H:0") for i in range(40)]
    events += [_event(52, "NewThing", 1, some_field=2), _event(53, "CardPlayed", 4, card="KH:0"),
               _event(99, "SeedsRevealed", None)]
    return events


def _rendered(app: TableApp, widget: str) -> list[str]:
    w = app.query_one(f"#{widget}")
    return [w.render_line(y).text.rstrip() for y in range(w.size.height)]


def _run(server: StoryServer, scenario, size: tuple[int, int]) -> StoryServer:
    async def go() -> None:
        client = MeowClient("http://meow.test", transport=httpx.MockTransport(server))
        app = TableApp(client, Plan(join="g1", token="T"))
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: app.view and app.feed.over, "the view and the whole story")
            await pilot.pause(0.1)  # the last redraw laid out
            await scenario(pilot, app)
        await client.close()

    asyncio.run(go())
    return server


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_nothing_that_matters_is_cut_off(size):
    """Every seat's row and its total, every card of the hand, the action, the turn, the title's seat
    and the newest event are on screen; no line runs past the edge."""
    async def scenario(pilot, app):
        seats, scores, log = (" ".join(_rendered(app, w)) for w in ("seats", "scores", "log"))
        for s, name in enumerate(NAMES):
            assert f"{s}: {name}" in seats and f"score {100 + s}" in seats, (name, seats)
        totals = [line.split() for line in _rendered(app, "scores")]
        assert {row[-1] for row in totals if row} >= {str(100 + s) for s in range(5)}, totals  # every total
        assert any(row[:1] == ["ann"] for row in totals) and "penalty points" in scores
        hand = " ".join(_rendered(app, "hand"))
        assert all(label in hand for label in ("J♥H", "7♥H*", "8♠S", "Q♦D", "A♣C", "9♠S", "K♥H")), hand
        assert "[d] Draw" in str(app.query_one("#actions").children[0].label)
        assert _rendered(app, "turn")[0].strip() == "your turn"
        assert _rendered(app, "title")[0].strip().endswith("seat 0")
        assert log.rstrip().endswith("a long name here played king of hearts seeds revealed"), log  # the newest last
        screen = [line for w in ("title", "turn", "table", "seats", "scores", "log", "hand", "help")
                  for line in _rendered(app, w)]
        assert all(len(line) <= size[0] for line in screen)

    _run(StoryServer(_busy_view(), _story()), scenario, size)


def test_the_log_tells_the_events_in_the_games_words_with_seat_names():
    async def scenario(pilot, app):
        log = " ".join(_rendered(app, "log"))
        told = " ".join(app.told)  # the whole story; the box shows its newest lines
        assert "bot 1 played 8 of hearts" in told and "bernadette played 8 of hearts" in log
        assert "bot 1: new thing some field 2" in log  # no words for it: still no CamelCase name
        assert not re.search(r"\b[A-Z][a-z]+[A-Z]\w*", log), log
        assert "TurnStarted" not in str(list(app.told)) and "#" not in log  # quiet events untold, no numbers

    _run(StoryServer(_busy_view(), _story()), scenario, (80, 24))


def test_a_rounds_end_names_the_winner_the_points_and_the_hands_shown():
    view = _busy_view(seats=2, rounds=2)
    view.update(turn=None, phase="intermission", intermission_deadline=4102444800000, round=2)
    view["you"]["legal_actions"] = []
    events = [_event(60, "CardPlayed", 1, card="7H:0"),
              _event(61, "RoundEnded", None, reason="empty_hand", cause=None, winner=1),
              _event(62, "HandsRevealed", None, hands={"0": ["QD:0", "cat:k2"], "1": []}),
              _event(99, "SeedsRevealed", None)]

    async def scenario(pilot, app):
        summary = _rendered(app, "table")
        assert summary[0].strip() == "Round 2 over (a hand emptied): bot 1 wins", summary
        assert "ann: 0 (total 100)" in " ".join(summary) and "bot 1: 2 (total 101)" in " ".join(summary)
        assert "penalty points: fewer is better" in " ".join(summary)
        assert "ann held: Q♦D 🐈 k2" in " ".join(summary)

    _run(StoryServer(view, events), scenario, (80, 24))


PLAYS = [{"type": "play", "card": "7H:0"}, {"type": "play", "card": "7H:0", "announce": True}]
JACK = [{"type": "play", "card": "JH:0", "called_suit": s, **said} for s in "CDHS" for said in ({}, {"announce": True})]


@pytest.mark.parametrize("keys, sent", [
    (("2", "plus"), {"type": "play", "card": "7H:0", "announce": True}),  # `+`: with the announcement, asked nothing
    (("2", "enter"), {"type": "play", "card": "7H:0"}),  # Enter: without it
    (("1", "plus", "2"), {"type": "play", "card": "JH:0", "called_suit": "D", "announce": True}),  # only the suit asked
], ids=["plus", "enter", "jack-plus"])
def test_one_key_plays_the_card_with_its_announcement(keys, sent):
    view = _view(5, JACK + PLAYS + [{"type": "draw"}, {"type": "announce"}], ["JH:0", "7H:0"])
    view["options"] = {"announce_word": "Mau"}

    async def scenario(pilot, app):
        await pilot.press(keys[0])
        assert "+ plays it and says: say “Mau”" in str(app.query_one("#choices").content)
        await pilot.press(*keys[1:])
        await _until(pilot, lambda: server.posted, "the post")

    server = StoryServer(view, [_event(99, "SeedsRevealed", None)])
    _run(server, scenario, (80, 24))
    assert server.posted == [sent]


def test_the_jack_with_plus_asks_only_for_the_suit():
    view = _view(5, JACK, ["JH:0", "7H:0"])
    view["options"] = {"announce_word": "Mau"}

    async def scenario(pilot, app):
        await pilot.press("1", "plus")
        assert app.choosing == [a for a in JACK if a.get("announce")]
        assert str(app.query_one("#choices").content).startswith("choose: 1: call ♣C (clubs)   2: call ♦D")

    _run(StoryServer(view, [_event(99, "SeedsRevealed", None)]), scenario, (80, 24))
