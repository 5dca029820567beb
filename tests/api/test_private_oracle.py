"""The private-table oracle over every route (issue 37 item 5): a request without a token about a
private table answers exactly as the same request about an unknown game id (status, problem body,
code, the headers that could tell), whatever the route and method.

The routes are not listed here: they come from the spec (every path with a ``{game_id}``-like
parameter, every method, each of the operation's documented request bodies plus an empty one, its
required query parameters filled from their schema), so a route added later is checked without a
line changing here. ``test_the_oracle_catches_a_planted_leak`` shows the check fails on a route
that tells a private table from an unknown id."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Response
from flask.testing import FlaskClient

from tests.api.conftest import ADMIN, FAST, Table, auth

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = ("get", "post", "delete", "put", "patch")
TELLING_HEADERS = ("Content-Type", "Allow", "Cache-Control", "ETag", "Location", "Retry-After", "WWW-Authenticate")
GAME_PARAM = "game"  # a path parameter that names a table: {game_id}, {game}, ...


def _fill(schema: dict[str, Any], example: Any = None) -> Any:
    """A minimal value of a parameter's schema (its example first)."""
    if example is not None:
        return example
    if "example" in schema:
        return schema["example"]
    if schema.get("enum"):
        return schema["enum"][0]
    return {"integer": 1, "number": 1, "boolean": "true"}.get(schema.get("type", "string"), "x")


def requests_about_a_game(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, str], Any]]:
    """(method, path template, query, json body or None) of every request the spec lets a client
    make about one table: every method of every path with a game parameter, each documented body."""
    for path, item in spec["paths"].items():
        params = [p for p in item.get("parameters", []) if p.get("in") == "path"]
        names = [p["name"] for p in params] or [s.strip("{}") for s in path.split("/") if s.startswith("{")]
        if not any(GAME_PARAM in n for n in names):
            continue
        for method in METHODS:
            op = item.get(method) or {}
            query = {p["name"]: str(_fill(p.get("schema", {}), p.get("example")))
                     for p in op.get("parameters", []) if p.get("in") == "query" and p.get("required")}
            content = (op.get("requestBody") or {}).get("content", {}).get("application/json", {})
            bodies: list[Any] = [None, {}] + [e["value"] for e in content.get("examples", {}).values()]
            if "example" in content:
                bodies.append(content["example"])
            for body in bodies:
                yield method, path, query, body


def _url(template: str, game_id: str) -> str:
    out = []
    for part in template.split("/"):
        if part.startswith("{"):
            part = game_id if GAME_PARAM in part else "0"
        out.append(part)
    return "/".join(out)


def _answer(r: Response, game_id: str) -> tuple[int, str, dict[str, str | None]]:
    body = r.get_data(as_text=True).replace(game_id, "<id>")
    return r.status_code, body, {h: (r.headers.get(h) or "").replace(game_id, "<id>") or None for h in TELLING_HEADERS}


def differences(table: Table, spec: dict[str, Any], game_id: str, unknown_id: str,
                headers: dict[str, str] | None = None) -> list[str]:
    """Every request (no token) whose answer about ``game_id`` differs from the answer about ``unknown_id``."""
    client = FlaskClient(table.app, table.app.response_class)  # not the spec-checking client: a planted
    # route is in no spec file
    out = []
    for method, template, query, body in requests_about_a_game(spec):
        answers = []
        for gid in (game_id, unknown_id):
            kw: dict[str, Any] = {"query_string": query, "headers": dict(headers or {})}
            if body is not None:
                kw["json"] = body
            answers.append(_answer(client.open(_url(template, gid), method=method.upper(), **kw), gid))
        if answers[0] != answers[1]:
            out.append(f"{method.upper()} {template} {query or ''} body={body}: private {answers[0][:2]} "
                       f"!= unknown {answers[1][:2]}")
    return out


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: the spec is large
    return yaml.load(SPEC.read_text(encoding="utf-8"), Loader=loader)


def _key(table: Table) -> str:
    r = table.client.post("/v1/admin/keys", json={"name": "portal"}, headers=auth(ADMIN))
    assert r.status_code == 201, r.json
    return r.json["secret"]


def _private(table: Table, secret: str) -> dict[str, Any]:
    r = table.client.post("/v1/games", json={"variant": "prsi", "options": FAST, "private": True},
                          headers={"Meow-Key": secret})
    assert r.status_code == 201, r.json
    return r.json


def _unknown(game_id: str) -> str:
    return "f" * 16 if game_id != "f" * 16 else "e" * 16


def test_the_spec_gives_the_oracle_every_route_of_a_table(spec: dict[str, Any]) -> None:
    """A guard on the derivation itself: it reaches the table's reads, writes and integrator routes."""
    seen = {(m, p) for m, p, _, _ in requests_about_a_game(spec)}
    for op in ("takeSeat", "act", "startGame", "leaveSeat", "getGame", "rematchGame", "rotateInvite"):
        found = [(m, p) for p, item in spec["paths"].items() for m, o in item.items()
                 if isinstance(o, dict) and o.get("operationId") == op]
        assert found and found[0] in seen, op


def test_no_token_meets_a_private_table_as_an_unknown_id_on_every_route(table: Table, spec: dict[str, Any]) -> None:
    secret = _key(table)
    other = _key(table)  # another integrator's key, no token of the table: still nothing to see
    for stage in ("open", "running", "finished"):
        g = _private(table, secret)
        gid, owner = g["id"], g["owner_token"]
        if stage == "running":
            table.join(gid, token=owner)
        if stage != "open":
            table.add_bot(gid, owner)
            if stage == "finished":  # bots only: played to its end by the follow-ups
                table.add_bot(gid, owner)
            table.start(gid, owner)
            table.drain()
        assert table.view(gid, owner)["status"] == stage
        for headers in (None, {"Meow-Key": other}) if stage == "open" else (None,):
            found = differences(table, spec, gid, _unknown(gid), headers)
            assert not found, f"{stage}:\n" + "\n".join(found)


def test_the_oracle_catches_a_planted_leak(table: Table, spec: dict[str, Any]) -> None:
    """A route that answers 403 for a table it knows and 404 otherwise is caught (the check can fail)."""
    from service.app import private_tables

    def planted(game_id: str) -> Any:
        service = table.service
        if private_tables.is_private(service, game_id):
            return {"type": "about:blank", "code": "forbidden"}, 403
        return {"type": "about:blank", "code": "not_found"}, 404

    table.app.add_url_rule("/v1/games/<game_id>/planted", "planted", planted, methods=["GET"])
    planted_spec = {"paths": {**spec["paths"], "/v1/games/{game_id}/planted": {
        "parameters": [{"in": "path", "name": "game_id", "required": True}], "get": {"operationId": "planted"}}}}
    gid = _private(table, _key(table))["id"]
    found = differences(table, planted_spec, gid, _unknown(gid))
    assert found and all("/planted" in f for f in found), found
