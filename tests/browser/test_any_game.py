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
        assert texts == ["Сыграть", "Сыграть · сказать «мяу-мяу»"]
        assert [json.loads(a) for a in page.locator("[data-testid=choice]").evaluate_all(
            "els => els.map(e => e.dataset.action)")] == legal[:2]
        assert page.get_attribute("[data-card='KD:0']", "aria-label") == "король (бубны)"
    finally:
        ctx.close()
