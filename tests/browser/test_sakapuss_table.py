"""A Sakapuss table in the browser with two bots: the owner adds an easy and a medium bot and starts;
the human passes a cat by clicking it (its pass_card control) and sees the step resolve: the pass in
the seat's own pass log, the received cat in the hand; the slap control is there all along."""
from __future__ import annotations

import json
import re
import time
from typing import Any

import requests

from tests.browser.driver import check_controls_match_the_api, create_table, stored, version, view


def test_a_pass_step_with_two_bots(page: Any, live: Any) -> None:
    gid = create_table(page, "sakapuss", "Ana", {"pass_timeout_s": 30}, players=3)
    token = stored(page, gid)["token"]
    page.click("[data-testid=add-bot-easy]")
    page.wait_for_selector("[data-testid=seat][data-seat='1']")
    page.click("[data-testid=add-bot-medium]")
    page.wait_for_selector("[data-testid=seat][data-seat='2']")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table][data-status=running]")
    assert [(s["kind"], s["strength"]) for s in view(live.base, gid)["seats"]] == [
        ("human", None), ("bot", "easy"), ("bot", "medium")]

    deadline = time.monotonic() + 60
    passed: dict | None = None
    while time.monotonic() < deadline:  # a bot dealt four of a kind may slap first: then pass in the next step
        rows = page.locator("[data-testid=you-pass_log] tbody tr")
        if passed is not None and rows.count():
            break
        cats = page.locator("[data-testid=hand] button[data-action]")
        if passed is None and cats.count():
            for _ in range(20):
                if check_controls_match_the_api(page, live.base, gid, token):
                    break
                page.wait_for_timeout(100)
            slap = json.loads(page.get_attribute("[data-testid=action-slap]", "data-action"))
            assert slap["type"] == "slap" and isinstance(slap["seen_step"], int)
            before = page.locator("[data-testid=hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            action = json.loads(cats.first.get_attribute("data-action"))
            assert action["type"] == "pass_card" and f"cat:{action['kind']}" == cats.first.get_attribute("data-card")
            cats.first.click()
            page.wait_for_selector("[data-testid=you-passed_kind], [data-testid=you-pass_log]")
            passed = {"action": action, "hand": before}
        page.wait_for_timeout(200)
    else:
        raise AssertionError("the pass step did not resolve in time")

    api = view(live.base, gid, token)
    words = _words(live.base)
    log = api["you"]["pass_log"]
    assert log and log[0]["passed"] == passed["action"]["kind"]
    cells = page.locator("[data-testid=you-pass_log] tbody tr").first.locator("td").all_inner_texts()
    assert cells == [str(log[0]["step"]), words[f"passed.{log[0]['passed']}"], words[f"received.{log[0]['received']}"]]
    hand = list(passed["hand"])
    hand.remove(f"cat:{log[0]['passed']}")
    page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v",
                           arg=api["version"])
    after = sorted(page.locator("[data-testid=hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    if len(api["you"]["pass_log"]) == 1 and api["phase"] == "passing":  # nothing else moved the hand meanwhile
        assert after == sorted(hand + [f"cat:{log[0]['received']}"])
    facts = page.locator("[data-testid=table-facts]").inner_text()
    assert facts.count(words["field.kinds"]) == 1 and words[f"kinds.{api['table']['kinds'][0]}"] in facts
    for hidden in ("resolved_steps", "races", "voided_races", "step"):  # counters for the rules: not drawn
        assert words[f"field.{hidden}"] not in facts, hidden
    # issue 42: the cats by name (and glyph) everywhere, never by their ids; a header with no debug traces
    assert not re.search(r"\bk[0-4]\b", page.inner_text("[data-testid=table]"))
    card = page.locator("[data-testid=hand] [data-card]").first
    assert words[f"label.{card.get_attribute('data-card').split(':')[1]}"] in card.inner_text()
    assert page.inner_text("#table-title") == "Sakapuss at Ana's table"
    meta = page.inner_text(".table-head .meta")
    assert meta.startswith("Sakapuss \u00b7 running") and "event" not in meta and "passing" not in meta
    _slap_warning_follows_the_view(page, live.base, gid, token, words)


def _slap_warning_follows_the_view(page: Any, base: str, gid: str, token: str, words: dict[str, str]) -> None:
    """The warning beside Slap! is the view's `slap_warning` in words (RULES §6.5)."""
    for _ in range(50):
        api = view(base, gid, token)
        if version(page) == api["version"] and api["status"] == "running":
            warning = api["you"]["slap_warning"]
            shown = page.locator("[data-testid=you-slap_warning]")
            if warning is None:
                assert shown.count() == 0
            else:
                text = words[f"slap_warning.{warning}"].replace("{options.false_slap_draws}",
                                                                 str(api["options"]["false_slap_draws"]))
                assert shown.inner_text() == text
            if version(page) == api["version"]:
                return
        page.wait_for_timeout(100)
    raise AssertionError("the table never held still long enough to compare")


def _words(base: str) -> dict[str, str]:
    catalogue = requests.get(f"{base}/v1/variants", timeout=10).json()["variants"]
    return next(e for e in catalogue if e["name"] == "sakapuss")["words"]["en"]


ROUND_END = [  # a slap race that bot 1 won (events as the feed sends them)
    {"seq": 30, "type": "SlapMade", "seat": 1, "data": {"seat": 1, "seen_step": 2, "position": 1, "race_id": 1}},
    {"seq": 31, "type": "SlapMade", "seat": 0, "data": {"seat": 0, "seen_step": 2, "position": 2, "race_id": 1}},
    {"seq": 32, "type": "RaceResolved", "seat": None, "data": {
        "race_id": 1, "first_slapper": 1, "valid": True, "grace": False, "order": [1, 0],
        "draws": [{"seat": 2, "count": 1, "reason": "non_slapper"}], "reopened_step": None, "deadline": None}},
    {"seq": 33, "type": "ChanceCardDrawn", "seat": None, "data": {
        "seat": 2, "card": "par:lice:2:a", "reason": "non_slapper", "effect": "parasite", "removed": [], "returned": [],
        "deck_count": 24}},
    {"seq": 34, "type": "RoundEnded", "seat": None, "data": {"reason": "race", "winner": 1, "first_slapper": 1,
                                                            "valid": True}},
    {"seq": 35, "type": "RoundScored", "seat": None, "data": {
        "round": 1, "points": {"0": 0, "1": 0, "2": 2}, "totals": {"0": 0, "1": 0, "2": 2},
        "parasite_cards": {"0": 0, "1": 0, "2": 1}, "intermission_deadline": 4_000_000_000_000}},
]


def test_a_round_end_says_who_took_the_round(page: Any, live: Any) -> None:
    """Issue 42 item 1, on a page fed through routing: after a slap race the banner's headline says
    who took the round and why, in the game's words, and never that everyone "went out"."""
    gid = "5a5a5a5a5a5a5a5a"
    words = _words(live.base)
    seats = [{"seat": i, "name": n, "kind": k, "strength": st, "state": "active", "hand_count": 0, "score": sc,
              "timeouts": 0, "removal_deadline": None, "parasites": p}
             for i, (n, k, st, sc, p) in enumerate([("Ana", "human", None, 0, []), ("bot 1", "bot", "easy", 0, []),
                                                    ("bot 2", "bot", "medium", 2, ["par:lice:2:a"])])]
    v = {"id": gid, "variant": "sakapuss", "name": None, "options": {"false_slap_draws": 2}, "status": "running",
         "phase": None, "round": 1, "version": 35, "seats": seats, "table": None, "turn": None, "announcements": [],
         "armed": None, "scores": [{"round": 1, "points": {"0": 0, "1": 0, "2": 2}, "totals": {"0": 0, "1": 0, "2": 2}}],
         "standings": None, "end_reason": None, "intermission_deadline": 4_000_000_000_000, "record": None,
         "you": {"seat": 0, "hand": [], "passed_kind": None, "pass_log": [], "slap_warning": None, "legal_actions": []}}
    events = [{**e, "at": "", "round": 1} for e in ROUND_END]
    page.route(f"**/v1/games/{gid}", lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(v)))
    page.route(f"**/v1/games/{gid}/events**", lambda r: r.fulfill(
        status=200, content_type="application/json", body=json.dumps({"events": events, "version": 35}))
        if "text/event-stream" not in (r.request.headers.get("accept") or "")
        else r.fulfill(status=200, content_type="text/event-stream", body="retry: 60000\n\n"))
    page.add_init_script(f"localStorage.setItem('meow:game:{gid}', JSON.stringify({{token: 'x', seat: 0}}))")
    page.goto(f"/#/g/{gid}")
    page.wait_for_selector("[data-testid=round-end]")
    assert page.inner_text("[data-testid=headline]").endswith(words["headline.race"].replace("{winner:seat}", "bot 1"))
    assert page.locator("[data-testid=went-out]").count() == 0
    assert page.inner_text("#table-title") == "Sakapuss at Ana's table"
