"""End-to-end: gunicorn serving the API and a real `meow worker` process, on a real Redis (the
launcher is tools/stack.py, shared with the benches)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from tools.stack import ROOT, Stack, live_stack as _live_stack

AUDIT = "e2e-audit-token"

__all__ = ["AUDIT", "ROOT", "Stack", "live_stack"]


@contextlib.contextmanager
def live_stack(redis_url: str, **extra_env: str) -> Iterator[Stack]:
    """gunicorn + one `meow worker` on the real Redis under a fresh key prefix, with the suite's audit
    token; all removed afterwards (bots-only tables at full speed and uncapped, as the suite was
    written for: their pace floor and caps have their own tests, tests/api/test_fair_search.py)."""
    with _live_stack(redis_url, audit=AUDIT, **extra_env) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url) as s:
        yield s
