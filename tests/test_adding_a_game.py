"""Adding a game is one package and one registry entry; removing it is deleting them (issue 27).

The toy game (tests/toy_game: high card) is added to a copy of the repository exactly as a developer
adds a game: its package copied to service/games/toy/ and its entry added to service/games/registry.py
(the import and its name in ``GAMES``), then openapi.yaml regenerated (``meow openapi``; a generated
file, never edited by hand). In that copy, unchanged, the registry guards, the recorded-commands
guards, the purity and import-cycle checks, the whole conformance suite for the toy's
variant (engine playouts, seats, planted violations, the redaction oracle over the API) and a match
played to its end over the API all pass. Then the package and the entry are deleted and the spec
regenerated: the copy is byte for byte the repository again.

Why a copy and a subprocess: the registry is read at import time by every layer (the API's schemas,
the codec, the spec), as it is in production, so the honest way to register a game is the one a
developer takes; nothing in the service has a test-only hook for it.
"""
from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy_game"
COPIED = ("service", "workers", "tests", "tools", "bench", "pyproject.toml", "openapi.yaml")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules")
REGISTRY = Path("service/games/registry.py")
IMPORT_AFTER = "from service.games.shedding.game import GAME as SHEDDING\n"
IMPORT = "from service.games.toy.game import GAME as TOY\n"
GAMES_LINE = next(line + "\n" for line in (ROOT / REGISTRY).read_text(encoding="utf-8").splitlines()
                  if line.startswith("GAMES: tuple[Game, ...] = ("))
CHECKS = ("tests/test_game_registry.py", "tests/test_recorded_commands.py", "tests/test_import_cycles.py",
          "tests/unit/rules/test_purity.py", "tests/conformance", "tests/api/test_toy_table.py",
          "tests/e2e/test_tui.py", "tests/browser/test_every_variant.py")
PER_VARIANT = ("conformance", "test_tui", "test_every_variant")  # of these, only the toy's own tests run
SELECT = f"toy or not ({' or '.join(PER_VARIANT)})"


def _copy(dst: Path) -> None:
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=IGNORED)
        else:
            shutil.copy2(src, dst / name)


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}  # not an xdist worker's
    env.update(PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True, check=False,
                          timeout=600)


def _openapi(repo: Path) -> None:
    out = _run(repo, "-m", "service.cli", "openapi")
    assert out.returncode == 0, out.stderr[-3000:]
    (repo / "openapi.yaml").write_text(out.stdout, encoding="utf-8")


def add_toy(repo: Path) -> None:
    """What a developer does: the package, the registry entry, the regenerated spec."""
    shutil.copytree(repo / "tests" / "toy_game", repo / "service" / "games" / "toy", ignore=IGNORED)
    (repo / "service" / "games" / "toy" / "check_table.py").unlink()  # a test, not the game's
    shutil.move(repo / "tests" / "toy_game" / "check_table.py", repo / "tests" / "api" / "test_toy_table.py")
    shutil.rmtree(repo / "tests" / "toy_game")
    text = (repo / REGISTRY).read_text(encoding="utf-8")
    assert text.count(IMPORT_AFTER) == 1 and text.count(GAMES_LINE) == 1, "the registry's shape changed"
    text = text.replace(IMPORT_AFTER, IMPORT_AFTER + IMPORT)
    text = text.replace(GAMES_LINE, GAMES_LINE.replace(")\n", ", TOY)\n"))
    (repo / REGISTRY).write_text(text, encoding="utf-8")
    _openapi(repo)


def remove_toy(repo: Path) -> None:
    shutil.rmtree(repo / "service" / "games" / "toy")
    text = (repo / REGISTRY).read_text(encoding="utf-8")
    text = text.replace(IMPORT, "").replace(", TOY)", ")")
    (repo / REGISTRY).write_text(text, encoding="utf-8")
    _openapi(repo)


def differing(a: Path, b: Path, rel: Path = Path()) -> list[str]:
    """Files that differ, or exist on one side only, between two trees (caches aside)."""
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__", ".pytest_cache"])
    out = [str(rel / n) for n in (*cmp.left_only, *cmp.right_only, *cmp.funny_files)]
    out += [str(rel / n) for n in cmp.common_files if not filecmp.cmp(a / n, b / n, shallow=False)]
    for sub in cmp.common_dirs:
        out += differing(a / sub, b / sub, rel / sub)
    return sorted(out)


@pytest.mark.xdist_group("adding-a-game")
@pytest.mark.deep
def test_the_toy_game_is_added_and_removed_with_its_package_and_registry_entry(tmp_path: Path):
    before, repo = tmp_path / "before", tmp_path / "repo"
    _copy(before)
    _copy(repo)
    add_toy(repo)
    changed = differing(before, repo)
    assert {c for c in changed if not c.startswith("service/games/toy")} == {
        str(REGISTRY), "openapi.yaml", "tests/api/test_toy_table.py", "tests/toy_game"}, changed
    registry_diff = set((repo / REGISTRY).read_text().splitlines()) ^ set((before / REGISTRY).read_text().splitlines())
    assert registry_diff == {IMPORT.strip(), GAMES_LINE.strip(), GAMES_LINE.strip().replace(")", ", TOY)")}
    out = _run(repo, "-m", "pytest", "-o", "addopts=", "-q", "-rA", "-x", "-p", "no:cacheprovider", "-n", "0",
               *CHECKS, "-k", SELECT)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-3000:]
    passed = [line for line in out.stdout.splitlines() if line.startswith("PASSED ")]
    toy = {line.split("::")[0].removeprefix("PASSED ") for line in passed if "toy" in line}
    # the toy's own parametrisations in each of the suite's files, its API match, and a match in
    # both clients (meow play by keys, the web table by clicking) on the live stack
    assert {"tests/conformance/test_engine_playouts.py", "tests/conformance/test_engine_planted.py",
            "tests/conformance/test_redaction.py", "tests/test_game_registry.py",
            "tests/api/test_toy_table.py", "tests/e2e/test_tui.py", "tests/browser/test_every_variant.py"} <= toy, sorted(toy)
    remove_toy(repo)
    shutil.copytree(ROOT / "tests" / "toy_game", repo / "tests" / "toy_game", ignore=IGNORED)
    (repo / "tests" / "api" / "test_toy_table.py").unlink()
    assert differing(before, repo) == []
