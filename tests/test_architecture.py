"""House rules that code review alone would miss."""
from __future__ import annotations

import importlib
import pkgutil
import socket
from pathlib import Path

import pytest

import service
import workers

ROOT = Path(__file__).resolve().parents[1]


def _modules(pkg) -> list[str]:
    return [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]


def test_importing_the_service_touches_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("an import opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in _modules(service) + _modules(workers):
        importlib.import_module(name)
    from service.api.app import create_app
    from service.settings import Settings

    create_app(Settings(redis_url="redis://127.0.0.1:1/0"))  # building the app connects to nothing


def test_openapi_yaml_is_current() -> None:
    from service.cli import openapi_yaml

    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == openapi_yaml(), "openapi.yaml is stale: run `make openapi`"


def test_every_route_is_in_the_spec() -> None:
    from service.cli import openapi_yaml

    spec = openapi_yaml()
    for path in ("/v1/variants", "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/seats",
                 "/v1/games/{game_id}/seats/{seat}", "/v1/games/{game_id}/start", "/v1/games/{game_id}/actions",
                 "/v1/games/{game_id}/events", "/v1/games/{game_id}/history", "/healthz", "/readyz"):
        assert f"{path}:" in spec


def test_every_operation_has_a_human_name_and_states_its_tokens() -> None:
    import yaml

    from service.api.operations import SCHEMES, SECURITY
    from service.cli import openapi_yaml

    spec = yaml.safe_load(openapi_yaml())
    ops = [op for item in spec["paths"].values() for m, op in item.items() if m in ("get", "post", "delete")]
    names = [op["operationId"] for op in ops]
    assert len(names) == len(set(names)) == len(SECURITY)
    assert set(names) == set(SECURITY)
    assert {"createGame", "listGames", "getGame", "takeSeat", "leaveSeat", "startGame", "act", "listActions",
            "listEvents", "getHistory", "verifyGame", "getStateAt", "listVariants"} <= set(names)
    assert set(spec["components"]["securitySchemes"]) == set(SCHEMES)
    by_name = {op["operationId"]: op for op in ops}
    assert by_name["act"]["security"] == [{"seatToken": []}]
    assert by_name["startGame"]["security"] == [{"ownerToken": []}]
    assert by_name["createGame"]["security"] == [{}, {"apiKey": []}]  # anyone; an API key makes it the key's
    assert {} in by_name["getGame"]["security"]  # a token is optional there


def test_links_lead_from_created_ids_to_real_operations_and_parameters() -> None:
    import yaml

    from service.cli import openapi_yaml

    spec = yaml.safe_load(openapi_yaml())
    ops = {op["operationId"]: op for item in spec["paths"].values()
           for m, op in item.items() if m in ("get", "post", "delete")}
    paths = {op["operationId"]: path for path, item in spec["paths"].items()
             for m, op in item.items() if m in ("get", "post", "delete")}
    for source, status, must in (("createGame", "201", {"getGame", "takeSeat", "startGame", "act"}),
                                 ("takeSeat", "201", {"act", "listActions", "leaveSeat", "getGame"})):
        links = ops[source]["responses"][status]["links"]
        assert must <= set(links)
        for link in links.values():
            target = link["operationId"]
            assert target in ops
            for param, expr in link["parameters"].items():
                assert "{" + param + "}" in paths[target], (target, param)
                assert expr.startswith(("$response.body#/", "$request.path."))


def test_every_request_body_example_is_a_valid_request() -> None:
    import yaml

    from service.api import bots, key_schemas, players, schemas, webhooks
    from service.api.operations import EXAMPLES
    from service.cli import openapi_yaml

    spec = yaml.safe_load(openapi_yaml())
    bodies = {op["operationId"]: op["requestBody"] for item in spec["paths"].values()
              for m, op in item.items() if m in ("post",) and "requestBody" in op}
    from service.api.arenas import CreateArena

    assert set(bodies) == set(EXAMPLES) == {"createGame", "takeSeat", "act", "createKey", "quickPlay", "createWebhook",
                                            "registerBot", "createArena"}
    kinds = {"createGame": schemas.CreateGame, "takeSeat": schemas.TakeSeat, "act": schemas.Action,
             "createKey": key_schemas.CreateKey, "quickPlay": players.QuickPlay, "createWebhook": webhooks.CreateWebhook,
             "registerBot": bots.RegisterBot, "createArena": CreateArena}
    for op_id, examples in EXAMPLES.items():
        assert bodies[op_id]["content"]["application/json"]["examples"] == examples
        for ex in examples.values():
            kinds[op_id]().load(ex["value"])  # raises on an example the API would refuse
    assert set(schemas.ACTION_TYPES) <= {ex["value"]["type"] for ex in EXAMPLES["act"].values()}
