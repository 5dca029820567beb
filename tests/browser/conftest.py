"""Browser tests: Playwright driving Debian's Chromium (``executable_path``) against the live stack
(gunicorn + a real `meow worker` + Redis, tests/e2e/conftest.py). Without Chromium or the
``playwright`` package they fail, saying what to install; they never skip."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import Stack, live_stack
from tools.chromium import MESSAGE, find

STREAM_S = 2  # every event stream ends after 2 s: the page must resume each time with Last-Event-ID


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
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any, live: Stack) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage) on the live stack; an uncaught script error fails."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US", base_url=live.base)
    context.set_default_timeout(30_000)  # generous: a loaded machine, two xdist workers
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
        assert not errors, f"script errors on the page: {errors}"
    finally:
        context.close()
