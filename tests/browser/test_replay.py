"""A finished game in the browser: the replay slider shows `state?at=N` for the position chosen (by
value, by keyboard and by its buttons) and names its event from the history, the verifyGame report
reads as a person would, and a
spectator sees the API's own problem+json detail where the report is not theirs to read."""
from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

import requests

from tests.browser.driver import view


def _finished_game(base: str) -> tuple[str, str]:
    """A single-round Prší game against an easy bot, played to the end through the API."""
    s = requests.Session()
    g = s.post(f"{base}/v1/games", json={"variant": "prsi", "options": {
        "bot_delay_ms": {"easy": [0, 0]}, "match_end_mode": "single_round", "hand_size": 4}}, timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    me = s.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "Ana"},
                headers={**own, "Idempotency-Key": str(uuid.uuid4())}, timeout=10).json()["token"]
    s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
           headers={**own, "Idempotency-Key": str(uuid.uuid4())}, timeout=10).raise_for_status()
    s.post(f"{base}/v1/games/{g['id']}/start", headers=own, timeout=10).raise_for_status()
    rng = random.Random(7)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        v = view(base, g["id"], me)
        if v["status"] == "finished":
            return g["id"], me
        legal = v["you"]["legal_actions"]
        if legal:
            s.post(f"{base}/v1/games/{g['id']}/actions", json=rng.choice(legal),
                   headers={"Authorization": f"Bearer {me}"}, timeout=10)
        else:
            s.get(f"{base}/v1/games/{g['id']}/events?after={v['version']}&wait=2", timeout=10)
    raise AssertionError("the game did not finish")


def _at(page: Any) -> int:
    page.wait_for_function("() => { const v = document.querySelector('[data-testid=replay-view]'); const s = "
                           "document.querySelector('[data-testid=replay-slider]'); return v && s && v.dataset.at === s.value; }")
    return int(page.get_attribute("[data-testid=replay-view]", "data-at"))


def _shown_matches_the_api(page: Any, base: str, gid: str, token: str) -> int:
    at = _at(page)
    r = requests.get(f"{base}/v1/games/{gid}/state?at={at}", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    top = (r.get("table") or {}).get("top_card")
    shown = page.locator("[data-testid=replay-top-card]")
    assert (shown.get_attribute("data-card") if shown.count() else None) == top
    hand = page.locator("[data-testid=replay-hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert hand == r["you"]["hand"]
    return at


def test_the_replay_slider_and_the_verify_report_of_a_finished_game(page: Any, live: Any) -> None:
    gid, token = _finished_game(live.base)
    final = view(live.base, gid, token)
    page.add_init_script(f"localStorage.setItem('meow:game:{gid}', {json.dumps(json.dumps({'token': token, 'seat': 0}))})")
    page.goto(f"/#/g/{gid}")
    slider = page.locator("[data-testid=replay-slider]")
    assert slider.get_attribute("max") == str(final["version"]) and slider.get_attribute("min") == "1"
    assert _shown_matches_the_api(page, live.base, gid, token) == final["version"]

    history = requests.get(f"{live.base}/v1/games/{gid}/history", headers={"Authorization": f"Bearer {token}"},
                           timeout=10).json()["events"]
    first_play = next(e["seq"] for e in history if e["type"] == "CardPlayed")
    slider.fill(str(first_play))
    assert _shown_matches_the_api(page, live.base, gid, token) == first_play
    page.wait_for_selector("[data-testid=replay-event][data-type=CardPlayed]")  # the position named by its event
    played = history[first_play - 1]["data"]
    assert page.inner_text("[data-testid=replay-event]").endswith("played " + page.get_attribute(
        "[data-testid=replay-top-card]", "aria-label"))
    assert page.get_attribute("[data-testid=replay-top-card]", "data-card") == played["card"]
    before = page.get_attribute("[data-testid=replay-top-card]", "data-card")
    slider.focus()
    page.keyboard.press("ArrowLeft")  # the move before: the starter still on top
    assert _shown_matches_the_api(page, live.base, gid, token) == first_play - 1
    assert page.get_attribute("[data-testid=replay-top-card]", "data-card") != before
    page.click("[data-testid=replay-next]")
    assert _shown_matches_the_api(page, live.base, gid, token) == first_play
    slider.focus()
    page.keyboard.press("Home")
    assert _shown_matches_the_api(page, live.base, gid, token) == 1

    report = page.locator("[data-testid=verify-result]")
    report.wait_for()
    assert report.get_attribute("data-ok") == "true"
    assert f"All {final['version']} events check out." in report.inner_text()
    assert report.locator("li.ok").count() >= 3 and report.locator("li.bad").count() == 0

    spectator = page.context.browser.new_context(base_url=live.base)
    try:
        other = spectator.new_page()
        other.goto(f"/#/g/{gid}")
        detail = requests.get(f"{live.base}/v1/games/{gid}/verify", timeout=10).json()["detail"]
        other.wait_for_selector("[data-testid=verify-error]")
        assert other.inner_text("[data-testid=verify-error]") == detail
    finally:
        spectator.close()
