"""Guard: the tests never import the benches and the benches never import the tests; what both
need (the live-stack launcher, the slow-client attacker, the engine table, the OpenSpiel oracle)
lives in tools/, which imports neither. Derived from every module's imports (ast), whatever form
they take (``import bench.x``, ``from bench import x``, ``from tests.e2e.conftest import y``, at
any depth of the module)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"tests": ("bench",), "bench": ("tests",), "tools": ("tests", "bench")}
"""Folder -> the top-level packages its modules must not import."""


def imported(source: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def violations(folder: str, path: str, source: str) -> list[str]:
    return [f"{path}:{line}: imports {module}" for line, module in imported(source)
            if module.split(".")[0] in FORBIDDEN[folder]]


def test_tests_benches_and_tools_do_not_import_each_other() -> None:
    found, seen = [], 0
    for folder in FORBIDDEN:
        for p in sorted((ROOT / folder).rglob("*.py")):
            seen += 1
            found += violations(folder, str(p.relative_to(ROOT)), p.read_text())
    assert seen > 100 and found == []


def test_the_guard_finds_planted_imports() -> None:
    planted = ("import os\nfrom bench.slow_clients import Attack\n\n\ndef f():\n    import bench.api as api\n"
               "    from tests.e2e import conftest\n    from service.games import registry\n")
    assert violations("tests", "tests/x.py", planted) == ["tests/x.py:2: imports bench.slow_clients",
                                                          "tests/x.py:6: imports bench.api"]
    assert violations("bench", "bench/x.py", planted) == ["bench/x.py:7: imports tests.e2e"]
    assert len(violations("tools", "tools/x.py", planted)) == 3
    assert violations("bench", "bench/x.py", "from bench.inprocess import drain\nfrom tools.stack import live_stack\n") == []
