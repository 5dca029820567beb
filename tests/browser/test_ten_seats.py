"""A ten-seat UNO table on a phone (issue 42 item 9): the printed game seats 2-10, so the `uno`
preset's lobby form offers ten seats and nine bots, and at 390x844 the table with ten seats has no
sideways scroll and keeps every seat, your hand and your controls on the page (the lobby too)."""
from __future__ import annotations

import json
import os
import uuid
from typing import Any

import requests

from tests.browser.driver import MOVES, view
from tests.browser.test_table_layout import _all_in_view, _no_sideways_scroll

FAST = {"bot_delay_ms": {"easy": [50, 150], "medium": [50, 150]}, "match_end_mode": "single_round"}


def _ten_seat_table(base: str) -> tuple[str, dict]:
    def post(path: str, token: str | None = None, **body: Any) -> dict:
        headers = {"Idempotency-Key": str(uuid.uuid4()), **({"Authorization": f"Bearer {token}"} if token else {})}
        r = requests.post(f"{base}/v1/games{path}", json=body or None, headers=headers, timeout=10)
        r.raise_for_status()
        return r.json()

    g = post("", variant="uno", max_players=10, options=FAST)
    seat = post(f"/{g['id']}/seats", g["owner_token"], name="Ana")
    for _ in range(9):
        post(f"/{g['id']}/seats", g["owner_token"], bot={"strength": "easy"})
    post(f"/{g['id']}/start", g["owner_token"])
    return g["id"], {"token": seat["token"], "seat": seat["seat"], "owner_token": g["owner_token"]}


def test_a_ten_seat_uno_table_fits_a_phone(browser: Any, live: Any, tmp_path: Any) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", base_url=live.base,
                              has_touch=True, is_mobile=True)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/")
        page.select_option("[data-testid=variant]", "uno")
        assert page.get_attribute("[data-testid=players]", "max") == "10"
        page.click(".all-options summary")
        assert page.get_attribute("[data-option=bot_seats]", "max") == "9"
        _no_sideways_scroll(page, "the lobby's uno form (phone)")
        gid, seat = _ten_seat_table(live.base)  # through the API: nine bot seats, started
        page.evaluate("([id, s]) => localStorage.setItem('meow:game:' + id, s)", [gid, json.dumps(seat)])
        page.goto(f"/#/g/{gid}")
        page.wait_for_selector("[data-testid=table][data-status=running]")
        page.wait_for_selector("[data-testid=top-card][data-card]")
        page.wait_for_selector(MOVES)  # your turn: nine bots before you at most
        assert page.locator("[data-testid=seat]").count() == 10
        _no_sideways_scroll(page, "a ten-seat table (phone)")
        _all_in_view(page, "your turn at a ten-seat table (phone)")
        seats = page.locator("[data-testid=seat]").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
        assert all(left >= -0.5 and right <= 390.5 for left, right in seats), seats
        shot = os.environ.get("MEOW_SCREENSHOTS")  # the picture of a ten-seat table on a phone
        page.screenshot(path=f"{shot or tmp_path}/uno-ten-seats-phone.png", full_page=True)
        assert len(view(live.base, gid, seat["token"])["seats"]) == 10
        assert not errors, f"script errors on the page: {errors}"
    finally:
        ctx.close()
