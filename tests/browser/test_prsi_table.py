"""A Prší table in the browser against an easy bot: created from the lobby's generated form, the bot
added and the game started by the owner's buttons, a whole round played by clicking data-action
controls; a reload in the middle keeps the seat."""
from __future__ import annotations

import re
from typing import Any

import requests

from tests.browser.conftest import STREAM_S
from tests.browser.driver import (
    check_controls_match_the_api,
    click_a_move,
    create_table,
    play_to_the_end,
    stored,
    version,
    view,
    wait_for_move_or_end,
)

FAST = {"bot_delay_ms": {"easy": [100, 300]}, "match_end_mode": "single_round", "hand_size": 4}


def _sit_with_an_easy_bot(page: Any, base: str) -> tuple[str, str]:
    gid = create_table(page, "prsi", "Ana", FAST, players=2)
    seat = stored(page, gid)
    assert seat["seat"] == 0 and seat["token"] and seat["owner_token"]
    v = view(base, gid)
    assert v["options"]["hand_size"] == 4 and v["options"]["match_end_mode"] == "single_round"
    assert v["options"]["bot_delay_ms"]["easy"] == [100, 300]
    page.click("[data-testid=add-bot-easy]")
    page.wait_for_selector("[data-testid=seat][data-seat='1']")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table][data-status=running]")
    assert [(s["kind"], s["strength"]) for s in view(base, gid)["seats"]] == [("human", None), ("bot", "easy")]
    return gid, seat["token"]


def test_a_whole_round_against_an_easy_bot_by_clicking(page: Any, live: Any) -> None:
    feeds: list[dict] = []
    page.on("request", lambda r: feeds.append({"url": r.url, **r.headers}) if "/events" in r.url else None)
    gid, token = _sit_with_an_easy_bot(page, live.base)
    page.wait_for_selector("[data-testid=top-card][data-card]")
    # the first stream ends after STREAM_S: the page resumes it mid-round (also when the round is short)
    page.wait_for_event("request", predicate=lambda r: "/events" in r.url and "last-event-id" in r.headers,
                        timeout=(STREAM_S + 8) * 1000)
    if wait_for_move_or_end(page, 20) == "move":  # your turn, and its timer counting down from the table's 45 s
        assert page.inner_text("[data-testid=turn]").startswith("Your turn")
        left = int(re.fullmatch(r"(\d+) s left", page.inner_text("[data-testid=timer]")).group(1))
        assert 0 < left <= view(live.base, gid)["options"]["turn_timeout_s"]
    moves = play_to_the_end(page, live.base, gid, token)
    assert moves >= 1
    final = view(live.base, gid, token)
    assert final["status"] == "finished" and len(final["scores"]) == 1
    page.wait_for_selector("[data-testid=standings]")
    shown = page.locator("[data-testid=standings] li").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    assert shown == [s["seat"] for s in final["standings"]]
    totals = page.locator("[data-testid=scores] tfoot td").all_inner_texts()
    assert totals == [str(final["scores"][-1]["totals"][str(s["seat"])]) for s in final["seats"]]
    # the live feed: streams end every STREAM_S seconds (conftest), and each reconnection resumed
    # from the last event seen, with the seat's token: the log holds every event once, none missing
    resumed = [f for f in feeds if "last-event-id" in f]
    assert len(resumed) >= 1, feeds
    assert all(f["authorization"] == f"Bearer {token}" and "after=" not in f["url"] for f in resumed)
    assert all(int(f["last-event-id"]) <= final["version"] for f in resumed)
    logged = sorted(int(x) for x in page.locator("[data-testid=log] li").evaluate_all("els => els.map(e => e.dataset.seq)"))
    assert len(logged) == len(set(logged)) and logged
    fed = requests.get(f"{live.base}/v1/games/{gid}/events?after={logged[0] - 1}", headers={"Authorization": f"Bearer {token}"},
                       timeout=10).json()["events"]
    words = next(e for e in requests.get(f"{live.base}/v1/variants", timeout=10).json()["variants"]
                 if e["name"] == "prsi")["words"]["en"]
    quiet = {k.split(".", 1)[1] for k, w in words.items() if k.startswith("event.") and w == ""}  # not told in a log
    assert quiet
    expected = [e["seq"] for e in fed if e["type"] not in quiet and e["seq"] <= logged[-1]]
    assert logged == expected
    # the history records the human's moves: each accepted click is one command of seat 0
    history = requests.get(f"{live.base}/v1/games/{gid}/history", headers={"Authorization": f"Bearer {token}"},
                           timeout=10).json()
    mine = [e["command"] for e in history["events"] if (e.get("command") or {}).get("seat") == 0]
    assert 1 <= len(mine) <= moves, (len(mine), moves)


def test_a_reload_in_the_middle_keeps_the_seat(page: Any, live: Any) -> None:
    gid, token = _sit_with_an_easy_bot(page, live.base)
    for _ in range(2):
        if wait_for_move_or_end(page, 20) == "finished":
            break
        click_a_move(page)
    page.reload()
    page.wait_for_selector("[data-testid=you][data-seat='0']")
    assert stored(page, gid)["token"] == token
    assert page.locator("[data-testid=join]").count() == 0  # seated, not a spectator
    api = view(live.base, gid, token)
    if api["status"] == "running":
        page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v",
                               arg=api["version"])
        for _ in range(20):  # the page and the API agree once the table holds still for a moment
            if check_controls_match_the_api(page, live.base, gid, token):
                break
            page.wait_for_timeout(150)
        else:
            raise AssertionError("the page never caught up with the API")
        if wait_for_move_or_end(page, 20) == "move":
            before = version(page)
            click_a_move(page)
            assert view(live.base, gid, token)["version"] > before  # the reloaded page still plays the seat
