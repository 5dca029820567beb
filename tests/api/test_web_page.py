"""The web table's files: served at / and /web/ from the package with a strict CSP, nothing loaded
from another host, every module import resolvable, every file shipped by package-data, the same
keys in all three languages, and no HTML written by the page's code (that it names no game is the
clients' guard, tests/test_clients_know_no_game.py)."""
from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from service.web.page import STATIC

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for p in STATIC.rglob("*") if p.is_file())
SCRIPTS = [p for p in FILES if p.suffix == ".js"]
TYPES = {".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml"}


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts = 0
        self.style_attrs = 0
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.urls += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]
        self.inline_scripts += tag == "script" and "src" not in found
        self.style_attrs += "style" in found or tag == "style"
        self.handlers += [k for k in found if k.startswith("on")]


@pytest.fixture
def client() -> Iterator[Any]:
    yield create_app(Settings(), store=MemoryEventStore()).test_client()


def _directives(csp: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}


def test_the_page_is_served_at_the_root_with_a_strict_policy(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    d = _directives(r.headers["Content-Security-Policy"])
    assert d["default-src"] == ["'none'"]
    assert d["script-src"] == ["'self'"] and d["style-src"] == ["'self'"] and d["connect-src"] == ["'self'"]
    assert d["frame-ancestors"] == ["'none'"] and d["base-uri"] == ["'none'"]
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    page = Page()
    page.feed(r.get_data(as_text=True))
    assert page.inline_scripts == 0 and page.style_attrs == 0 and not page.handlers  # nothing the policy would refuse
    for url in page.urls:
        if url.startswith("/docs"):
            continue
        assert url.startswith("/web/"), url
        got = client.get(url)
        assert got.status_code == 200, url
        assert got.mimetype == TYPES[Path(url).suffix], url
        assert got.headers["X-Content-Type-Options"] == "nosniff"


def test_every_module_import_and_translation_is_served(client: Any) -> None:
    imports = re.compile(r'^\s*import\s[^"\']*["\'](\./[^"\']+)["\']', re.M)
    seen = set()
    for path in SCRIPTS:
        for rel in imports.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / rel).resolve()
            assert target.is_file(), f"{path.name} imports {rel}, which is not there"
            seen.add(target)
    assert {p.resolve() for p in SCRIPTS} - seen == {(STATIC / "app.js").resolve()}  # every module used; app.js is the entry
    for path in FILES:
        if path.name == "index.html":
            continue
        r = client.get(f"/web/{path.relative_to(STATIC).as_posix()}")
        assert r.status_code == 200 and r.mimetype == TYPES[path.suffix], path


def test_nothing_comes_from_another_host() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        text = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a namespace name, never fetched
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), path.name


@pytest.mark.parametrize("path", ["/web/index.html", "/web/../page.py", "/web/nope.js", "/web/app.py",
                                  "/web/i18n/../../page.py", "/web/style.css.map"])
def test_only_the_pages_files_are_served(client: Any, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_pages_routes_are_no_operations_of_the_spec() -> None:
    app = create_app(Settings(), store=MemoryEventStore())
    spec = yaml.safe_load(app.extensions["meow.api"].spec.to_yaml())
    assert "/" not in spec["paths"] and not any(p.startswith("/web") for p in spec["paths"])
    assert "Content-Security-Policy" not in app.test_client().get("/v1/variants").headers  # the API's answers as they were


def test_every_file_is_shipped_in_the_package() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["service.web"]
    for path in FILES:
        rel = path.relative_to(STATIC.parent).as_posix()
        assert any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns), rel


def test_the_three_languages_have_the_same_words_and_every_word_used_exists() -> None:
    dicts = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "cs", "ru")}
    assert set(dicts["en"]) == set(dicts["cs"]) == set(dicts["ru"])
    for lang, d in dicts.items():
        for key, text in d.items():
            assert text.strip(), (lang, key)
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", dicts["en"][key])), (lang, key)
    used = {k for p in SCRIPTS for k in re.findall(r'\bt\("([a-z_]+(?:\.[A-Za-z_]+)*)"', p.read_text(encoding="utf-8"))}
    assert used and used <= set(dicts["en"]), used - set(dicts["en"])


def test_the_page_writes_no_html() -> None:
    """(That the page names no game, card, event, action or game field is the clients' guard:
    tests/test_clients_know_no_game.py, over every file of the page and of `meow play`.)"""
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "eval(" not in text, path.name
