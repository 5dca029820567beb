"""tools/axe.py: the accessibility check's axe-core is found where it is, at the pinned version only,
and a missing one is named with what to install (make test and tests/browser/test_table_layout.py
print this message; the layout test fails rather than skips without it)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tools import axe

ROOT = Path(__file__).resolve().parents[2]


def test_a_given_axe_is_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "axe.min.js"
    script.write_text("window.axe = {};\n")
    monkeypatch.setenv("MEOW_AXE", str(script))
    assert axe.find() == script
    monkeypatch.setenv("MEOW_AXE", str(tmp_path / "nowhere.js"))
    assert axe.find() is None


def test_only_the_pinned_version_is_found(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("MEOW_AXE", raising=False)
    package = tmp_path / "node_modules" / "axe-core"
    package.mkdir(parents=True)
    (package / "axe.min.js").write_text("window.axe = {};\n")
    (package / "package.json").write_text(json.dumps({"name": "axe-core", "version": "0.0.1"}))
    monkeypatch.setattr(axe, "PLACES", (package,))
    assert axe.find() is None
    (package / "package.json").write_text(json.dumps({"name": "axe-core", "version": axe.VERSION}))
    assert axe.find() == package / "axe.min.js"


def test_a_missing_axe_fails_saying_what_to_install(tmp_path: Path) -> None:
    env = dict(os.environ, MEOW_AXE=str(tmp_path / "nowhere.js"), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tools.axe"], env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 1
    assert r.stderr.strip() == axe.MESSAGE
    assert f"axe-core@{axe.VERSION}" in axe.MESSAGE
