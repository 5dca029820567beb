"""The lobby and the page's shell: the language comes from the browser and the switch keeps its
choice; the create form is generated from the catalogue (types, defaults, ranges, parents); a table
created here appears in the open list for another browser, which can join it by keyboard alone;
the page loads nothing the Content-Security-Policy refuses. The switch turns every label of the page
at once, both ways, with no reload (issue 42)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests

from tests.browser.driver import create_table, stored, view

ROOT = Path(__file__).resolve().parents[2]


def test_language_from_the_browser_and_the_switch(browser: Any, live: Any) -> None:
    ctx = browser.new_context(locale="cs-CZ", base_url=live.base)
    try:
        page = ctx.new_page()
        page.goto("/")
        page.wait_for_selector("[data-testid=create-form]")
        assert page.inner_text("#lobby-title") == "Herna"
        assert page.get_attribute("html", "lang") == "cs"
        page.evaluate("() => { window.notReloaded = true; }")
        options = page.locator("[data-option-row] .option-label").all_text_contents()
        # issue 42: every label switches at once, both ways, with no reload (and a game's option words too)
        for lang in ("ru", "en", "ru"):
            page.select_option("[data-testid=lang]", lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            page.wait_for_selector("[data-testid=create-form]")
            words = _words(lang)
            assert _labels(page) == {key: words[key] for key in LABELS.values()}, lang
            assert page.input_value("[data-testid=lang]") == lang
            assert page.locator("[data-option-row] .option-label").all_text_contents() != options
            options = page.locator("[data-option-row] .option-label").all_text_contents()
        assert page.evaluate("() => window.notReloaded") is True
        page.reload()
        page.wait_for_selector("[data-testid=create-form]")
        assert page.inner_text("#lobby-title") == "Лобби"  # the choice outlives a reload
    finally:
        ctx.close()


LABELS = {"#lobby-title": "lobby.title", "#create-title": "create.title", "label[for=new-variant]": "create.variant",
          "label[for=new-me]": "create.you", "[data-testid=create]": "create.button", "[data-testid=refresh]": "lobby.refresh",
          "#list-open": "lobby.open", ".all-options summary": "create.options", ".lang-label": "lang.label"}


def _labels(page: Any) -> dict[str, str]:
    return {key: page.inner_text(sel) for sel, key in LABELS.items()}


def _words(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "service" / "web" / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def test_the_create_form_follows_the_catalogue(page: Any, live: Any) -> None:
    catalogue = requests.get(f"{live.base}/v1/variants", timeout=10).json()["variants"]
    page.goto("/")
    page.wait_for_selector("[data-testid=create-form]")
    offered = page.locator("[data-testid=variant] option").evaluate_all("els => els.map(e => e.value)")
    assert offered == [v["name"] for v in catalogue]
    # the game first offered: the first preset named as its game (a fresh browser has created none)
    assert page.input_value("[data-testid=variant]") == next(v["name"] for v in catalogue if v["name"] == v["game"])
    _labelled_by_the_games_words(page, next(v for v in catalogue if v["name"] == v["game"]))
    for variant in catalogue:
        page.select_option("[data-testid=variant]", variant["name"])
        players = page.locator("[data-testid=players]")
        assert (players.get_attribute("min"), players.get_attribute("max")) == (
            str(variant["min_players"]), str(variant["max_players"]))
        inputs = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-option]')].map(e => [
            e.dataset.option, {value: e.value, checked: e.checked, min: e.getAttribute('min'), max: e.getAttribute('max'),
                               options: e.tagName === 'SELECT' ? [...e.options].map(o => o.value) : null}]))""")
        assert set(inputs) == {o["name"] for o in variant["options"]} - {"min_players", "max_players"}
        for opt in variant["options"]:
            if opt["name"] in ("min_players", "max_players"):  # the form's own Players field
                continue
            el = inputs[opt["name"]]
            if opt["type"] == "int":
                assert el["value"] == str(opt["default"]), opt["name"]
                assert (el["min"], el["max"]) == tuple(str(x) for x in opt["range"]), opt["name"]
            elif opt["type"] == "bool":
                assert el["checked"] == opt["default"], opt["name"]
            elif opt["type"] in ("enum", "rank"):
                assert el["value"] == opt["default"] and el["options"] == (opt.get("enum") or opt["range"]), opt["name"]
    # an option whose parent is off is hidden, and shown when the parent is switched on
    child = next(((v, o) for v in catalogue for o in v["options"]
                  if o.get("parent") and isinstance(o["parent"]["value"], bool)), None)
    assert child is not None
    variant, opt = child
    page.select_option("[data-testid=variant]", variant["name"])
    page.click(".all-options summary")
    parent = page.locator(f"[data-option={opt['parent']['option']}]")
    row = page.locator(f"[data-option-row={opt['name']}]")
    parent.set_checked(not opt["parent"]["value"])
    assert row.is_hidden()
    parent.set_checked(opt["parent"]["value"])
    assert row.is_visible()


def _labelled_by_the_games_words(page: Any, variant: dict) -> None:
    """Every option's label, help and enum choices are the catalogue's words (contract W); a
    structured value (a map, a list) is number/text inputs, never a JSON box."""
    words = variant["words"]["en"]
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-option-row]')].map(r => [
        r.dataset.optionRow, {label: r.querySelector('.option-label').firstChild.textContent,
                              help: r.querySelector('.option-help')?.textContent ?? null,
                              choices: [...r.querySelectorAll('option')].map(o => [o.value, o.textContent]),
                              inputs: r.querySelectorAll('input').length, boxes: r.querySelectorAll('textarea').length}]))""")
    for opt in variant["options"]:
        if opt["name"] in ("min_players", "max_players"):
            continue
        row = shown[opt["name"]]
        assert row["label"] == words[f"option.{opt['name']}"], opt["name"]
        assert row["help"] == words[f"option.{opt['name']}.help"], opt["name"]
        if opt["type"] == "enum":
            assert row["choices"] == [[x, words[f"option.{opt['name']}.{x}"]] for x in opt["enum"]], opt["name"]
        assert row["boxes"] == 0, opt["name"]
        if isinstance(opt["default"], dict):  # one input per key (per item of a list value)
            leaves = sum(len(x) if isinstance(x, list) else 1 for x in opt["default"].values())
            assert row["inputs"] == leaves, opt["name"]


def test_another_browser_joins_from_the_lobby_by_keyboard(page: Any, browser: Any, live: Any) -> None:
    csp: list[str] = []
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    gid = create_table(page, "prsi", "Ana", players=3)
    ctx = browser.new_context(locale="en-US", base_url=live.base)
    try:
        other = ctx.new_page()
        other.goto("/")
        link = other.locator(f"[data-testid=games-open] li[data-game='{gid}'] [data-testid=join-table]")
        link.wait_for()
        link.focus()
        other.keyboard.press("Enter")
        name = other.locator("[data-testid=join-name]")
        name.wait_for()
        name.focus()
        other.keyboard.type("Bea")
        other.keyboard.press("Enter")  # submits the join form
        other.wait_for_selector("[data-testid=you][data-seat='1']")
        token = stored(other, gid)["token"]
        assert view(live.base, gid, token)["you"]["seat"] == 1
        # the owner sees the newcomer live and starts by keyboard
        page.wait_for_selector("[data-testid=seat][data-seat='1']")
        page.focus("[data-testid=start]")
        page.keyboard.press("Enter")
        other.wait_for_selector("[data-testid=table][data-status=running]")
        hand = other.locator("[data-testid=hand] [data-card]")
        assert hand.count() == view(live.base, gid, token)["options"]["hand_size"]
        for label in hand.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
            assert label and " of " in label  # "queen of hearts", never colour alone
    finally:
        ctx.close()
    assert not csp, csp
