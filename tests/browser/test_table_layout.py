"""The table as it is laid out on a 1280x800 desktop and a 390x844 phone, one match seen through both
at once (the same seat's token in two browser profiles): no horizontal scroll in the lobby and at
the table; on your turn your hand, every legal-action control and a card's chooser inside the
viewport (nothing you need below the fold); the match-end banner names the winner, shows the
revealed hands and the totals; the page honours prefers-reduced-motion; and axe-core (pinned,
tools/axe.py) finds no serious or critical accessibility violation in the lobby, at a turn and at
the match's end."""
from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.browser.driver import MOVES, check_controls_match_the_api, version, view
from tools.axe import MESSAGE as AXE_MESSAGE, find as find_axe

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# a short match: one round, four cards each from a deck of four ranks (two copies of each card; the
# jacks call a suit: a chooser), a quick bot
FAST = {"bot_delay_ms": {"easy": [50, 150]}, "match_end_mode": "single_round", "hand_size": 4,
        "deck_ranks": ["J", "Q", "K", "A"], "deck_copies": 2}

OVERFLOW = "() => [document.documentElement.scrollWidth, window.innerWidth]"
WIDE = """() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
  .slice(0, 6).map(e => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
# every element of the selector that is drawn, as [what, left, top, right, bottom] with the viewport
OUTSIDE = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return [e.dataset.action || e.dataset.card || e.textContent.trim(), r.left, r.top, r.right, r.bottom];
}).filter(([, l, t, r, b]) => l < -0.5 || t < -0.5 || r > innerWidth + 0.5 || b > innerHeight + 0.5)"""
NEEDED = "[data-testid=hand] [data-card], [data-testid=actions] [data-action], [data-testid=choice], [data-testid=choice-cancel]"


def _axe_source() -> str:
    path = find_axe()
    if path is None:
        pytest.fail(AXE_MESSAGE, pytrace=False)  # never skipped: `python -m tools.axe` installs it
    return path.read_text(encoding="utf-8")


def _axe(page: Any, source: str, where: str) -> None:
    """axe-core's full default rule set on the page as it is; serious and critical violations fail."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source + "\n;0")  # evaluated through the DevTools protocol: the page's CSP stays as it is
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(v => ("
                          "{id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"axe-core at {where}: {json.dumps(bad, indent=1)}"


def _no_sideways_scroll(page: Any, where: str) -> None:
    width, inner = page.evaluate(OVERFLOW)
    assert width <= inner, f"{where}: the page is {width} px wide in a {inner} px viewport: {page.evaluate(WIDE)}"


def _all_in_view(page: Any, where: str) -> None:
    outside = page.evaluate(OUTSIDE, NEEDED)
    assert not outside, f"{where}: below the fold or off the side: {outside}"


@pytest.fixture
def pages(browser: Any, live: Any) -> Iterator[dict[str, Any]]:
    """A desktop page that moves and a phone page that asks for reduced motion, each its own profile."""
    out, contexts, errors = {}, [], []
    for name, (w, h) in SIZES.items():
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-US", base_url=live.base,
                                  reduced_motion="reduce" if name == "phone" else "no-preference")
        ctx.set_default_timeout(30_000)
        contexts.append(ctx)
        out[name] = ctx.new_page()
        out[name].on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield out
        assert not errors, f"script errors on the page: {errors}"
    finally:
        for ctx in contexts:
            ctx.close()


def _table_with_a_bot(base: str) -> tuple[str, dict]:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    g = requests.post(f"{base}/v1/games", json={"variant": "prsi", "max_players": 2, "options": FAST}, headers=key,
                      timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    seat = requests.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "Ana"},
                         headers={**own, "Idempotency-Key": str(uuid.uuid4())}, timeout=10).json()
    requests.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
                  headers={**own, "Idempotency-Key": str(uuid.uuid4())}, timeout=10).raise_for_status()
    requests.post(f"{base}/v1/games/{g['id']}/start", headers={**own, "Idempotency-Key": str(uuid.uuid4())},
                  timeout=10).raise_for_status()
    return g["id"], {"token": seat["token"], "seat": seat["seat"], "owner_token": g["owner_token"]}


def _at(page: Any, v: int) -> None:
    page.wait_for_function("v => Number(document.querySelector('[data-testid=table]')?.dataset.version) >= v", arg=v)


def test_lobby_table_and_match_end_fit_a_phone_and_a_desktop(pages: dict[str, Any], live: Any) -> None:
    source = _axe_source()
    began = time.monotonic()
    for name, page in pages.items():
        page.goto("/")
        page.wait_for_selector("[data-testid=create-form]")
        page.click(".all-options summary")  # the whole form, every option with its words
        page.wait_for_selector("[data-option-row]")
        _no_sideways_scroll(page, f"the lobby ({name})")
        if name == "phone":  # axe over the ~70 options once (at the desktop) is enough: it takes seconds
            page.click(".all-options summary")
        _axe(page, source, f"the lobby ({name})")
    gid, seat = _table_with_a_bot(live.base)
    for page in pages.values():
        page.evaluate("([id, s]) => localStorage.setItem('meow:game:' + id, s)", [gid, json.dumps(seat)])
        page.goto(f"/#/g/{gid}")
        page.wait_for_selector("[data-testid=you]")
    desktop, phone = pages["desktop"], pages["phone"]
    turns, checked_chooser = 0, False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        desktop.wait_for_function(f"() => document.querySelector('[data-testid=table]')?.dataset.status === 'finished' "
                                  f"|| document.querySelector({json.dumps(MOVES)}) !== null")
        if desktop.get_attribute("[data-testid=table]", "data-status") == "finished":
            break
        v = version(desktop)
        if not check_controls_match_the_api(desktop, live.base, gid, seat["token"]):
            continue  # the table moved on while looking
        api = view(live.base, gid, seat["token"])
        _at(phone, v)
        if api["version"] != v or version(phone) != v or (api["turn"] or {}).get("seat") != seat["seat"]:
            continue  # not your turn (a window anyone may act in) or moving on: look again
        turns += 1  # your turn, and the table holds still until you move
        # two copies of one card (7H:0, 7H:1; the rules name one copy in legal_actions) play alike
        controls = desktop.locator("[data-testid=hand] [data-card]").evaluate_all(
            "els => els.map(e => [e.dataset.card.split(':')[0], e.tagName === 'BUTTON'])")
        by_face: dict[str, set[bool]] = {}
        for face, playable in controls:
            by_face.setdefault(face, set()).add(playable)
        assert all(len(x) == 1 for x in by_face.values()), controls
        for name, page in pages.items():
            _all_in_view(page, f"your turn at event {v} ({name})")
            _no_sideways_scroll(page, f"the table at event {v} ({name})")
        if turns == 1:
            desktop.wait_for_timeout(500)  # the last move's arrival animation ends
            for name, page in pages.items():
                _axe(page, source, f"your turn ({name})")
            running = {name: page.evaluate("() => document.getAnimations().length") for name, page in pages.items()}
            assert running["desktop"] > 0 and running["phone"] == 0, running  # the seat to move pulses, unless reduced
        several = phone.locator("[data-testid=hand] button[data-choices]")
        if several.count() and not checked_chooser:  # a card with several ways to play: its chooser in view too
            several.first.click()
            phone.wait_for_selector("[data-testid=choice]")
            _all_in_view(phone, f"a chooser at event {v} (phone)")
            phone.click("[data-testid=choice-cancel]")
            checked_chooser = True
        mover = phone if turns % 2 else desktop  # both pages play the seat
        mover.locator(MOVES).first.click()
        if mover.locator("[data-testid=choice]").count():
            mover.locator("[data-testid=choice]").first.click()
        with contextlib.suppress(Exception):  # a refused click, the table moved meanwhile: look again
            desktop.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
                                      arg=v, timeout=10_000)
    else:
        raise AssertionError(f"the match did not end within 60 s ({turns} turns)")
    print(f"played {turns} turns in {time.monotonic() - began:.1f} s")
    final = view(live.base, gid, seat["token"])
    assert final["status"] == "finished" and turns >= 1
    winners = [s["name"] for s in final["standings"] if s["rank"] == 1]
    totals = {str(s): t for e in final["scores"] for s, t in e["totals"].items()}
    for name, page in pages.items():
        page.wait_for_selector("[data-testid=match-end] [data-testid=winner]")
        banner = page.locator("[data-testid=match-end]")
        assert all(w in banner.locator("[data-testid=winner]").inner_text() for w in winners), winners
        assert banner.locator("[data-testid=banner-actions]").count() == 1  # the place for what comes next
        shown = banner.locator("[data-testid=banner-scores] tbody tr").evaluate_all(
            "rows => rows.map(r => [r.dataset.seat, r.lastElementChild.textContent])")
        assert dict(shown) == {s: str(t) for s, t in totals.items()}
        assert banner.locator("[data-testid=revealed]").count() == len(final["seats"])  # every hand, emptied or not
        top = page.evaluate("() => document.querySelector('[data-testid=match-end]').getBoundingClientRect().top")
        assert top < page.viewport_size["height"], f"the banner is below the fold ({name})"
        _no_sideways_scroll(page, f"the match's end ({name})")
        _axe(page, source, f"the match's end ({name})")
