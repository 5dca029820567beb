"""Adding an integration is one package and one registration line; removing it is deleting them
(issue 38, docs/adding-an-integration.md).

The toy integration (tests/toy_integration: "tally", an append hook and a job kind of its own) is
added to a copy of the repository as a developer adds one: its package copied to
service/integrations/tally/ and its name added to ``PLUGGED`` in service/integrations/__init__.py.
In that copy, unchanged, the toy's own check (its job written by a new table's append and served by
the dispatch), the layer guard, the string owners' guard (its kind, read from the registry) and the
import-cycle check pass; no core file was touched. Then the package and the line are deleted: the
copy is byte for byte the repository again. A copy and a subprocess, as for the toy game
(tests/test_adding_a_game.py): the registry is built at the composition root, as in production."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_adding_a_game import IGNORED, _copy, _run, differing

ROOT = Path(__file__).resolve().parents[1]
PLUGGED = Path("service/integrations/__init__.py")
PACKAGE = Path("service/integrations/tally")
ANCHOR = "PLUGGED: tuple[str, ...] = (\n"
LINE = '    "tally",  # the toy integration: a new table counted by its own job\n'
CHECKS = ("tests/test_tally.py", "tests/test_integration_layer.py", "tests/test_string_owners.py",
          "tests/test_import_cycles.py")


def add_tally(repo: Path) -> None:
    """What a developer does: the package, and its line in ``PLUGGED``."""
    toy = repo / "tests" / "toy_integration"
    shutil.copytree(toy, repo / PACKAGE, ignore=IGNORED)
    (repo / PACKAGE / "check_tally.py").unlink()  # a test, not the integration's
    shutil.move(toy / "check_tally.py", repo / "tests" / "test_tally.py")
    shutil.rmtree(toy)
    text = (repo / PLUGGED).read_text(encoding="utf-8")
    assert text.count(ANCHOR) == 1, "service/integrations/__init__.py changed shape"
    end = text.index(")\n", text.index(ANCHOR))
    (repo / PLUGGED).write_text(text[:end] + LINE + text[end:], encoding="utf-8")


def remove_tally(repo: Path) -> None:
    shutil.rmtree(repo / PACKAGE)
    text = (repo / PLUGGED).read_text(encoding="utf-8")
    (repo / PLUGGED).write_text(text.replace(LINE, ""), encoding="utf-8")


@pytest.mark.xdist_group("adding-an-integration")
def test_the_toy_integration_is_added_and_removed_with_its_package_and_one_line(tmp_path: Path):
    before, repo = tmp_path / "before", tmp_path / "repo"
    _copy(before)
    _copy(repo)
    add_tally(repo)
    changed = differing(before, repo)
    assert {c for c in changed if not c.startswith(str(PACKAGE))} == {
        str(PLUGGED), "tests/test_tally.py", "tests/toy_integration"}, changed
    lines = set((repo / PLUGGED).read_text().splitlines()) ^ set((before / PLUGGED).read_text().splitlines())
    assert lines == {LINE.rstrip("\n")}
    out = _run(repo, "-m", "pytest", "-o", "addopts=", "-q", "-rA", "-x", "-p", "no:cacheprovider", "-n", "0",
               "-p", "no:randomly", *CHECKS)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-3000:]
    passed = {line.removeprefix("PASSED ") for line in out.stdout.splitlines() if line.startswith("PASSED ")}
    assert "tests/test_tally.py::test_a_new_table_is_tallied_by_its_own_job" in passed
    remove_tally(repo)
    shutil.copytree(ROOT / "tests" / "toy_integration", repo / "tests" / "toy_integration", ignore=IGNORED)
    (repo / "tests" / "test_tally.py").unlink()
    assert differing(before, repo) == []
