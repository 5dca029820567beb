"""How the browser tests drive the web table: only through its data-testid / data-action /
data-card hooks (docs/web.md), checked against what the API itself says."""
from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import requests

MOVES = ("[data-testid=hand] button[data-action], [data-testid=hand] button[data-choices], "
         "[data-testid=actions] [data-action]")


def game_id(page: Any) -> str:
    return page.url.split("#/g/")[1]


def stored(page: Any, gid: str) -> dict:
    return json.loads(page.evaluate("id => localStorage.getItem('meow:game:' + id)", gid) or "{}")


def version(page: Any) -> int:
    return int(page.get_attribute("[data-testid=table]", "data-version"))


def status(page: Any) -> str:
    return page.get_attribute("[data-testid=table]", "data-status")


def create_table(page: Any, variant: str, me: str, options: dict[str, Any] | None = None, players: int | None = None) -> str:
    """Create a table from the lobby's form (options through their generated inputs) and sit down."""
    page.goto("/")
    page.select_option("[data-testid=variant]", variant)
    page.fill("[data-testid=your-name]", me)
    if players is not None:
        page.fill("[data-testid=players]", str(players))
    if options:
        page.click(".all-options summary")
        for name, value in options.items():
            el = page.locator(f"[data-option={name}]")
            tag = el.evaluate("e => e.tagName.toLowerCase()")
            if tag == "select":
                el.select_option(str(value))
            elif tag == "fieldset" and "structured" in (el.get_attribute("class") or ""):
                for path, x in _leaves(value):  # a structured value: one input per key (and item)
                    where = json.dumps(path, separators=(",", ":"))
                    el.locator(f"input[data-path='{where}']").fill(str(x))
            elif el.get_attribute("type") == "checkbox":
                el.set_checked(bool(value))
            else:
                el.fill(str(value))
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=table][data-status=open]")
    return game_id(page)


def _leaves(value: Any, path: tuple = ()) -> list[tuple[list, Any]]:
    """The scalar leaves of a structured option value with their paths ([key, index] as the form's data-path)."""
    if isinstance(value, dict):
        return [leaf for k, x in value.items() for leaf in _leaves(x, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, x in enumerate(value) for leaf in _leaves(x, (*path, i))]
    return [(list(path), value)]


def view(base: str, gid: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.get(f"{base}/v1/games/{gid}", headers=headers, timeout=10)
    r.raise_for_status()
    return r.json()


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def check_controls_match_the_api(page: Any, base: str, gid: str, token: str) -> bool:
    """Every data-action on the page is exactly an entry of you.legal_actions, and every entry is on
    the page (a card with several entries holds them behind data-choices). False if the table moved
    on while looking (nothing checked then)."""
    v = version(page)
    api = view(base, gid, token)
    if api["version"] != v or version(page) != v:
        return False
    shown = [json.loads(a) for a in page.locator("[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")]
    if version(page) != v:
        return False
    legal = {_key(a) for a in api["you"]["legal_actions"]}
    assert {_key(a) for a in shown} <= legal, (shown, api["you"]["legal_actions"])
    behind = set(page.locator("[data-testid=hand] [data-choices]").evaluate_all("els => els.map(e => e.dataset.card)"))
    missing = [json.loads(k) for k in legal - {_key(a) for a in shown}]
    assert all(a.get("card") in behind for a in missing), (missing, behind)  # each names its hand card
    hand = page.locator("[data-testid=hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert hand == api["you"]["hand"]
    return True


def click_a_move(page: Any) -> bool:
    """One move by clicking: a card with one legal action first, else a card's first choice, else the
    first other legal action. True if something was clicked."""
    before = version(page)
    chooser = page.locator("[data-testid=choice]")
    if chooser.count():
        chooser.first.click()
    else:
        single = page.locator("[data-testid=hand] button[data-action]")
        several = page.locator("[data-testid=hand] button[data-choices]")
        other = page.locator("[data-testid=actions] [data-action]")
        if single.count():
            single.first.click()
        elif several.count():
            several.first.click()
            page.locator("[data-testid=choice]").first.click()
        elif other.count():
            other.first.click()
        else:
            return False
    # any failure (a timeout, a refusal shown in the error line, the table moved meanwhile): look again
    with contextlib.suppress(Exception):
        page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
                               arg=before, timeout=10_000)
    return True


def wait_for_move_or_end(page: Any, timeout_s: float) -> str:
    """Wait until the page offers a move ("move") or the game is finished ("finished")."""
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=table]')?.dataset.status === 'finished' "
        f"|| document.querySelector({json.dumps(MOVES)}) !== null", timeout=timeout_s * 1000)
    return "finished" if status(page) == "finished" else "move"


def play_to_the_end(page: Any, base: str, gid: str, token: str, budget_s: float = 90) -> int:
    """Click moves until the game is finished; returns how many moves were clicked."""
    deadline = time.monotonic() + budget_s
    moves = 0
    while time.monotonic() < deadline:
        if wait_for_move_or_end(page, max(1.0, deadline - time.monotonic())) == "finished":
            return moves
        if moves % 5 == 0:
            check_controls_match_the_api(page, base, gid, token)
        if click_a_move(page):
            moves += 1
    raise AssertionError(f"the game did not finish within {budget_s} s ({moves} moves clicked)")
