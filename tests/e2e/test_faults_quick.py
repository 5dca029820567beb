"""The quick version of bench/faults.py on the real Redis (docs/reliability.md): racing writers at
N = 2, 8, 32, 128 (5 trials each), an Idempotency-Key resent 100 times serially and at once, one
SIGKILL of an embedded redis-server (AOF) under load (503 while down, no acknowledged event lost,
every game folds with its chain intact, play resumes), and one simple worker and one forking
worker's work-horse SIGKILLed mid bot turn (every bot move exactly once, the table moves on), and
the redaction oracle over a random game of every variant and the leaks planted in each that it
must catch."""
from __future__ import annotations

import os
import subprocess
import sys

from service.games import registry
from tests.e2e.conftest import ROOT

PREFIXES = ("| racing", "| Idem", "| SIGKILL of redis-server", "| workers / work-horses", "| redaction oracle")


def test_quick_fault_scenarios() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.faults", "--quick"], cwd=ROOT, capture_output=True, check=False,
                         text=True, timeout=400, env=dict(os.environ, PYTHONPATH=ROOT, MEOW_BENCH_DB=os.environ.get(
                             "MEOW_BENCH_DB", _db_of(os.environ.get("REDIS_URL", "")))))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith(PREFIXES)]
    assert len(rows) == 8 + len(registry.BY_VARIANT), out.stdout  # a redaction row per variant
    for row in rows:  # trials == as required in every row
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == cells[2] and int(cells[1]) > 0, row
    for row in (r for r in rows if r.startswith("| redaction")):
        assert "planted leaks caught" in row, row
    killed = next(r for r in rows if r.startswith("| SIGKILL"))
    assert "503 store_unavailable" in killed, killed  # it was down, and said so


def _db_of(url: str) -> str:
    """The tests' own db (REDIS_URL's), so the quick run writes where the tests may."""
    tail = url.rsplit("/", 1)[-1] if url.count("/") >= 3 else ""
    return tail if tail.isdigit() else "14"
