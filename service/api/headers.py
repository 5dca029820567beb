"""Headers that say what an answer is: who may keep it (``Cache-Control``), what changes its body
(``Vary``) and, on a refusal, when to come back (one ``Retry-After``, the refusal's own). The
policy is api/operations.py's (``cache_control``, ``vary``: the spec states it per operation);
this module sets the headers on every answer.

``Cache-Control`` by what the answer can carry for its caller (the redaction's ``Viewer``):

- ``no-store``: a write's answer (createGame and takeSeat return a token; every write returns the
  caller's view), a read as a seat (its hand, its private events, its legal actions), a history
  (once finished it holds every hand), and every refusal (it describes one moment);
- ``private, no-cache``: any other read with a token (an owner without a seat, an auditor): a
  browser may keep it and revalidate, a shared cache may not;
- ``no-cache``: a read without a token (variants, lobby, a spectator's view, events or past
  view, health): anyone may keep it and must revalidate (the ETag is the game's version).

``Vary``: ``Authorization`` on every operation that takes a token (its body depends on whose it
is), ``Accept`` where the body is negotiated (JSON or a stream), ``Accept-Encoding`` on every
answer that may be gzipped (Flask-Compress adds it). With them the strong ``ETag: "<version>"``
of API.md names one version for one viewer and one encoding in any cache.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, g, request

from service.api.operations import NO_STORE, PRIVATE, PUBLIC, cache_control, takes_key, vary
from service.app.auth import Caller


def caller_seen(caller: Caller) -> None:
    """The request's caller, once authenticated (api/http.py ``authenticate``)."""
    g.meow_caller = caller


def retry_after(resp: Response, seconds: int | str) -> Response:
    """A refusal's one ``Retry-After``: ``seconds``, as the code that refused means it. The rate
    limiter (api/limits.py) stamps its window's reset on every answer it counted; the refusal's
    own value wins over it (``install``)."""
    if str(seconds):
        resp.headers["Retry-After"] = str(seconds)
    else:  # "": this refusal carries none (codes.NO_RETRY_AFTER)
        resp.headers.pop("Retry-After", None)
    g.meow_retry_after = str(seconds)
    return resp


def install(app: Flask) -> None:
    """Register the hook; create_app registers it before the gzip's, the metrics' and the rate
    limiter's after_request hooks, so it runs after them (Flask runs them in reverse order)."""

    @app.after_request
    def _answer_headers(resp: Response) -> Response:
        own = g.get("meow_retry_after")
        if own:
            resp.headers["Retry-After"] = own
        elif own == "" or resp.status_code != 429:  # a refusal that says no time (codes.NO_RETRY_AFTER)
            resp.headers.pop("Retry-After", None)
        op: Any = g.get("meow_operation")  # set by api/operations.py ``operation`` as the route runs
        if resp.status_code >= 400:
            resp.headers["Cache-Control"] = NO_STORE
        elif op is not None:
            resp.headers["Cache-Control"] = cache_control(op, g.get("meow_caller"))
            if resp.headers["Cache-Control"] == PUBLIC and request.headers.get("Meow-Key") and takes_key(op):
                resp.headers["Cache-Control"] = PRIVATE  # a key's answer may name its players: never shared
        if op is not None:
            for name in vary(op):
                resp.vary.add(name)
        return resp
