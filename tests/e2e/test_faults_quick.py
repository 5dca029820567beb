"""The quick version of bench/faults.py: racing writers at N = 2, 8, 32, 128 (5 trials each) and an
Idempotency-Key resent 100 times serially and at once, on the real Redis (docs/reliability.md)."""
from __future__ import annotations

import os
import subprocess
import sys

from tests.e2e.conftest import ROOT


def test_racing_writers_and_resent_keys() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.faults", "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("| racing") or line.startswith("| Idem")]
    assert len(rows) == 6, out.stdout
    for row in rows:  # trials == as required in every row
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == cells[2] and int(cells[1]) > 0, row
