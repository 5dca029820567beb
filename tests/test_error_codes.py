"""Domain codes are declared once and raised below the edge; the API alone maps each to its HTTP
status. Every list here is derived: the declared codes from the registry (the kernel's and each
game's ``Game.codes``) with the application's and the API's (service/api/codes.py ``DECLARED``),
the stray declarations from the code itself (every module imported, ``__subclasses__`` walked).
No raise site is scanned: ``RuleViolation``, ``AppError``, a game's ``refuse`` and ``problem``
take only a ``DomainCode`` member, so a raise of an undeclared string fails where it runs."""
from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
import types
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import service
import workers
from service.api.codes import DECLARED, STATUS, status_of
from service.api.errors import problem
from service.app.codes import AppCode
from service.app.errors import AppError
from service.games import registry
from service.games.kernel.codes import DomainCode, KernelCode
from service.games.kernel.model import RuleViolation
from service.games.kernel.refusal import refuser

SERVICE = Path(__file__).resolve().parents[1] / "service"
PACKAGES = (service, workers)


# ---------------------------------------------------------------- the guards, as functions over data

def unmapped(declared: Iterable[type[DomainCode]], status: Mapping[str, int]) -> set[str]:
    """Codes declared with no HTTP status (they would answer 500)."""
    return {m.value for cls in declared for m in cls} - set(status)


def unclaimed(declared: Iterable[type[DomainCode]], status: Mapping[str, int]) -> set[str]:
    """Statuses mapped for a code nobody declares (dead, or a raise site that lost its code)."""
    return set(status) - {m.value for cls in declared for m in cls}


def declared_twice(declared: Iterable[type[DomainCode]]) -> dict[str, list[str]]:
    """A code value with more than one owner (DESIGN rule 10: one owner per string)."""
    owners: dict[str, list[str]] = {}
    for cls in declared:
        for m in cls:
            owners.setdefault(m.value, []).append(cls.__qualname__)
    return {v: who for v, who in owners.items() if len(who) > 1}


def _every_subclass(base: type) -> set[type]:
    out: set[type] = set()
    todo = list(base.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in out:
            out.add(cls)
            todo.extend(cls.__subclasses__())
    return out


def import_everything() -> None:
    for pkg in PACKAGES:
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(info.name)


def strays(declared: Iterable[type[DomainCode]]) -> set[type]:
    """``DomainCode`` subclasses defined in a loaded module of the service or the workers that
    nothing collects (their codes would have no status, or be raised with no owner)."""
    roots = tuple(p.__name__ for p in PACKAGES)
    found = {cls for cls in _every_subclass(DomainCode)
             if cls.__module__.split(".")[0] in roots
             and getattr(sys.modules.get(cls.__module__), cls.__name__, None) is cls}
    return found - set(declared)


# ---------------------------------------------------------------- the guards on the service

def test_the_declared_codes_come_from_every_owner():
    assert KernelCode in registry.CODES and AppCode in DECLARED
    assert {g.codes for g in registry.GAMES} - {DomainCode} <= set(registry.CODES)  # every game's own
    assert len({m.value for cls in DECLARED for m in cls}) > 40  # really the codes of the service


def test_every_declared_code_has_one_status():
    assert not unmapped(DECLARED, STATUS), "codes without an HTTP status in service/api/codes.py"


def test_every_status_is_for_a_declared_code():
    assert not unclaimed(DECLARED, STATUS), "statuses for codes nobody declares"


def test_every_code_has_one_owner():
    assert not declared_twice(DECLARED)


def test_no_code_enum_is_left_out():
    import_everything()
    assert not strays(DECLARED), "a DomainCode subclass that neither the registry nor the app nor the API collects"


# ---------------------------------------------------------------- each guard fails on a planted violation

def test_a_declared_code_without_a_status_is_caught():
    planted = DomainCode("PlantedCode", {"PLANTED": "planted_unmapped"})
    assert unmapped((*DECLARED, planted), STATUS) == {"planted_unmapped"}


def test_a_status_for_an_undeclared_code_is_caught():
    assert unclaimed(DECLARED, {**STATUS, "planted_orphan": 409}) == {"planted_orphan"}


def test_a_code_with_two_owners_is_caught():
    planted = DomainCode("PlantedCode", {"NOT_YOUR_TURN": "not_your_turn"})
    assert declared_twice((*DECLARED, planted)) == {"not_your_turn": ["KernelCode", "PlantedCode"]}


def test_a_stray_code_enum_is_caught(monkeypatch: pytest.MonkeyPatch):
    module = types.ModuleType("service.planted_codes")
    stray = DomainCode("StrayCode", {"STRAY": "stray_code"}, module="service.planted_codes")
    module.StrayCode = stray  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert strays(DECLARED) == {stray}


@pytest.mark.parametrize("raise_it", [
    lambda: RuleViolation("not_your_turn", "a plain string"),  # type: ignore[arg-type]
    lambda: AppError("not_found", "a plain string"),  # type: ignore[arg-type]
    lambda: refuser(lambda m, seat, now: [])(None, 0, 0, "illegal_card", "a plain string"),  # type: ignore[arg-type]
    lambda: problem("not_ready", "a plain string"),  # type: ignore[arg-type]
], ids=["RuleViolation", "AppError", "refuse", "problem"])
def test_a_plain_string_code_is_refused(raise_it):
    with pytest.raises(TypeError, match="not a declared DomainCode"):
        raise_it()


def test_a_code_is_still_its_string():
    """StrEnum: what tests, clients and JSON bodies see is unchanged."""
    import orjson

    exc = RuleViolation(KernelCode.NOT_YOUR_TURN, "x")
    assert exc.code == "not_your_turn" and f"{exc.code}" == "not_your_turn"
    assert orjson.loads(orjson.dumps({"code": exc.code})) == {"code": "not_your_turn"}


# ---------------------------------------------------------------- the edge alone chooses a status

def test_the_rules_choose_no_http_status():
    """No int and no ``status`` among the arguments of a refusal in the rules (its code is all it
    carries; RuleViolation's signature makes a status its detail or an extra member)."""
    for f in (SERVICE / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None) if isinstance(node, ast.Call) else None
            if name in ("RuleViolation", "refuse"):
                for arg in node.args:
                    assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, int)), f"{f}: {ast.unparse(node)}"
                assert all(k.arg != "status" for k in node.keywords), f"{f}: {ast.unparse(node)}"


def test_statuses_by_kind():
    assert status_of(KernelCode.NOT_YOUR_TURN) == 409 and status_of(KernelCode.ILLEGAL_CARD) == 422
    assert status_of("not_a_player") == 403 and status_of("not_found") == 404
    assert status_of("version_conflict") == 409 and status_of("version_conflict", "if_match") == 412
    assert status_of("version_conflict", "body") == 409
    assert status_of("no_such_code_anywhere") == 500


NOT_IN_THE_BODY = {"headers", "precondition", "status", "title"}  # AppError's and problem's own arguments


def test_every_extension_member_of_a_problem_is_in_the_spec():
    """What an error carries besides its code (``AppError(..., version=...)``) reaches the
    problem+json body; the spec's Problem must list each one (a field it does not list must not ship)."""
    from service.api.schemas import Problem

    members = {k.arg for f in SERVICE.rglob("*.py") for node in ast.walk(ast.parse(f.read_text()))
               if isinstance(node, ast.Call) and (getattr(node.func, "id", None) or getattr(node.func, "attr", None))
               in ("RuleViolation", "AppError", "problem") for k in node.keywords if k.arg}
    members -= NOT_IN_THE_BODY
    assert {"version", "errors", "legal_actions"} <= members  # the scan really finds them
    declared = {f.data_key or name for name, f in Problem().fields.items()}
    assert members <= declared, f"problem members the spec's Problem lacks: {sorted(members - declared)}"
