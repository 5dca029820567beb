"""Domain codes are raised below the edge; the API alone maps each one to its HTTP status."""
from __future__ import annotations

import ast
from pathlib import Path

from service.api.codes import STATUS, status_of

SERVICE = Path(__file__).resolve().parents[1] / "service"
RAISERS = {"RuleViolation": 0, "AppError": 0, "refuse": 3, "_no": 2, "problem": 1}


def _raised_codes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for f in SERVICE.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            i = RAISERS.get(name)
            if i is None or len(node.args) <= i:
                continue
            arg = node.args[i]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, set()).add(str(f.relative_to(SERVICE)))
    return found


def test_every_raised_code_has_one_status():
    codes = _raised_codes()
    assert len(codes) > 30  # the scan really finds the raise sites
    missing = {c: sorted(where) for c, where in codes.items() if c not in STATUS}
    assert not missing, f"codes without an HTTP status in service/api/codes.py: {missing}"


def test_the_rules_choose_no_http_status():
    for f in (SERVICE / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation":
                for arg in node.args[2:]:
                    assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, int)), f"{f}: {ast.unparse(node)}"
                assert all(k.arg != "status" for k in node.keywords), f"{f}: {ast.unparse(node)}"


def test_statuses_by_kind():
    assert status_of("not_your_turn") == 409 and status_of("illegal_card") == 422
    assert status_of("not_a_player") == 403 and status_of("not_found") == 404
    assert status_of("version_conflict") == 409 and status_of("version_conflict", "if_match") == 412
    assert status_of("version_conflict", "body") == 409
    assert status_of("no_such_code_anywhere") == 500


NOT_IN_THE_BODY = {"headers", "precondition"}  # AppError's own arguments


def test_every_extension_member_of_a_problem_is_in_the_spec():
    """What an error carries besides its code (``AppError(..., version=...)``) reaches the
    problem+json body; the spec's Problem must list each one (a field it does not list must not ship)."""
    from service.api.schemas import Problem

    members = {k.arg for f in SERVICE.rglob("*.py") for node in ast.walk(ast.parse(f.read_text()))
               if isinstance(node, ast.Call) and (getattr(node.func, "id", None) or getattr(node.func, "attr", None))
               in ("RuleViolation", "AppError", "problem") for k in node.keywords if k.arg}
    members -= NOT_IN_THE_BODY | {"title"}
    assert {"version", "errors", "legal_actions"} <= members  # the scan really finds them
    declared = {f.data_key or name for name, f in Problem().fields.items()}
    assert members <= declared, f"problem members the spec's Problem lacks: {sorted(members - declared)}"
