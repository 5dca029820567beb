"""A Sakapuss table in the browser with two bots: the owner adds an easy and a medium bot and starts;
the human passes a cat by clicking it (its pass_card control) and sees the step resolve: the pass in
the seat's own pass log, the received cat in the hand; the slap control is there all along."""
from __future__ import annotations

import json
import time
from typing import Any

from tests.browser.driver import check_controls_match_the_api, create_table, stored, view


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
    log = api["you"]["pass_log"]
    assert log and log[0]["passed"] == passed["action"]["kind"]
    cells = page.locator("[data-testid=you-pass_log] tbody tr").first.locator("td").all_inner_texts()
    assert cells == [str(log[0]["step"]), log[0]["passed"], log[0]["received"]]
    hand = list(passed["hand"])
    hand.remove(f"cat:{log[0]['passed']}")
    page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v",
                           arg=api["version"])
    after = sorted(page.locator("[data-testid=hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    if len(api["you"]["pass_log"]) == 1 and api["phase"] == "passing":  # nothing else moved the hand meanwhile
        assert after == sorted(hand + [f"cat:{log[0]['received']}"])
    assert page.locator("[data-testid=table-facts]").inner_text().count("Steps resolved") == 1
