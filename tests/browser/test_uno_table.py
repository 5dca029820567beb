"""A real UNO table in the browser (issue 28): created from the lobby's generated form with the call
on, an easy and a medium bot, a whole hand played by clicking data-action controls (a wild names its
colour through the chooser), standings at the end. The web table has no UNO code: it draws the
game from the catalogue's faces, words and marks."""
from __future__ import annotations

from typing import Any

from tests.browser.driver import create_table, play_to_the_end, stored, view

OPTIONS = {"bot_delay_ms": {"easy": [50, 100], "medium": [50, 100]}, "cards_dealt": 2, "uno_call": True}


def test_a_whole_uno_hand_against_two_bots_by_clicking(page: Any, live: Any) -> None:
    gid = create_table(page, "uno-rlcard", "Ana", OPTIONS, players=3)
    seat = stored(page, gid)
    v = view(live.base, gid)
    assert v["variant"] == "uno-rlcard" and v["options"]["uno_call"] is True
    page.click("[data-testid=add-bot-easy]")
    page.wait_for_selector("[data-testid=seat][data-seat='1']")
    page.click("[data-testid=add-bot-medium]")
    page.wait_for_selector("[data-testid=seat][data-seat='2']")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table][data-status=running]")
    page.wait_for_selector("[data-testid=top-card][data-card]")
    moves = play_to_the_end(page, live.base, gid, seat["token"])
    final = view(live.base, gid, seat["token"])
    assert final["status"] == "finished" and final["standings"]
    page.wait_for_selector("[data-testid=standings]")
    shown = page.locator("[data-testid=standings] li").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    assert shown == [s["seat"] for s in final["standings"]]
    assert moves >= 1
