"""A real Crazy Eights table in the browser (issue 14 beside issue 17): created from the lobby's
generated form with OpenSpiel's options, an easy and a medium bot, a whole hand played by clicking
data-action controls (eights name their suit through the chooser), standings at the end."""
from __future__ import annotations

from typing import Any

from tests.browser.driver import create_table, play_to_the_end, stored, view

OPTIONS = {"bot_delay_ms": {"easy": [100, 300], "medium": [100, 300]}, "use_special_cards": True,
           "max_draw_cards": 2, "max_turns": 60}


def test_a_whole_crazy_eights_hand_against_two_bots_by_clicking(page: Any, live: Any) -> None:
    gid = create_table(page, "crazy-eights", "Ana", OPTIONS, players=3)
    seat = stored(page, gid)
    v = view(live.base, gid)
    assert v["variant"] == "crazy-eights" and v["options"]["max_draw_cards"] == 2
    assert page.locator("[data-testid=add-bot-hard]").count() == 0  # only the strengths the variant offers
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
    assert moves >= 1 and final["version"] > 10
