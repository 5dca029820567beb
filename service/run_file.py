"""What a running `meow run` writes down for the commands beside it: ``<MEOW_DATA_DIR>/run.json``
(``var/run.json`` by default) names the store it serves (the embedded Redis' URL, or the
REDIS_URL it was given), its key prefix and queue name, and its API address. `meow keys`,
`meow worker`, `meow compact` and `meow archive` started from the same folder with no REDIS_URL
take those settings from it while its launcher runs, so `make run` in one terminal and
`meow keys create ...` in another need no setting. The launcher removes the file when it stops;
a file whose launcher is gone is ignored."""
from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping, MutableMapping
from typing import Any

NAME = "run.json"
SHARED = ("REDIS_URL", "MEOW_QUEUE_URL", "MEOW_KEY_PREFIX", "MEOW_QUEUE")
"""The settings a command needs to reach the same store and queues as the running service."""


def path(data_dir: str) -> str:
    return os.path.join(data_dir, NAME)


def write(data_dir: str, env: Mapping[str, str], api: str, pid: int | None = None,
          children: Mapping[str, int] | None = None) -> str:
    """Record the running service's store settings (the file is the user's alone: a REDIS_URL may
    hold a password) and its processes' ids by name (``children``: rewritten at each restart); its path."""
    record = {"pid": os.getpid() if pid is None else pid, "api": api,
              "env": {k: env[k] for k in SHARED if env.get(k)}, "children": dict(children or {})}
    os.makedirs(data_dir, exist_ok=True)
    target = path(data_dir)
    tmp = f"{target}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(record, fh)
    os.replace(tmp, target)
    return target


def remove(data_dir: str, pid: int | None = None) -> None:
    """Remove the file if it is this launcher's (another launcher may have written it since)."""
    record = _load(data_dir)
    if record is not None and record.get("pid") == (os.getpid() if pid is None else pid):
        with contextlib.suppress(OSError):
            os.remove(path(data_dir))


def _load(data_dir: str) -> dict[str, Any] | None:
    try:
        with open(path(data_dir), encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("env"), dict) else None


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def running(data_dir: str) -> dict[str, Any] | None:
    """The record of the `meow run` serving from ``data_dir``, if its launcher still runs."""
    record = _load(data_dir)
    return record if record is not None and _alive(record.get("pid")) else None


def adopt(environ: MutableMapping[str, str]) -> dict[str, Any] | None:
    """With no REDIS_URL in ``environ``, take the running service's settings (those not set
    already) from its file; the record adopted, or None."""
    if environ.get("REDIS_URL"):
        return None
    record = running(environ.get("MEOW_DATA_DIR", "var"))
    if record is None:
        return None
    for k, v in record["env"].items():
        if k in SHARED and isinstance(v, str) and not environ.get(k):
            environ[k] = v
    return record


def missing(environ: Mapping[str, str]) -> str:
    """What to say when there is no store to reach: no REDIS_URL, and no `meow run` beside."""
    where = path(environ.get("MEOW_DATA_DIR", "var"))
    return (f"REDIS_URL is not set and no `meow run` is running here (no live {where}): start `make run` "
            "(or `meow run`) from this folder first, or set REDIS_URL to the service's Redis "
            "(and MEOW_KEY_PREFIX, MEOW_QUEUE if it uses its own)")
