"""tools/chromium.py: the browser tests' Chromium is found where it is, and a missing one is
named with what to install (make test and tests/browser/conftest.py print this message)."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tools import chromium

ROOT = Path(__file__).resolve().parents[2]


def test_a_given_chromium_is_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MEOW_CHROMIUM", str(fake))
    assert chromium.find() == str(fake)


def test_a_missing_chromium_fails_saying_what_to_install(tmp_path: Path) -> None:
    env = dict(os.environ, MEOW_CHROMIUM=str(tmp_path / "nowhere"), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tools.chromium"], env=env, cwd=ROOT, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 1
    assert r.stderr.strip() == chromium.MESSAGE
    assert "apt-get install -y chromium" in chromium.MESSAGE


@pytest.mark.deep
def test_the_browser_tests_fail_rather_than_skip_without_chromium(tmp_path: Path) -> None:
    env = dict(os.environ, MEOW_CHROMIUM=str(tmp_path / "nowhere"))
    test = "tests/browser/test_any_game.py::test_a_game_unknown_to_the_page_is_played_from_its_view"
    r = subprocess.run([sys.executable, "-m", "pytest", test, "-p", "no:cacheprovider"],
                       env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode != 0
    assert "1 error" in r.stdout and "skipped" not in r.stdout
    assert chromium.MESSAGE in r.stdout
