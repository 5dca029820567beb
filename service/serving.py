"""The HTTP server's workers: gunicorn's gevent and gthread workers, whose own refusals answer
problem+json like every other error of the service.

gunicorn refuses some requests before the app runs (a request line or headers over its limits, a
request it cannot parse) and answered them with a text/html page of its own. Here they answer
``application/problem+json`` with the stable code service/api/refusals.py gives them, and the
connection closes gently, so that the client reads the answer before the rest of what it sent is
thrown away. gunicorn_conf.py picks a class by MEOW_WEB_WORKER_CLASS (``worker_class``). What the
server does to a connection before or around the app (slow bodies, connections per address)
belongs here too.
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

from service.api.codes import ApiCode
from service.api.refusals import Refusal, refusal

LINGER_S = 1.0  # after a refusal, how long to read what the client still sends before closing
LINGER_BYTES = 64 * 1024  # and how much of it at most
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


def linger(sock: Any) -> None:
    """Stop sending and read what the client still sends (LINGER_S, LINGER_BYTES at most) before the
    worker closes: closing with unread bytes resets the connection, and a reset can reach the
    client before it has read the answer (a request line over the limit is such a case)."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline, read = time.monotonic() + LINGER_S, 0
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


class GeventWorker(ProblemRefusals, _GeventWorker):
    """gunicorn's gevent worker (an open stream is a greenlet, not a thread), refusing in problem+json."""


class ThreadWorker(ProblemRefusals, _ThreadWorker):
    """gunicorn's gthread worker (a thread per request), refusing in problem+json."""


WORKERS = {"gevent": f"{__name__}.GeventWorker", "gthread": f"{__name__}.ThreadWorker"}


def worker_class(name: str) -> str:
    """gunicorn's ``worker_class`` for MEOW_WEB_WORKER_CLASS; another name (a class path) goes to
    gunicorn as it is, and then its refusals are gunicorn's own."""
    return WORKERS.get(name, name)
