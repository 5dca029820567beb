"""CPU-heavy work off the event loop: under gevent, a long replay runs in a native thread of the
hub's pool, so the greenlets of open streams keep being scheduled (the GIL switches every 5 ms);
anywhere else it simply runs. Only pure work goes here (folds, verification), never I/O."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

HEAVY = 256  # events: a fold shorter than this runs inline


def under_gevent() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("socket"))


def run(fn: Callable[[], T]) -> T:
    if under_gevent():
        import gevent

        return gevent.get_hub().threadpool.apply(fn)
    return fn()
