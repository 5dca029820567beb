"""The match end's Rematch button (service/web/static/rematch.js): the owner of a finished table
clicks it and lands at the rematch, with the same seats and its owner token carried over; the
finished table then offers the way there."""
from __future__ import annotations

import json
import time
from typing import Any

import requests

from tests.browser.driver import game_id, stored
from tests.e2e.conftest import Stack

ONE_ROUND = {"match_end_mode": "single_round", "bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0,
             "round_intermission_s": 0, "hand_size": 4, "max_turns_per_round": 50, "turn_timeout_s": None}


def _finished_bots_table(base: str) -> tuple[str, str]:
    g = requests.post(f"{base}/v1/games", json={"variant": "prsi", "options": ONE_ROUND}, timeout=10).json()
    owner = {"Authorization": f"Bearer {g['owner_token']}"}
    for _ in range(2):
        assert requests.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=owner,
                             timeout=10).status_code == 201
    assert requests.post(f"{base}/v1/games/{g['id']}/start", headers=owner, timeout=10).status_code == 200
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = requests.get(f"{base}/v1/games/{g['id']}", timeout=10).json()
        if view["status"] == "finished":
            return g["id"], g["owner_token"]
        requests.get(f"{base}/v1/games/{g['id']}/events", params={"after": view["version"], "wait": 5}, timeout=10)
    raise AssertionError("the bots did not finish")


def test_the_owner_asks_for_a_rematch_at_the_match_end(page: Any, live: Stack) -> None:
    gid, owner = _finished_bots_table(live.base)
    page.goto("/")
    page.evaluate("([id, v]) => localStorage.setItem('meow:game:' + id, v)", [gid, json.dumps({"owner_token": owner})])
    page.goto(f"/#/g/{gid}")
    page.wait_for_selector("[data-testid=table][data-status=finished]")
    page.click("[data-testid=rematch]")
    page.wait_for_selector("[data-testid=table][data-status=open]")
    rid = game_id(page)
    assert rid != gid and stored(page, rid)["owner_token"] == owner
    old = requests.get(f"{live.base}/v1/games/{gid}", timeout=10).json()
    new = requests.get(f"{live.base}/v1/games/{rid}", timeout=10).json()
    assert old["rematch"] == rid and [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    page.goto(f"/#/g/{gid}")  # the finished table now leads there
    page.click("[data-testid=rematch-open]")
    page.wait_for_selector(f"[data-testid=table][data-game='{rid}']")
