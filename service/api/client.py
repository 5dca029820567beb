"""Who is on the other end of a request: the client address behind optional trusted proxies."""
from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=16)
def _networks(trusted: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(ipaddress.ip_network(t, strict=False) for t in trusted)


def _ip(text: str) -> Any:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def client_address(environ: dict[str, Any], trusted: Iterable[str] = ()) -> str:
    """The socket peer; behind trusted proxies (MEOW_TRUSTED_PROXIES), the nearest untrusted hop
    of X-Forwarded-For, read from the right (so a client cannot forge its own address)."""
    peer = _ip(environ.get("REMOTE_ADDR") or "")
    if peer is None:
        return "unknown"
    nets = _networks(tuple(trusted))
    if not nets or not any(peer in n for n in nets):
        return str(peer)
    hops = [h for h in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            return str(peer)  # garbage in the chain: count the proxy itself
        if not any(ip in n for n in nets):
            return str(ip)
    return str(peer)


def client_prefix(address: str, v4: int = 24, v6: int = 64) -> str:
    """The network a client address belongs to for budgets and caps (MEOW_PREFIX_V4/_V6; IPv4 /24
    and IPv6 /64 by default): the next address in the same /24 is the same client, not a fresh
    one. An address that does not parse is its own prefix."""
    ip = _ip(address)
    if ip is None:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is an IPv4 client
        ip = ip.ipv4_mapped
    bits = v4 if ip.version == 4 else v6
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def guard_stream_socket(environ: dict[str, Any], user_timeout_ms: int = 20_000) -> None:
    """A long-lived response's socket: a peer that stops acknowledging is dropped within
    ``user_timeout_ms`` (TCP_USER_TIMEOUT), an idle one is probed (keep-alive), and a send that
    cannot progress for 30 s fails instead of holding the stream forever."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, user_timeout_ms)
        if hasattr(socket, "TCP_KEEPIDLE"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 10)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 5)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 2)
        sock.settimeout(30)
    except OSError:
        pass


def watch_peer(environ: dict[str, Any], hang_up: Any) -> Any:
    """Under gevent: call ``hang_up()`` as soon as the client closes its side of a long-lived
    response (a FIN reads as EOF), instead of finding out at the next failed write. Returns what to
    call when the response is over: it shuts the connection down (gunicorn would keep it alive for
    another request, which the watcher would read), or None when nothing is watched."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return None
    from service.app.compute import under_gevent

    if not under_gevent():
        return None
    import gevent

    def watch() -> None:
        try:
            while True:
                try:
                    if not sock.recv(4096):
                        break
                except TimeoutError:
                    continue
        except OSError:
            pass
        hang_up()

    gevent.spawn(watch)

    def finish() -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    return finish
