"""`meow keys`, `meow worker` and the other store commands beside `meow run` (issue 37 item 7): the
launcher's ``var/run.json`` gives them its store while it runs; with none running and no REDIS_URL
they say so, naming `make run` and REDIS_URL (before, `meow worker` said REDIS_URL "names a Redis
Cluster")."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service import cli, run_file

STORE = {"REDIS_URL", "MEOW_KEY_PREFIX", "MEOW_QUEUE", "MEOW_QUEUE_URL", "MEOW_DATA_DIR"}


@pytest.mark.parametrize("argv", [["keys", "list"], ["worker", "--queues", "arena"], ["compact"]])
def test_with_nothing_running_and_no_redis_url_the_command_says_what_to_do(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in STORE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    try:
        code = cli.main(argv)
    except Exception as exc:  # noqa: BLE001 - before: a traceback from deep in the wiring
        code, err = 1, str(exc)
    else:
        err = capsys.readouterr().err
    assert code == 2, err
    assert "REDIS_URL is not set" in err and "make run" in err and "Cluster" not in err


def test_a_running_launchers_settings_are_adopted_and_a_dead_ones_ignored(tmp_path: Path) -> None:
    env = {"REDIS_URL": "redis://127.0.0.1:6399/0", "MEOW_KEY_PREFIX": "p1", "MEOW_QUEUE": "q1", "OTHER": "x"}
    written = run_file.write(str(tmp_path / "var"), env, "http://127.0.0.1:8000")
    assert oct(os.stat(written).st_mode & 0o777) == "0o600"  # a REDIS_URL may hold a password
    mine = {"MEOW_DATA_DIR": str(tmp_path / "var"), "MEOW_QUEUE": "mine"}
    assert run_file.adopt(mine) is not None
    assert mine == {"MEOW_DATA_DIR": str(tmp_path / "var"), "MEOW_QUEUE": "mine",  # what is set stays
                    "REDIS_URL": "redis://127.0.0.1:6399/0", "MEOW_KEY_PREFIX": "p1"}
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    run_file.write(str(tmp_path / "old"), env, "http://127.0.0.1:8000", pid=int(gone.stdout))
    assert run_file.adopt({"MEOW_DATA_DIR": str(tmp_path / "old")}) is None  # its launcher is gone
    run_file.remove(str(tmp_path / "var"))
    assert not os.path.exists(written)
