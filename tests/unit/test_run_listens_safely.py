"""Safe defaults (issue 29): `meow run` (what `make run` starts) listens on 127.0.0.1 unless MEOW_HOST
or --host says otherwise; the containers say 0.0.0.0; and a port already taken makes it fail at once,
saying so, with a non-zero status, before it starts anything."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import yaml

from service.listen import bind_address, browse_host, port_in_use
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_host_is_this_machine_only() -> None:
    assert Settings.from_env({}).host == "127.0.0.1"
    assert Settings.from_env({"MEOW_HOST": "0.0.0.0"}).host == "0.0.0.0"
    assert bind_address("127.0.0.1", 8000) == "127.0.0.1:8000" and bind_address("::", 8000) == "[::]:8000"
    assert browse_host("0.0.0.0") == "127.0.0.1" and browse_host("::1") == "[::1]"


def test_gunicorns_config_binds_meow_host_not_its_own_default() -> None:
    """gunicorn alone would listen on 0.0.0.0:$PORT; its config binds MEOW_HOST:PORT instead."""
    probe = "import service.gunicorn_conf as c; print(c.bind)"
    env = {k: v for k, v in os.environ.items() if k != "MEOW_HOST"}
    out = subprocess.run([sys.executable, "-c", probe], env=dict(env, PORT="8123", PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['127.0.0.1:8123']"


def test_the_containers_listen_on_every_interface() -> None:
    assert "MEOW_HOST=0.0.0.0" in (ROOT / "Dockerfile").read_text()
    for name in ("docker-compose.yml", "docker-compose.cluster.yml"):
        services = yaml.safe_load((ROOT / name).read_text())["services"]
        apis = {n: s for n, s in services.items() if "gunicorn" in " ".join(s.get("command") or [])}
        assert apis, name
        for api, spec in apis.items():
            assert spec["environment"]["MEOW_HOST"] == "0.0.0.0", f"{name}: {api}"
            assert "--bind" not in " ".join(spec["command"]), f"{name}: {api} binds by MEOW_HOST, not --bind"


def test_a_taken_port_fails_with_a_clear_message_and_status_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert port_in_use("127.0.0.1", port)
        env = dict(os.environ, PYTHONPATH=str(ROOT), MEOW_DATA_DIR="/nonexistent-meow-never-created")
        env.pop("MEOW_HOST", None)
        out = subprocess.run([sys.executable, "-m", "service.cli", "run", "--port", str(port)], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=30, check=False)
    assert out.returncode == 1, out
    assert f"port {port} on 127.0.0.1 is already in use" in out.stderr, out.stderr
    assert "play in the browser" not in out.stdout  # nothing was started


def test_a_free_port_is_free() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert port_in_use("127.0.0.1", port) is None
