"""Guard: the application, the API and the workers reach the event store through its narrow ports
(service/eventstore/ports). Derived from the code: no call of a port's method through another
object's ``.store`` (``ctx.store.token_get``: use ``ctx.tokens``; a component's own ``self.store`` is
typed with a port where it is set), and every ``store`` parameter is
typed with a port, or with a Protocol made only of ports; the whole store (``EventStore``) only
where it is split into ports or handed on (the composition roots)."""
from __future__ import annotations

import ast
from pathlib import Path

from service.eventstore.ports import PORTS

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("service/app", "service/api", "workers")
WHOLE_STORE_AT = {"service/app/context.py", "service/api/app.py",  # AppContext splits it; create_app hands it on
                  "service/app/arena_play.py", "service/app/arenas.py"}  # an arena game's own AppContext, made there
PORT_NAMES = {p.__name__ for p in PORTS}
METHODS = {name for p in PORTS for name, v in vars(p).items() if callable(v) and not name.startswith("_")}


def _names(node: ast.AST | None) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()


def _own(node: ast.AST) -> bool:
    """``self`` or ``self.<part>``: a component's own ``store``, typed with a port where it is set."""
    return (isinstance(node, ast.Name) and node.id == "self") or (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self")


def violations(path: str, source: str) -> list[str]:
    tree = ast.parse(source)
    narrow = PORT_NAMES | {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                           and _names(ast.Module(body=[ast.Expr(b) for b in c.bases], type_ignores=[]))
                           <= PORT_NAMES | {"Protocol"} and "Protocol" in _names(c.bases[-1] if c.bases else None)}
    allowed = narrow | ({"EventStore"} if path in WHOLE_STORE_AT else set()) | {"None"}
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in METHODS and isinstance(node.value, ast.Attribute)
                and node.value.attr == "store" and not _own(node.value.value)):
            out.append(f"{path}:{node.lineno}: .store.{node.attr}: use the port")
        if isinstance(node, ast.arg) and node.arg == "store":
            names = _names(node.annotation)
            if not names or not names <= allowed:
                out.append(f"{path}:{node.lineno}: store: {ast.unparse(node.annotation) if node.annotation else '(none)'}"
                           " is not a port")
    return sorted(out, key=lambda line: int(line.split(":")[1]))


def test_app_api_and_workers_use_the_narrow_ports() -> None:
    found = []
    files = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 20
    for p in files:
        found += violations(str(p.relative_to(ROOT)), p.read_text())
    assert found == []


def test_the_guard_finds_a_planted_call_and_a_wide_parameter() -> None:
    planted = ("from typing import Any, Protocol\n"
               "class Both(Leases, Tokens, Protocol): ...\n"
               "class Wide(Leases, Settings): ...\n"
               "def f(ctx, store: Any, other: Leases) -> None:\n"
               "    ctx.store.token_get('g', 'h')\n"
               "    ctx.tokens.token_get('g', 'h')\n"
               "def g(store: Both) -> None: ...\n"
               "def h(store: Wide) -> None: ...\n"
               "def i(store: EventStore) -> None: ...\n")
    assert violations("service/app/x.py", planted) == [
        "service/app/x.py:4: store: Any is not a port",
        "service/app/x.py:5: .store.token_get: use the port",
        "service/app/x.py:8: store: Wide is not a port",
        "service/app/x.py:9: store: EventStore is not a port",
    ]
    assert violations("service/app/context.py", "def i(store: EventStore) -> None: ...\n") == []
