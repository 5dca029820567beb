"""Browser tests: Playwright driving Debian's Chromium (``executable_path``) against the live stack
(gunicorn + a real `meow worker` + Redis, tests/e2e/conftest.py). Without Chromium or the
``playwright`` package they fail, saying what to install; they never skip.

Every page any test opens is watched (``Watch``): a test fails on any uncaught script error and on
any console error, except Chromium's own network line for a move (POST .../actions) the server
refused with 409 or 412 because the table had moved on (matched by URL and status)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import Stack, live_stack
from tools.chromium import MESSAGE, find

STREAM_S = 2  # every event stream ends after 2 s: the page must resume each time with Last-Event-ID
ACTIONS = re.compile(r"/v1/games/[A-Za-z0-9_-]+/actions$")
REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of (409|412)\b")


class Watch:
    """The page errors and console errors of every page of the watched browser contexts."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def context(self, ctx: Any) -> Any:
        ctx.on("page", self.page)
        return ctx

    def page(self, pg: Any) -> None:
        pg.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        pg.on("console", self.console)

    def console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        where = (msg.location or {}).get("url", "")
        if REFUSED.match(msg.text) and ACTIONS.search(where.split("?")[0]):
            return  # a move the server refused as stale (409/412): the page tells the player in words
        self.problems.append(f"console error: {msg.text} ({where})")


WATCH = Watch()


class Watched:
    """The browser, with every new context watched (WATCH)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        return WATCH.context(self._browser.new_context(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def no_page_errors() -> Iterator[None]:
    """Each test fails on the page errors and console errors of the pages it opened (WATCH)."""
    WATCH.problems.clear()
    yield
    problems, WATCH.problems[:] = list(WATCH.problems), []
    assert not problems, f"errors on the page: {problems}"


@pytest.fixture(scope="package")
def live(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url, MEOW_SSE_MAX_S=str(STREAM_S)) as s:
        yield s


@pytest.fixture(scope="package")  # stopped after tests/browser: Playwright's sync API keeps an event
def browser() -> Iterator[Any]:  # loop running in the main thread, and later asyncio.run() would fail
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need the `playwright` package: pip install -e '.[dev]'", pytrace=False)
    path = find()
    if path is None:
        pytest.fail(MESSAGE, pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        try:
            yield Watched(b)
        finally:
            b.close()


@pytest.fixture
def page(browser: Any, live: Stack) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage) on the live stack (watched: no_page_errors)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US", base_url=live.base)
    context.set_default_timeout(30_000)  # generous: a loaded machine, two xdist workers
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()
