"""MEOW_ADMIN_TOKEN shorter than 32 characters is refused at start with a clear message (issue 37
item 4): by the settings, by `meow` (status 2, one line, no traceback) and by gunicorn's config."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from service import cli
from service.settings import ADMIN_TOKEN_MIN, Settings, SettingsError

SHORT = "x" * (ADMIN_TOKEN_MIN - 1)


def test_a_short_admin_token_is_refused_and_a_long_one_or_none_is_taken() -> None:
    with pytest.raises(SettingsError, match=f"MEOW_ADMIN_TOKEN has {ADMIN_TOKEN_MIN - 1} characters"):
        Settings.from_env({"MEOW_ADMIN_TOKEN": SHORT})
    with pytest.raises(SettingsError):
        Settings.from_env({"MEOW_ADMIN_TOKEN": f"  {SHORT}  "})  # spaces around it are not characters of it
    assert Settings.from_env({"MEOW_ADMIN_TOKEN": "x" * ADMIN_TOKEN_MIN}).admin_token_hash
    assert Settings.from_env({"MEOW_ADMIN_TOKEN": "  "}).admin_token_hash is None
    assert Settings.from_env({}).admin_token_hash is None


@pytest.mark.parametrize("argv", [["run"], ["worker", "--burst"], ["compact"]])
def test_meow_refuses_to_start_with_one_line(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv("MEOW_ADMIN_TOKEN", "admin")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing is reached: it stops before
    monkeypatch.setenv("MEOW_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PORT", "1")

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process was started with a short admin token")

    monkeypatch.setattr(subprocess, "Popen", no_process)  # (the supervisor starts the processes)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("meow: cannot start: MEOW_ADMIN_TOKEN has 5 characters: it needs at least 32")
    assert "Traceback" not in err and err.count("\n") == 1


def test_gunicorn_config_refuses_to_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEOW_ADMIN_TOKEN", SHORT)
    monkeypatch.delitem(sys.modules, "service.gunicorn_conf", raising=False)
    with pytest.raises(SystemExit, match="meow: cannot start: MEOW_ADMIN_TOKEN"):
        importlib.import_module("service.gunicorn_conf")
    monkeypatch.delitem(sys.modules, "service.gunicorn_conf", raising=False)
