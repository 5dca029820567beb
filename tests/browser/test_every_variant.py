"""Every variant the registry serves plays in the web table (a game added later included, with no
change here or in the page): a table from the lobby's form with the fewest easy bots, started, and
moves made by clicking the controls drawn from the view, each matching the API's legal actions."""
from __future__ import annotations

from typing import Any

import pytest

from service.games import registry
from tests.browser.driver import (
    check_controls_match_the_api,
    click_a_move,
    create_table,
    stored,
    version,
    view,
    wait_for_move_or_end,
)

VARIANTS = registry.variants_catalog()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v["name"])
def test_every_variant_in_the_registry_plays_by_clicking(page: Any, live: Any, variant: dict) -> None:
    names = {o["name"] for o in variant["options"]}
    options = {"bot_delay_ms": {"easy": [0, 50]}} if "bot_delay_ms" in names else None
    gid = create_table(page, variant["name"], "Ana", options)
    seat = stored(page, gid)
    for n in range(max(1, variant["min_players"] - 1)):
        page.click("[data-testid=add-bot-easy]")
        page.wait_for_selector(f"[data-testid=seat][data-seat='{n + 1}']")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table]:not([data-status=open])")
    clicked = 0
    for _ in range(20):  # two moves of this seat (a bot may end a short game first)
        if clicked >= 2 or wait_for_move_or_end(page, 60) == "finished":
            break
        if not check_controls_match_the_api(page, live.base, gid, seat["token"]):
            continue  # the table moved while looking: look again
        before = version(page)
        if click_a_move(page):
            clicked += version(page) > before
    final = view(live.base, gid, seat["token"])
    assert clicked >= 1 or final["status"] == "finished", final
    assert final["variant"] == variant["name"] and final["version"] > 3
