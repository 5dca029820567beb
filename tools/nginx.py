"""The nginx the slow-client tests and bench run in front of the API (Debian's ``nginx`` package;
the production shape runs the nginx image with the same deploy/nginx/meow.conf).

``python -m tools.nginx`` (run by ``make test``) finds it, or installs the ``nginx`` package with apt
where it can (as root), and otherwise exits 1 saying what to install. ``serve`` runs it unprivileged
in a temporary directory, in front of an API on a local port, with the repository's configuration
(``render`` overrides its listen address and any directive, such as a shorter timeout).
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tools import apt

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx" / "meow.conf"
PATHS = ("/usr/sbin/nginx", "/usr/bin/nginx")
MESSAGE = ("The slow-client tests (tests/e2e/test_slow_clients.py) run the API behind nginx and found none. "
           "Install Debian's `nginx` package (as root: apt-get install -y nginx), or point MEOW_NGINX at an "
           "nginx binary.")


def find() -> str | None:
    """MEOW_NGINX if set, else /usr/sbin/nginx, else the first nginx on PATH."""
    given = os.environ.get("MEOW_NGINX")
    if given:
        return given if os.access(given, os.X_OK) else None
    for path in PATHS:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("nginx")


def _apt_install() -> bool:
    # the package's own service is not started: its postinst tolerates a machine without an init system
    return apt.install("nginx", "MEOW_NGINX", "tools.nginx")


def ensure() -> str | None:
    path = find()
    if path is None and _apt_install():
        path = find()
    return path


def render(text: str, listen: str, **directives: str) -> str:
    """The configuration ``text`` listening on ``listen``, each directive named in ``directives``
    set to the value given (every occurrence; a directive the text lacks is a KeyError)."""
    out, n = re.subn(r"(?m)^(\s*)listen\s+[^;]+;", rf"\g<1>listen {listen};", text)
    if n != 1:
        raise KeyError("listen")
    for name, value in directives.items():
        out, n = re.subn(rf"(?m)^(\s*){name}\s+[^;]+;", lambda m, v=value, k=name: f"{m.group(1)}{k} {v};", out)
        if not n:
            raise KeyError(name)
    return out


MAIN = """\
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    upstream meow_api {{
        server {upstream};
        keepalive 64;
    }}
    include {tmp}/meow.conf;
}}
"""


def command(binary: str, tmp: str, upstream: str, listen: str, connections: int = 1024,
            **directives: str) -> list[str]:
    """Write the configuration into ``tmp`` (deploy/nginx/meow.conf rendered, in a main file of its
    own) and return the command line that runs nginx on it (add ``-t`` to test it)."""
    os.chmod(tmp, 0o755)  # run as root, nginx's workers are another user (nobody): they read and write here
    Path(tmp, "meow.conf").write_text(render(CONF.read_text(), listen, **directives))
    Path(tmp, "nginx.conf").write_text(MAIN.format(tmp=tmp, upstream=upstream, connections=connections))
    return [binary, "-p", tmp, "-e", f"{tmp}/error.log", "-c", f"{tmp}/nginx.conf"]


@contextlib.contextmanager
def serve(upstream: str, port: int, host: str = "127.0.0.1", connections: int = 8192,
          **directives: str) -> Iterator[subprocess.Popen]:
    """nginx on ``host:port`` in front of ``upstream`` (host:port), with deploy/nginx/meow.conf and
    ``directives`` overriding it; stopped (and its directory removed) on exit."""
    binary = ensure()
    if binary is None:
        raise RuntimeError(MESSAGE)
    with tempfile.TemporaryDirectory(prefix="meow-nginx-") as tmp:
        proc = subprocess.Popen(command(binary, tmp, upstream, f"{host}:{port}", connections, **directives),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_listening(host, port, proc, Path(tmp, "error.log"))
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_listening(host: str, port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"nginx exited: {err or (log.read_text() if log.exists() else '')}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError("nginx did not start listening")


def main() -> int:
    path = ensure()
    if path is None:
        print(MESSAGE, file=sys.stderr)
        return 1
    print(f"tools.nginx: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
