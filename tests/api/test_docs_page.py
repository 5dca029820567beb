"""The interactive docs: Swagger UI at /docs from files the service ships, the spec at /openapi.json,
no other host named anywhere in the page, and neither route an operation of the spec."""
from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings

TYPES = {".js": ("text/javascript", "application/javascript"), ".css": ("text/css",), ".png": ("image/png",),
         ".json": ("application/json",)}


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline: list[str] = []
        self._in_inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]
        self._in_inline = tag == "script" and "src" not in found

    def handle_endtag(self, tag: str) -> None:
        self._in_inline = False

    def handle_data(self, data: str) -> None:
        if self._in_inline:
            self.inline.append(data)


@pytest.fixture
def app() -> Iterator[Any]:
    # the plain test client: the docs routes are not in openapi.yaml, so the spec-checking one would refuse them
    yield create_app(Settings(), store=MemoryEventStore())


def _page(app: Any) -> tuple[str, Page]:
    r = app.test_client().get("/docs")
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    page = Page()
    page.feed(html)
    return html, page


def test_the_page_names_no_other_host_and_every_file_it_loads_is_served(app: Any) -> None:
    html, page = _page(app)
    assert "http://" not in html and "https://" not in html
    assert len(page.urls) >= 3  # swagger-ui.css, swagger-ui-standalone-preset.js, swagger-ui-bundle.js
    client = app.test_client()
    for url in page.urls:
        parts = urlsplit(url)
        assert not parts.scheme and not parts.netloc, f"{url} is not same-origin"
        target = urljoin("http://localhost/docs", url)
        r = client.get(urlsplit(target).path)
        assert r.status_code == 200, url
        ext = "." + url.rsplit(".", 1)[-1]
        assert r.mimetype in TYPES[ext], (url, r.mimetype)
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert len(r.data) > 1000, url
    assert any(u.endswith("swagger-ui-bundle.js") for u in page.urls)
    assert any(u.endswith("swagger-ui.css") for u in page.urls)


def test_the_page_loads_the_spec_from_openapi_json_without_the_online_validator(app: Any) -> None:
    _, page = _page(app)
    script = "".join(page.inline)
    assert re.search(r'url:\s*"/openapi\.json"', script)
    assert '"validatorUrl": null' in script  # no badge fetched from validator.swagger.io
    r = app.test_client().get("/openapi.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.json == app.extensions["meow.api"].spec.to_dict()
    assert "/v1/games" in r.json["paths"]


def test_the_page_allows_only_its_own_inline_script(app: Any) -> None:
    r = app.test_client().get("/docs")
    csp = r.headers["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["default-src"] == ["'none'"]
    assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in directives["script-src"]
    page = Page()
    page.feed(r.get_data(as_text=True))
    for script in page.inline:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in directives["script-src"]
    assert directives["connect-src"] == ["'self'"]
    # only the docs page carries it: the API's JSON answers are as they were
    assert "Content-Security-Policy" not in app.test_client().get("/v1/variants").headers


@pytest.mark.parametrize("name", ["index.html", "swagger-initializer.js", "oauth2-redirect.html",
                                  "../__init__.py", "nope.js"])
def test_only_the_needed_files_are_served(app: Any, name: str) -> None:
    # the bundle's own index.html and initializer point at petstore.swagger.io: not served
    assert app.test_client().get(f"/docs/assets/{name}").status_code == 404


def test_the_docs_routes_are_no_operations_of_the_spec(app: Any) -> None:
    spec = yaml.safe_load(app.extensions["meow.api"].spec.to_yaml())
    for path in spec["paths"]:
        assert not path.startswith("/docs") and path not in ("/openapi.json", "/openapi.yaml"), path


def test_the_spec_is_served_as_yaml_too_the_same_document_as_json_and_openapi_yaml(app: Any) -> None:
    from pathlib import Path

    client = app.test_client()
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert yaml.safe_load(r.get_data(as_text=True)) == client.get("/openapi.json").json
    committed = Path(__file__).resolve().parents[2] / "openapi.yaml"
    assert r.get_data(as_text=True) == committed.read_text(encoding="utf-8")  # what `meow openapi` prints
    assert client.get("/openapi.yaml").get_data() == r.get_data()  # written once, served again
