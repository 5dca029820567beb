"""Where the web server listens: MEOW_HOST (default 127.0.0.1, this machine only) and PORT, as one
gunicorn bind address, and a check, before anything starts, that nothing else listens there.

Containers set MEOW_HOST=0.0.0.0 (the Dockerfile and the compose files do), where the port is
reached through the container's network and nginx; on a developer's machine `meow run` stays local
unless told otherwise (`--host`).
"""
from __future__ import annotations

import errno
import socket

LOCAL = "127.0.0.1"
_ANY = {"", "0.0.0.0", "::"}


def bind_address(host: str, port: int) -> str:
    """gunicorn's ``--bind`` form: ``host:port``, an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def browse_host(host: str) -> str:
    """The host to put in a URL that a browser on this machine opens."""
    return LOCAL if host in _ANY else (f"[{host}]" if ":" in host else host)


def port_in_use(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (another process holds it, an address not of this
    machine, no permission), or None when it is free. Bound and released at once, with
    SO_REUSEADDR as gunicorn binds, so a socket of an earlier run in TIME_WAIT does not count."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            sock.listen(1)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is already in use (another `meow run`, or another program)"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None
