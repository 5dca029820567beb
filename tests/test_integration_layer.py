"""Guard (issue 38): the table core names no integration. The core — the write path, the job
dispatch and what they are built on (service/app/{write_path,jobs,plugins,context,followups,table_meta}.py), every
module of service/games/, and workers/dispatcher.py — imports nothing under service/integrations/ nor
any application module an integration registers from (derived from the code: what the
integrations' ``registration.py`` modules import of service/app/, less the core itself). The
integrations reach the core through the one registration point (service/app/plugins.py).

Derived from every core module's imports (ast), in whatever form and at whatever depth (a lazy
import inside a function counts); the planted tests show it failing."""
from __future__ import annotations

import ast
from pathlib import Path

from service.wiring import integrations
from tests.test_no_cross_imports import imported as absolute_imports

ROOT = Path(__file__).resolve().parents[1]
CORE_APP = ("write_path", "jobs", "plugins", "context", "followups", "table_meta")
CORE = sorted([*(ROOT / "service" / "app" / f"{m}.py" for m in CORE_APP),
               *(ROOT / "service" / "games").rglob("*.py"), ROOT / "workers" / "dispatcher.py"])
REGISTRATIONS = sorted((ROOT / "service" / "integrations").glob("*/registration.py"))


def imported(source: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``source`` (tests/test_no_cross_imports.py), and
    ``a.b`` for each ``from a import b`` (``b`` may be a module)."""
    names = [(n.lineno, f"{n.module}.{a.name}") for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module for a in n.names]
    return [*absolute_imports(source), *names]


def integration_modules() -> frozenset[str]:
    """The application modules the integrations register from (their use cases), outside the core."""
    core = {f"service.app.{m}" for m in CORE_APP}
    found = {m for p in REGISTRATIONS for _, m in imported(p.read_text(encoding="utf-8"))
             if m.startswith("service.app.") and (ROOT / (m.replace(".", "/") + ".py")).is_file()}
    return frozenset(found - core)


INTEGRATION_MODULES = integration_modules()


def violations(path: str, source: str) -> list[str]:
    return sorted({f"{path}:{line}: imports {module}" for line, module in imported(source)
                   if module == "service.integrations" or module.startswith("service.integrations.")
                   or module in INTEGRATION_MODULES})


def test_the_guard_reads_the_core_and_the_integrations() -> None:
    names = {str(p.relative_to(ROOT)) for p in CORE}
    assert {"service/app/write_path.py", "service/app/jobs.py", "workers/dispatcher.py",
            "service/games/kernel/due.py", "service/games/kernel/table.py"} <= names
    assert len(REGISTRATIONS) == len(integrations().names) >= 5  # one registration module per integration
    assert {"service.app.webhooks", "service.app.players", "service.app.private_tables"} <= INTEGRATION_MODULES


def test_no_core_module_imports_an_integration() -> None:
    found = [v for p in CORE for v in violations(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_guard_finds_planted_imports() -> None:
    planted = ("from service.app import commands\n\n\ndef hook(ctx):\n"
               "    from service.integrations.webhooks import registration\n"
               "    from service.app import webhooks\n    import service.app.players as p\n")
    assert violations("service/app/write_path.py", planted) == [
        "service/app/write_path.py:5: imports service.integrations.webhooks",
        "service/app/write_path.py:5: imports service.integrations.webhooks.registration",
        "service/app/write_path.py:6: imports service.app.webhooks",
        "service/app/write_path.py:7: imports service.app.players"]
    assert violations("service/app/jobs.py", "from service.app import commands, fairness\n") == []


def test_the_guard_fails_on_the_code_before_issue_38() -> None:
    """The write path as it was (it named players, private tables and webhooks) is caught."""
    before = "from service.app import commands, fairness, followups as fu, players, private_tables, webhooks\n"
    assert [v.rsplit(" ", 1)[1] for v in violations("service/app/write_path.py", before)] == [
        "service.app.players", "service.app.private_tables", "service.app.webhooks"]


# ------------------------------------------------------------------ the per-table integration data

META_OWNERS = ("service/app/table_meta.py", "service/eventstore/ports/tokens.py")  # its fields; the store's prefix


def spells_meta(source: str) -> list[str]:
    """Where code (not a docstring) spells a ``meta:`` field of a table's token hash."""
    from tests.test_string_owners import Code

    return [f"line {n.lineno}: {n.value!r}" for n in Code.parse(source).strings if "meta:" in n.value]


def test_only_the_owner_spells_a_meta_field() -> None:
    found = {str(p.relative_to(ROOT)): hits for d in ("service", "workers") for p in sorted((ROOT / d).rglob("*.py"))
             if str(p.relative_to(ROOT)) not in META_OWNERS and (hits := spells_meta(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_a_planted_meta_field_is_caught() -> None:
    assert spells_meta('def key(ctx, g):\n    """reads "meta:key"."""\n    return ctx.tokens.token_get(g, "meta:key")\n') == [
        "line 3: 'meta:key'"]
    assert spells_meta('def f(n):\n    return f"meta:{n}"\n') == ["line 2: 'meta:'"]
