"""The HTTP server's workers: gunicorn's gevent and gthread workers, whose own refusals answer
problem+json like every other error of the service.

gunicorn refuses some requests before the app runs (a request line or headers over its limits, a
request it cannot parse) and answered them with a text/html page of its own. Here they answer
``application/problem+json`` with the stable code service/api/refusals.py gives them, and the
connection closes gently, so that the client reads the answer before the rest of what it sent is
thrown away. gunicorn_conf.py picks a class by MEOW_WEB_WORKER_CLASS (``worker_class``).

What the server does to a connection before or around the app is here too (docs/reliability.md,
"Slow clients and connection caps"):

- a request's line and headers must arrive within MEOW_HEADER_TIMEOUT_S of the connection's start
  (gevent; a kept-alive connection's next request within gunicorn's keep-alive, as before), and its
  body within MEOW_BODY_TIMEOUT_S of its headers (both workers): else 408 ``request_timeout`` where
  an answer can still be read, and the connection closes;
- a client address may hold MEOW_MAX_CONNS_PER_ADDRESS open connections, and its prefix (IPv4 /24,
  IPv6 /64: MEOW_PREFIX_V4/_V6) MEOW_MAX_CONNS_PER_PREFIX, per API process (gevent): one more is
  answered 429 ``too_many_connections`` as soon as it is accepted, and closed. A peer in
  MEOW_TRUSTED_PROXIES is not capped: behind a proxy every connection comes from the proxy, and the
  proxy's own limits (deploy/nginx/meow.conf: limit_conn) count the real clients.
"""
from __future__ import annotations

import socket
import time
from email.utils import formatdate
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker as _GeventWorker
from gunicorn.workers.gthread import ThreadWorker as _ThreadWorker

from service.api.client import client_prefix
from service.api.codes import ApiCode
from service.api.refusals import ReadTimeout, Refusal, refusal
from service.settings import Settings

LINGER_S = 1.0  # after a refusal, how long to read what the client still sends before closing
LINGER_BYTES = 64 * 1024  # and how much of it at most
LOG_EVERY_S = 1.0  # connections refused at accept: one log line a second at most, per process
CAP_LINGER_S = 0.5  # the same after a connection over the caps is refused (it holds a slot meanwhile)
_INTERNAL = Refusal(ApiCode.INTERNAL_ERROR, "the server failed to answer this request")


def answer(refused: Refusal) -> bytes:
    """The whole HTTP/1.1 response of a refusal: problem+json, and the connection closes."""
    import orjson

    # imported here, in the worker: the master loads this module before gevent patches the stdlib
    from service.api.errors import PROBLEM, problem_body

    body = orjson.dumps(problem_body(refused.status, refused.code, refused.detail))
    head = (f"HTTP/1.1 {refused.status} {HTTPStatus(refused.status).phrase}\r\n"
            f"Date: {formatdate(usegmt=True)}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def linger(sock: Any, seconds: float = LINGER_S) -> None:
    """Stop sending and read what the client still sends (LINGER_S, LINGER_BYTES at most) before the
    worker closes: closing with unread bytes resets the connection, and a reset can reach the
    client before it has read the answer (a request line over the limit is such a case)."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline, read = time.monotonic() + seconds, 0
        while read < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            chunk = sock.recv(16 * 1024)
            if not chunk:
                return
            read += len(chunk)
    except OSError:  # reset, timed out, already closed: nothing more to do
        pass


class ProblemRefusals:
    """``handle_error`` of gunicorn's workers (gunicorn/workers/base.py), answering problem+json:
    the same statuses as gunicorn's own page, never a stack trace, nothing the client sent."""

    cfg: Any
    log: Any

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        addr = addr or ("", -1)  # a unix socket
        refused = refusal(exc, line=self.cfg.limit_request_line, fields=self.cfg.limit_request_fields,
                          field_size=self.cfg.limit_request_field_size)
        if refused is None:  # called from an except block: the traceback goes to the error log
            self.log.exception("error handling a request outside the app (%s)", type(exc).__name__)
            refused = _INTERNAL
        else:
            self.log.warning("refused a request from ip=%s: %s (%s)", addr[0], refused.code, exc)
        try:
            util.write_nonblock(client, answer(refused))
            linger(client)
        except Exception:  # noqa: BLE001 - the client may be gone; the worker must go on
            self.log.debug("failed to send a refusal")


class ConnectionCaps:
    """Open connections per client address and per client prefix, in one process (gevent's handlers
    run one at a time: no lock). ``admit`` counts a new connection in or says why not; ``release``
    counts it out. 0 turns a cap off; a trusted proxy's connections are never capped."""

    def __init__(self, per_address: int, per_prefix: int, v4: int = 24, v6: int = 64,
                 trusted: tuple[str, ...] = ()) -> None:
        import ipaddress

        self.per_address, self.per_prefix, self.v4, self.v6 = per_address, per_prefix, v4, v6
        self.trusted = tuple(ipaddress.ip_network(t, strict=False) for t in trusted)
        self.open: dict[str, int] = {}

    @classmethod
    def from_settings(cls, s: Settings) -> ConnectionCaps:
        return cls(s.max_conns_per_address, s.max_conns_per_prefix, s.prefix_v4, s.prefix_v6, s.trusted_proxies)

    def _keys(self, address: str) -> tuple[str, ...]:
        import ipaddress

        try:
            if any(ipaddress.ip_address(address) in n for n in self.trusted):
                return ()
        except ValueError:
            pass
        keys = ("a:" + address,) if self.per_address else ()
        return keys + (("p:" + client_prefix(address, self.v4, self.v6),) if self.per_prefix else ())

    def admit(self, address: str) -> tuple[str, ...] | Refusal:
        """The keys the connection counts under (give them back to ``release``), or the refusal."""
        keys = self._keys(address)
        for key in keys:
            cap = self.per_address if key.startswith("a:") else self.per_prefix
            if self.open.get(key, 0) >= cap:
                whose = f"this address ({cap})" if key.startswith("a:") else f"this address's network ({cap})"
                return Refusal(ApiCode.TOO_MANY_CONNECTIONS, f"too many open connections from {whose}: "
                               "close one, or retry when one has closed")
        for key in keys:
            self.open[key] = self.open.get(key, 0) + 1
        return keys

    def release(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            left = self.open.get(key, 0) - 1
            if left > 0:
                self.open[key] = left
            else:
                self.open.pop(key, None)


class _Deadline:
    """The socket a request's body is read from: each read must end by ``deadline`` (monotonic),
    else ReadTimeout. A body read that fails makes gunicorn close the connection (Body.failed)."""

    def __init__(self, sock: Any, deadline: float, seconds: float) -> None:
        self.sock, self.deadline, self.seconds = sock, deadline, seconds

    def recv(self, size: int) -> bytes:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise ReadTimeout("body", self.seconds)
        before = self.sock.gettimeout()
        self.sock.settimeout(left)
        try:
            return bytes(self.sock.recv(size))
        except TimeoutError:  # socket.timeout
            raise ReadTimeout("body", self.seconds) from None
        finally:
            self.sock.settimeout(before)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


class Guards(ProblemRefusals):
    """The read timeouts and connection caps of both workers (this module's docstring)."""

    settings: Settings

    def load_guards(self) -> None:
        self.settings = Settings.from_env()
        self.caps = ConnectionCaps.from_settings(self.settings)

    def timed_body(self, req: Any) -> tuple[Any, Any]:
        """Put the request's body under the body timeout: (unreader, its socket) to restore."""
        seconds = self.settings.body_timeout_s
        unreader: Any = getattr(req, "unreader", None)
        if seconds <= 0 or req.body is None or not hasattr(unreader, "sock"):
            return None, None
        sock = unreader.sock
        unreader.sock = _Deadline(sock, time.monotonic() + seconds, seconds)
        return unreader, sock

    quiet_until = 0.0  # refusals at accept are logged once a LOG_EVERY_S, with the count since
    quiet = 0

    def refuse_at_accept(self, client: Any, addr: Any, refused: Refusal) -> None:
        now = time.monotonic()
        if now < self.quiet_until:  # a flood of connections must not become a flood of log lines
            self.quiet += 1
        else:
            more = f" (and {self.quiet} more connections refused at accept since the last line)" if self.quiet else ""
            self.log.warning("refused a connection from ip=%s: %s%s", addr[0], refused.code, more)
            self.quiet_until, self.quiet = now + LOG_EVERY_S, 0
        try:
            util.write_nonblock(client, answer(refused))
            linger(client, CAP_LINGER_S)
        except Exception:  # noqa: BLE001 - the client may be gone
            self.log.debug("failed to send a refusal")
        finally:
            util.close(client)


class GeventWorker(Guards, _GeventWorker):
    """gunicorn's gevent worker (an open stream is a greenlet, not a thread), refusing in problem+json,
    with the header and body timeouts and the connection caps."""

    def init_process(self) -> None:
        import weakref

        self.load_guards()
        self.served: weakref.WeakSet[Any] = weakref.WeakSet()  # greenlets past their first request
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        admitted = self.caps.admit(address) if address else ()
        if isinstance(admitted, Refusal):
            self.refuse_at_accept(client, addr, admitted)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            self.caps.release(admitted)

    def timeout_ctx(self) -> Any:
        """gunicorn enters this around reading each request's line and headers: the first request's
        must arrive within the header timeout (else ReadTimeout: 408); a kept-alive connection's
        next one within the keep-alive, silently closed otherwise (gunicorn's own)."""
        import gevent

        seconds = self.settings.header_timeout_s
        if seconds <= 0 or gevent.getcurrent() in self.served:
            return super().timeout_ctx()
        return gevent.Timeout(seconds, ReadTimeout("line and headers", seconds))

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        import gevent

        self.served.add(gevent.getcurrent())
        unreader, raw = self.timed_body(req)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            if unreader is not None:
                unreader.sock = raw  # what is left of the body is drained under the keep-alive


class ThreadWorker(Guards, _ThreadWorker):
    """gunicorn's gthread worker (a thread per request), refusing in problem+json, with the body
    timeout (its threads wait for a request's first bytes on a poller, 5 s at most, but the header
    timeout and the connection caps are the gevent worker's only)."""

    def init_process(self) -> None:
        self.load_guards()
        super().init_process()

    def handle_request(self, req: Any, conn: Any) -> Any:
        unreader, raw = self.timed_body(req)
        try:
            return super().handle_request(req, conn)
        finally:
            if unreader is not None:
                unreader.sock = raw


WORKERS = {"gevent": f"{__name__}.GeventWorker", "gthread": f"{__name__}.ThreadWorker"}


def worker_class(name: str) -> str:
    """gunicorn's ``worker_class`` for MEOW_WEB_WORKER_CLASS; another name (a class path) goes to
    gunicorn as it is, and then its refusals are gunicorn's own."""
    return WORKERS.get(name, name)
