"""Screenshots of the web table for docs/ and the README: the lobby, a Prší table at your turn and
at the match's end, a card's open chooser, a Sakapuss table and a Sakapuss round's end, taken with
Playwright and Debian's Chromium against a fresh `meow run` (embedded Redis in a temporary folder,
or REDIS_URL with its own key prefix).

    .venv/bin/python -m tools.screenshots [--out docs] [--lang en] [--size 390x844 --suffix=-phone]

Emoji (the chance cards' icons) need a colour emoji font, e.g. Debian's fonts-noto-color-emoji; the
cat kinds' glyphs are shapes every font has.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import requests

from tools.chromium import MESSAGE, find

ROOT = Path(__file__).resolve().parents[1]
MOVES = "[data-testid=hand] button[data-action], [data-testid=hand] button[data-choices], [data-testid=actions] [data-action]"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(data_dir: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    tag = f"meowshots-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ, PORT=str(port), MEOW_DATA_DIR=data_dir, MEOW_KEY_PREFIX=tag, MEOW_QUEUE=tag,
               WEB_CONCURRENCY="1")
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "run"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/readyz", timeout=1).status_code == 200:
                return proc, base
        except requests.RequestException:
            pass
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    raise SystemExit("meow run did not become ready")


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _neighbours(base: str) -> None:
    """Two tables for the lobby to list: an open one waiting for players and a running one of bots."""
    g = requests.post(f"{base}/v1/games", json={"variant": "prsi", "name": "Friday Prší", "max_players": 4}, timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    requests.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "Bea"}, headers={**own, **_key()}, timeout=10)
    g = requests.post(f"{base}/v1/games", json={"variant": "sakapuss", "name": "Cat club", "max_players": 3}, timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    for strength in ("easy", "medium", "hard"):
        requests.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": strength}}, headers={**own, **_key()},
                      timeout=10)
    requests.post(f"{base}/v1/games/{g['id']}/start", headers=own, timeout=10)


def _create(page, variant: str, players: int, name: str) -> None:  # type: ignore[no-untyped-def]
    page.goto("/")
    page.select_option("[data-testid=variant]", variant)
    page.fill("[data-testid=table-name]", name)
    page.fill("[data-testid=your-name]", "Ana")
    page.fill("[data-testid=players]", str(players))
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=table][data-status=open]")


def _seat_at_prsi(page, base: str) -> None:  # type: ignore[no-untyped-def]
    """A one-round Prší table against an easy and a medium bot (quick ones), opened as Ana's seat."""
    g = requests.post(f"{base}/v1/games", json={"variant": "prsi", "name": "Ana vs bots", "max_players": 3, "options": {
        "match_end_mode": "single_round", "hand_size": 5,
        "bot_delay_ms": {"easy": [300, 600], "medium": [300, 600], "hard": [300, 600]}}}, headers=_key(), timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    me = requests.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "Ana"}, headers={**own, **_key()}, timeout=10).json()
    for strength in ("easy", "medium"):
        requests.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": strength}}, headers={**own, **_key()},
                      timeout=10)
    requests.post(f"{base}/v1/games/{g['id']}/start", headers={**own, **_key()}, timeout=10)
    seat = json.dumps({"token": me["token"], "seat": me["seat"], "owner_token": g["owner_token"]})
    page.evaluate("([id, s]) => localStorage.setItem('meow:game:' + id, s)", [g["id"], seat])
    page.goto(f"/#/g/{g['id']}")
    page.wait_for_selector("[data-testid=you]")


def _move(page) -> None:  # type: ignore[no-untyped-def]
    """Wait for the human's turn (or the end) and make one move: a card first, its first way to play."""
    page.wait_for_function(f"() => document.querySelector('[data-testid=table]').dataset.status === 'finished' "
                           f"|| document.querySelector({json.dumps(MOVES)}) !== null", timeout=60_000)
    if page.get_attribute("[data-testid=table]", "data-status") == "finished":
        return
    before = page.get_attribute("[data-testid=table]", "data-version")
    page.locator(MOVES).first.click()
    if page.locator("[data-testid=choice]").count():
        page.locator("[data-testid=choice]").first.click()
    with contextlib.suppress(Exception):  # refused (the table moved on): look again
        page.wait_for_function("v => document.querySelector('[data-testid=table]').dataset.version !== v", arg=before,
                               timeout=10_000)


def _seat_at(page, base: str, variant: str, name: str, options: dict, bots: tuple[str, ...]) -> str:  # type: ignore[no-untyped-def]
    """A started table of Ana's with the bots, opened as Ana's seat (owner too); its id."""
    g = requests.post(f"{base}/v1/games", json={"variant": variant, "name": name, "max_players": 1 + len(bots),
                                               "options": options}, headers=_key(), timeout=10).json()
    own = {"Authorization": f"Bearer {g['owner_token']}"}
    me = requests.post(f"{base}/v1/games/{g['id']}/seats", json={"name": "Ana"}, headers={**own, **_key()}, timeout=10).json()
    for strength in bots:
        requests.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": strength}}, headers={**own, **_key()},
                      timeout=10)
    requests.post(f"{base}/v1/games/{g['id']}/start", headers={**own, **_key()}, timeout=10)
    seat = json.dumps({"token": me["token"], "seat": me["seat"], "owner_token": g["owner_token"]})
    page.evaluate("([id, s]) => localStorage.setItem('meow:game:' + id, s)", [g["id"], seat])
    page.goto(f"/#/g/{g['id']}")
    page.wait_for_selector("[data-testid=you]")
    return str(g["id"])


# a short Prší: four ranks, two copies, so that a card with several ways to play (a suit to call) comes soon
CHOOSY = {"bot_delay_ms": {"easy": [300, 600]}, "match_end_mode": "single_round", "hand_size": 5,
          "deck_ranks": ["J", "Q", "K", "A"], "deck_copies": 2}


def _chooser(page, base: str, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Play Prší tables until a card with several ways to play is in the hand; open its chooser."""
    for _ in range(6):
        _seat_at(page, base, "prsi", "Ana vs a bot", CHOOSY, ("easy",))
        while page.get_attribute("[data-testid=table]", "data-status") != "finished":
            page.wait_for_function(f"() => document.querySelector('[data-testid=table]').dataset.status === 'finished' "
                                   f"|| document.querySelector({json.dumps(MOVES)}) !== null", timeout=60_000)
            several = page.locator("[data-testid=hand] button[data-choices]")
            if several.count():
                several.first.click()
                page.wait_for_selector("[data-testid=chooser]")
                page.wait_for_timeout(500)
                page.screenshot(path=str(path))
                return
            _move(page)
    raise SystemExit("no card with a chooser came in six tables")


def _sakapuss_round_end(page, base: str, path: Path) -> None:  # type: ignore[no-untyped-def]
    """A Sakapuss round played to its end (Ana passes her first cat each step), its banner shown."""
    _seat_at(page, base, "sakapuss", "Cat club", {"rounds": 2, "round_intermission_s": 60, "pass_timeout_s": 5,
                                                  "bot_min_reaction_ms": 350}, ("easy", "medium"))
    deadline = time.monotonic() + 180
    while not page.locator("[data-testid=round-end] [data-testid=headline]").count():
        if time.monotonic() > deadline:
            raise SystemExit("the Sakapuss round did not end in time")
        cats = page.locator("[data-testid=hand] button[data-action]")
        if cats.count():
            with contextlib.suppress(Exception):
                cats.first.click(timeout=2000)
        page.wait_for_timeout(400)
    page.wait_for_timeout(600)
    page.screenshot(path=str(path))  # the viewport: the banner at its top, the dock where it sticks


def shoot(base: str, out: Path, lang: str, size: tuple[int, int] = (1280, 800), suffix: str = "") -> list[Path]:
    from playwright.sync_api import sync_playwright

    path = find()
    if path is None:
        raise SystemExit(MESSAGE)
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang, base_url=base,
                                  device_scale_factor=1)
        page = ctx.new_page()
        page.goto("/")
        page.wait_for_selector("[data-testid=games-open] li")
        shots.append(out / f"web-lobby{suffix}.png")
        page.screenshot(path=str(shots[-1]), full_page=True)

        _seat_at_prsi(page, base)
        for i in range(12):  # a few moves in, on a turn of the human's with a card to play
            page.wait_for_selector(MOVES, timeout=60_000)
            if i >= 2 and page.locator("[data-testid=hand] button").count():
                break
            _move(page)
        page.wait_for_timeout(600)  # the last move's animation ends
        shots.append(out / f"web-prsi{suffix}.png")
        page.screenshot(path=str(shots[-1]))
        while page.get_attribute("[data-testid=table]", "data-status") != "finished":
            _move(page)
        page.wait_for_selector("[data-testid=match-end] [data-testid=winner]")
        page.wait_for_timeout(300)
        shots.append(out / f"web-prsi-end{suffix}.png")
        page.screenshot(path=str(shots[-1]))

        _create(page, "sakapuss", 3, "Sakapuss with two bots")
        page.click("[data-testid=add-bot-easy]")
        page.wait_for_selector("[data-testid=seat][data-seat='1']")
        page.click("[data-testid=add-bot-medium]")
        page.wait_for_selector("[data-testid=seat][data-seat='2']")
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-testid=hand] button[data-action]")
        page.locator("[data-testid=hand] button[data-action]").first.click()
        page.wait_for_selector("[data-testid=you-pass_log] tbody tr", timeout=60_000)
        page.wait_for_selector("[data-testid=hand] button[data-action]", timeout=60_000)
        page.wait_for_timeout(300)
        shots.append(out / f"web-sakapuss{suffix}.png")
        page.screenshot(path=str(shots[-1]))  # the viewport: the dock sticks at its bottom, under the felt

        shots.append(out / f"web-sakapuss-end{suffix}.png")
        _sakapuss_round_end(page, base, shots[-1])
        shots.append(out / f"web-chooser{suffix}.png")
        _chooser(page, base, shots[-1])
        browser.close()
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs"))
    parser.add_argument("--lang", default="en-US")
    parser.add_argument("--size", default="1280x800", help="the viewport, WIDTHxHEIGHT (a phone: 390x844)")
    parser.add_argument("--suffix", default="", help="added to each file's name (docs: `-phone` for 390x844)")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="meow-shots-") as data_dir:
        proc, base = _serve(data_dir)
        try:
            _neighbours(base)
            for shot in shoot(base, out, args.lang, (width, height), args.suffix):
                print(f"{shot} ({shot.stat().st_size:,} bytes)")
        finally:
            proc.send_signal(signal.SIGINT)  # meow run stops everything it started
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
