"""Guard: every port of the event store (service/eventstore/ports.PORTS) has its contract class
``Test<Port>`` here, whose tests call every method the port declares on the ``store`` fixture, and
that fixture runs each test on every backend of tests/contract/backends.py."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from service.eventstore.ports import PORTS
from tests.contract.backends import BACKENDS

HERE = Path(__file__).parent


def port_methods(port: type) -> set[str]:
    return {name for name, value in vars(port).items() if callable(value) and not name.startswith("_")}


def contract_classes(folder: Path = HERE) -> dict[str, set[str]]:
    """Each ``Test*`` class of the folder: the ``store.<name>`` attributes its tests use."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                out[node.name] = {a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute)
                                  and isinstance(a.value, ast.Name) and a.value.id == "store"}
    return out


def uncovered(classes: dict[str, set[str]]) -> list[str]:
    missing = []
    for port in PORTS:
        name = f"Test{port.__name__}"
        if name not in classes:
            missing.append(f"{name}: no contract class for the port {port.__name__}")
            continue
        missing += [f"{name}: no test calls store.{m}" for m in sorted(port_methods(port) - classes[name])]
    return missing


def test_every_port_has_a_contract_class_that_calls_each_of_its_methods() -> None:
    assert len(PORTS) >= 8 and all(port_methods(p) for p in PORTS)
    assert uncovered(contract_classes()) == []


def test_the_contract_classes_run_on_every_backend(request: pytest.FixtureRequest) -> None:
    defs = request.session._fixturemanager.getfixturedefs("store", request.node)  # this folder's ``store``
    assert defs and tuple(defs[-1].params or ()) == BACKENDS
    assert set(BACKENDS) >= {"memory", "fakeredis", "redis", "cluster"}


def test_the_guard_sees_a_missing_class_and_an_untested_method() -> None:
    classes = contract_classes()
    first, second = PORTS[0], PORTS[1]
    classes.pop(f"Test{first.__name__}")
    dropped = sorted(port_methods(second))[0]
    classes[f"Test{second.__name__}"].discard(dropped)
    assert uncovered(classes) == [f"Test{first.__name__}: no contract class for the port {first.__name__}",
                                  f"Test{second.__name__}: no test calls store.{dropped}"]
