"""The table renders a game it has never heard of from its view and its catalogue entry alone: a
Crazy Eights view (the shape of its spec: play{card, called_suit}, draw, pass; a `suit` to follow,
`draws_left` in the turn) served to the real page through Playwright's routing, told in the words
of the server's catalogue. Every legal action becomes a control carrying exactly its JSON, an
eight's four suit calls sit behind the card, and a click POSTs the entry as it is."""
from __future__ import annotations

import json
from typing import Any

import requests

GID = "c8c8c8c8c8c8c8c8"
EIGHTS = [{"type": "play", "card": "8C:0", "called_suit": s} for s in ("C", "D", "H", "S")]
LEGAL = [*EIGHTS, {"type": "play", "card": "KH:0"}, {"type": "draw"}, {"type": "pass"}]


def _view(version: int, legal: list[dict]) -> dict:
    return {
        "id": GID, "variant": "crazy-eights", "name": "Eights", "options": {}, "status": "running", "phase": "play",
        "round": 1, "version": version,
        "seats": [{"seat": 0, "name": "Ana", "kind": "human", "strength": None, "state": "active", "hand_count": 3,
                   "score": 0, "timeouts": 0, "removal_deadline": None},
                  {"seat": 1, "name": "bot 1", "kind": "bot", "strength": "easy", "state": "active", "hand_count": 5,
                   "score": 0, "timeouts": 0, "removal_deadline": None}],
        "table": {"top_card": "5H:0", "called_suit": None, "suit": "H", "pending_draw": 0, "direction": 1,
                  "stock_count": 30, "discard_count": 1, "dealer": 1, "drawn_this_turn": 0, "max_draw_cards": 3,
                  "plays": 0, "max_turns": 200, "passes": 0},
        "turn": {"seat": 0, "turn_id": 1, "deadline": None, "draws_left": 3},
        "announcements": [], "armed": None, "scores": [], "standings": None, "end_reason": None,
        "intermission_deadline": None, "record": None,
        "you": {"seat": 0, "hand": ["8C:0", "5S:0", "KH:0"], "legal_actions": legal},
    }


def _words(base: str, variant: str, lang: str) -> dict[str, str]:
    catalogue = requests.get(f"{base}/v1/variants", timeout=10).json()["variants"]
    return next(e for e in catalogue if e["name"] == variant)["words"][lang]


def test_a_game_unknown_to_the_page_is_played_from_its_view(page: Any, live: Any) -> None:
    words = _words(live.base, "crazy-eights", "en")
    posted: list[dict] = []

    def game(route: Any) -> None:
        if route.request.method == "POST":
            posted.append(json.loads(route.request.post_data))
            body = {"version": 12, "events": [], "game": _view(12, [])}
        else:
            body = _view(12, []) if posted else _view(11, LEGAL)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"**/v1/games/{GID}", game)
    page.route(f"**/v1/games/{GID}/actions", game)
    page.route(f"**/v1/games/{GID}/events**", lambda r: r.fulfill(status=200, content_type="text/event-stream",
                                                                 body="retry: 60000\n\n"))
    page.add_init_script(f"localStorage.setItem('meow:game:{GID}', JSON.stringify({{token: 'x', seat: 0}}))")
    page.goto(f"/#/g/{GID}")
    page.wait_for_selector("[data-testid=hand] [data-card]")

    def shown() -> list[dict]:
        return [json.loads(a) for a in page.locator("[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")]

    assert shown() == [{"type": "play", "card": "KH:0"}, {"type": "draw"}, {"type": "pass"}]
    assert page.get_attribute("[data-card='5S:0']", "data-action") is None  # not legal: shown, not a control
    assert page.locator("[data-testid=actions] button").all_inner_texts() == [words["action.draw"], words["action.pass"]]
    eight = page.locator("[data-testid=hand] [data-card='8C:0']")
    assert eight.get_attribute("data-choices") == "4"
    eight.focus()
    page.keyboard.press("Enter")
    choices = page.locator("[data-testid=choice]")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "choice"  # the focus moved into the chooser
    page.keyboard.press("Escape")
    assert choices.count() == 0
    assert page.evaluate("() => document.activeElement.dataset.card") == "8C:0"  # and back to its card
    page.keyboard.press("Enter")
    assert [json.loads(a) for a in choices.evaluate_all("els => els.map(e => e.dataset.action)")] == EIGHTS
    assert "\u2660 S" in choices.nth(3).inner_text()  # the suit by symbol and letter
    facts = page.inner_text("[data-testid=table-facts]")
    assert "\u2665 H" in facts and words["field.stock_count"] in facts  # the suit to follow, by symbol and letter
    assert f"{words['field.draws_left']}: 3" in page.inner_text("[data-testid=turn]")
    assert page.get_attribute("[data-testid=top-card]", "data-card") == "5H:0"
    choices.nth(3).click()
    page.wait_for_selector("[data-testid=table][data-version='12']")
    assert posted == [EIGHTS[3]]  # exactly the entry, as it is
    assert page.locator("[data-action]").count() == 0


def test_a_last_card_the_announcement_and_a_penalty_in_russian(browser: Any, live: Any) -> None:
    """The table's own announcement word, its open window with the grace on another seat, a last card
    playable with and without the announcement, a pending penalty: in the page's Russian."""
    gid = "a1a1a1a1a1a1a1a1"
    legal = [{"type": "play", "card": "7H:0"}, {"type": "play", "card": "7H:0", "announce": True},
             {"type": "take_penalty"}, {"type": "announce"}]
    v = _view(30, legal)
    v.update(id=gid, variant="mau-mau-classic", options={"announce_word": "мяу-мяу"},
             announcements=[{"seat": 1, "open": True, "satisfied": False, "opened_at": 0,
                             "grace_until": 4_000_000_000_000, "armed": False}])
    v["table"] = {"top_card": "7S:0", "called_suit": None, "pending_draw": 2, "pending_skip": False, "direction": 1,
                  "stock_count": 20, "discard_count": 6, "dealer": 0, "drew_on": {}}
    v["turn"] = {"seat": 0, "turn_id": 9, "deadline": None}
    v["you"]["hand"] = ["7H:0", "KD:0"]
    ctx = browser.new_context(locale="ru-RU", base_url=live.base)
    try:
        page = ctx.new_page()
        page.route(f"**/v1/games/{gid}", lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(v)))
        page.route(f"**/v1/games/{gid}/events**", lambda r: r.fulfill(status=200, content_type="text/event-stream",
                                                                     body="retry: 60000\n\n"))
        page.add_init_script(f"localStorage.setItem('meow:game:{gid}', JSON.stringify({{token: 'x', seat: 0}}))")
        page.goto(f"/#/g/{gid}")
        page.wait_for_selector("[data-testid=hand] [data-card]")
        assert page.inner_text("[data-testid=turn]").startswith("Ваш ход")
        assert page.inner_text("[data-testid=action-announce]") == "Сказать «мяу-мяу»"
        assert page.inner_text("[data-testid=action-take_penalty]") == "Взять штраф"
        assert page.inner_text("[data-testid=seat][data-seat='1'] [data-testid=announcement]") == "отсрочка «мяу-мяу»"
        assert "Карт к взятию" in page.inner_text("[data-testid=table-facts]")
        page.click("[data-testid=hand] [data-card='7H:0']")
        texts = page.locator("[data-testid=choice]").all_inner_texts()
        assert texts == ["Сыграть · сказать «мяу-мяу»", "Сыграть"]  # the fuller way first: with the word
        assert [json.loads(a) for a in page.locator("[data-testid=choice]").evaluate_all(
            "els => els.map(e => e.dataset.action)")] == [legal[1], legal[0]]
        assert page.get_attribute("[data-card='KD:0']", "aria-label") == "король (бубны)"
    finally:
        ctx.close()


def test_a_game_the_server_does_not_have_is_drawn_from_its_catalogue_entry(page: Any) -> None:
    """A made-up game (tests/unit/client_entry.py: its faces, suits, marks, words and end event)
    added to the catalogue through routing, with a view of it: every part of the table is drawn
    where its marks say and told in its words, a token card with no suit plays by its `card`, the
    log tells events in its words (and leaves out a quiet one), and the feed stops at its end event."""
    from tests.unit.client_entry import entry

    gid = "e1e1e1e1e1e1e1e1"
    made_up = {**entry("made-up"), "end_event": "TheEnd"}
    legal = [{"type": "pass_card", "card": "cat:k2", "kind": "k2", "step": 3}, {"type": "draw"}]
    v = _view(40, legal)
    v.update(id=gid, variant="made-up", options={"announce_word": "Mau"})
    v["seats"][1]["name"] = "bea"
    v["table"] = {"top_card": "QH:1", "called_suit": "S", "stock_count": 7, "direction": -1, "passed": [1],
                  "dealer": 0, "race": {"slaps": [1, 0]}, "round_end": {"reason": "empty_hand", "winner": 1}}
    v["turn"] = {"seat": None, "deadline": 4_000_000_000_000, "step": 3}
    v["you"]["hand"] = ["cat:k2", "7H:0", "cat:k2"]
    posted: list[dict] = []
    events = [{"seq": 41, "type": "CardPlayed", "seat": 1, "at": "", "round": 1, "data": {"card": "QH:1"}},
              {"seq": 42, "type": "TurnStarted", "seat": 0, "at": "", "round": 1, "data": {}},
              {"seq": 43, "type": "TheEnd", "seat": None, "at": "", "round": 1, "data": {}}]
    stream = "".join(f"id: {e['seq']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)

    def variants(route: Any) -> None:
        r = route.fetch()
        body = r.json()
        body["variants"].append(made_up)
        route.fulfill(response=r, body=json.dumps(body))

    def game(route: Any) -> None:
        if route.request.method == "POST":
            posted.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(v))

    page.route("**/v1/variants", variants)
    page.route(f"**/v1/games/{gid}", game)
    page.route(f"**/v1/games/{gid}/actions", game)
    page.route(f"**/v1/games/{gid}/events**", lambda r: r.fulfill(status=200, content_type="text/event-stream", body=stream))
    page.add_init_script(f"localStorage.setItem('meow:game:{gid}', JSON.stringify({{token: 'x', seat: 0}}))")
    page.goto(f"/#/g/{gid}")
    page.wait_for_selector("[data-testid=hand] [data-card]")
    assert page.inner_text("[data-testid=turn]").startswith("Everyone passes a cat (step 3)")  # its turn.step words
    assert page.locator("[data-testid=turn] [data-testid=timer]").count() == 1  # the turn's timer field
    assert page.get_attribute("[data-testid=top-card]", "aria-label") == "queen of hearts"
    assert page.get_attribute("[data-testid=top-suit]", "data-value") == "S"
    assert page.inner_text("[data-testid=top-suit]") == "Called suit: \u2660 S (spades)"
    facts = page.inner_text("[data-testid=table-facts]")
    assert "Stock" in facts and "counter-clockwise \u21ba" in facts and "passed" not in facts  # per seat: not a row
    assert "Round over (a hand emptied); winner: bea" in page.inner_text(".felt")
    bea = page.inner_text("[data-testid=seat][data-seat='1']")
    assert "passed \u2713" in bea and "slapped #1" in bea
    assert "dealer" in page.inner_text("[data-testid=seat][data-seat='0']")
    cats = page.locator("[data-testid=hand] [data-card='cat:k2']")
    assert cats.count() == 2 and cats.first.get_attribute("aria-label") == "Pass cat k2"  # equal ids: one card's copies
    assert page.get_attribute("[data-testid=hand] [data-card='7H:0']", "data-action") is None
    assert page.locator("[data-testid=actions] button").all_inner_texts() == ["Draw"]
    page.wait_for_selector("[data-testid=log] li[data-seq='41']")
    page.wait_for_selector("[data-testid=feed-status][data-state=ended]")  # stopped at the entry's end event
    logged = page.locator("[data-testid=log] li").evaluate_all("els => els.map(e => e.dataset.seq)")
    assert "42" not in logged  # its words leave TurnStarted out of a log
    assert page.inner_text("[data-testid=log] li[data-seq='41']") == "#41 bea played queen of hearts"
    cats.first.click()
    for _ in range(50):
        if posted:
            break
        page.wait_for_timeout(100)
    assert posted == [legal[0]]  # exactly the entry, as it is


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# each drawn control of the selector that is under 44x44 CSS px, as [what, width, height]
SMALL = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return [e.dataset.action || e.dataset.testid || e.textContent.trim(), r.width, r.height];
}).filter(([, w, h]) => w < 43.5 || h < 43.5)"""
# the element drawn at the middle of the selector's element is that element (or inside it): nothing covers it
UNCOVERED = """sel => { const e = document.querySelector(sel); const r = e.getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const at = document.elementFromPoint(x, y);
  return y > 0 && y < innerHeight && at !== null && (at === e || e.contains(at)); }"""


def test_a_chooser_outlives_another_seats_event_and_a_stale_tap_is_told(browser: Any, live: Any) -> None:
    """Issue 42 items 3 and 4 on a page fed through routing, on a 390x844 touch phone and then at
    1280x800: an open chooser (thumb-sized, and on the phone every control; the top card and the
    called suit still in sight) stays open, the very same element, when a bot's event re-renders the
    table with this seat's moves unchanged; a tap made while the feed holds an event the view does
    not is not posted once the fresh view shows the move gone ("too late"), and the chooser closes;
    a move the server refuses with 409 is told in the same words."""
    state = {"view": _view(11, LEGAL), "hold": False}
    state["view"]["table"]["called_suit"] = "S"
    held: list[Any] = []
    queue: list[dict] = []
    posted: list[dict] = []

    def game(route: Any) -> None:
        if route.request.method == "POST":
            posted.append(json.loads(route.request.post_data))
            route.fulfill(status=409, content_type="application/problem+json", body=json.dumps(
                {"type": "about:blank", "title": "Conflict", "status": 409, "code": "version_conflict",
                 "detail": "the game has moved on"}))
        elif state["hold"]:
            held.append(route)
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(state["view"]))

    def events(route: Any) -> None:
        body = "retry: 100\n\n" + "".join(f"id: {e['seq']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in queue)
        queue.clear()
        route.fulfill(status=200, content_type="text/event-stream", body=body)

    def bot_event(seq: int, legal: list[dict]) -> None:
        state["view"] = _view(seq, legal)
        state["view"]["table"]["called_suit"] = "S"
        state["view"]["seats"][1]["hand_count"] = 5 + seq - 11
        queue.append({"seq": seq, "type": "CardDrawn", "seat": 1, "at": "", "round": 1, "data": {"seat": 1}})

    ctx = browser.new_context(locale="en-US", base_url=live.base, **PHONE)
    try:
        page = ctx.new_page()
        page.route(f"**/v1/games/{GID}", game)
        page.route(f"**/v1/games/{GID}/actions", game)
        page.route(f"**/v1/games/{GID}/events**", events)
        page.add_init_script(f"localStorage.setItem('meow:game:{GID}', JSON.stringify({{token: 'x', seat: 0}}))")
        page.goto(f"/#/g/{GID}")
        page.wait_for_selector("[data-testid=hand] [data-card]")
        _open_a_chooser_and_let_a_bot_move(page, bot_event, 12, "[data-testid=table] button")

        state["hold"] = True  # the next reads of the view wait: the page holds version 12, the feed brings 13
        bot_event(13, [{"type": "draw"}])
        page.wait_for_selector("[data-testid=feed-status][data-last-event-id='13']")
        assert page.get_attribute("[data-testid=table]", "data-version") == "12"
        page.locator("[data-testid=choice]").nth(3).click()
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        state["hold"] = False
        for route in held:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(state["view"]))
        page.wait_for_selector("[data-testid=notice][data-state=too-late]")
        assert page.inner_text("[data-testid=notice]") == "Too late: the step moved on."
        assert posted == [] and page.locator("[data-testid=chooser]").count() == 0  # not posted; closed

        bot_event(14, LEGAL)
        page.wait_for_selector("[data-testid=table][data-version='14']")
        page.click("[data-testid=hand] [data-card='KH:0']")
        for _ in range(100):
            if posted:
                break
            page.wait_for_timeout(50)
        assert posted == [{"type": "play", "card": "KH:0"}]
        page.wait_for_selector("[data-testid=notice][data-state=too-late]")  # the 409, in words

        page.set_viewport_size(DESKTOP["viewport"])  # the same at a desktop's size (the chooser's buttons)
        _open_a_chooser_and_let_a_bot_move(page, bot_event, 15, "")
    finally:
        ctx.close()


def _open_a_chooser_and_let_a_bot_move(page: Any, bot_event: Any, seq: int, small: str) -> None:
    page.click("[data-testid=hand] [data-card='8C:0']")
    page.wait_for_selector("[data-testid=chooser]")
    controls = ["[data-testid=choice], [data-testid=choice-cancel]", *([small] if small else [])]
    assert page.evaluate(SMALL, ", ".join(controls)) == []
    assert page.evaluate(UNCOVERED, "[data-testid=top-card]") and page.evaluate(UNCOVERED, "[data-testid=top-suit]")
    page.evaluate("() => { document.querySelector('[data-testid=chooser]').dataset.mark = 'kept'; }")
    bot_event(seq, LEGAL)  # another seat moved; this seat's moves are the same
    page.wait_for_selector(f"[data-testid=table][data-version='{seq}']")
    assert page.get_attribute("[data-testid=chooser]", "data-mark") == "kept"  # the same element, still open
    assert page.get_attribute("[data-testid=hand] [data-card='8C:0']", "aria-expanded") == "true"
