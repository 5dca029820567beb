"""The spec check of the API suite can fail: an undeclared field, a wrong type or an unlisted
status in a real answer is caught."""
from __future__ import annotations

import orjson
import pytest

from .conftest import Table
from .spec_check import SpecCheckingClient, check


def test_the_suite_checks_every_answer(table: Table) -> None:
    assert isinstance(table.client, SpecCheckingClient)


def _view(table: Table) -> tuple[str, dict]:
    g = table.create()
    r = table.client.get(f"/v1/games/{g['id']}")
    assert r.status_code == 200
    return g["id"], r.json


SERVED = {"Cache-Control": "no-cache", "Vary": "Authorization, Accept-Encoding"}  # an anonymous view's


def test_an_undeclared_field_fails(table: Table) -> None:
    gid, view = _view(table)
    check("GET", f"/v1/games/{gid}", {}, 200, "application/json", orjson.dumps(view), SERVED)  # as served: fine
    with pytest.raises(AssertionError, match=r"openapi\.yaml"):
        check("GET", f"/v1/games/{gid}", {}, 200, "application/json", orjson.dumps({**view, "leak": 1}), SERVED)
    seats = [{**view["seats"][0], "hand": ["7H:0"]}] if view["seats"] else [{"seat": 0, "hand": []}]
    with pytest.raises(AssertionError, match=r"openapi\.yaml"):
        check("GET", f"/v1/games/{gid}", {}, 200, "application/json", orjson.dumps({**view, "seats": seats}), SERVED)


def test_a_missing_or_unlisted_cache_control_fails(table: Table) -> None:
    gid, view = _view(table)
    for headers in ({"Vary": SERVED["Vary"]}, {**SERVED, "Cache-Control": "public, max-age=60"}):
        with pytest.raises(AssertionError, match=r"openapi\.yaml"):
            check("GET", f"/v1/games/{gid}", {}, 200, "application/json", orjson.dumps(view), headers)


def test_a_wrong_type_and_an_error_that_is_not_problem_json_fail(table: Table) -> None:
    gid, view = _view(table)
    with pytest.raises(AssertionError, match=r"openapi\.yaml"):
        check("GET", f"/v1/games/{gid}", {}, 200, "application/json", orjson.dumps({**view, "version": "7"}), SERVED)
    # any status the operation does not list falls to the default response: problem+json only
    problem = {"type": "x", "title": "t", "status": 418, "detail": "d", "code": "teapot"}
    check("GET", f"/v1/games/{gid}", {}, 418, "application/problem+json", orjson.dumps(problem), {})
    with pytest.raises(AssertionError, match=r"openapi\.yaml"):
        check("GET", f"/v1/games/{gid}", {}, 418, "application/json", orjson.dumps({"code": 418}), {})
    with pytest.raises(AssertionError, match=r"openapi\.yaml"):
        check("GET", f"/v1/games/{gid}", {}, 418, "application/problem+json",
              orjson.dumps({**problem, "code": 418}), {})
