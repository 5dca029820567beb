"""The golden histories (tests/golden/*.json) and the one edit a forger makes to them."""
from __future__ import annotations

from pathlib import Path

from service.verifier.primitives import ZERO, chain_hash

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDENS = sorted(GOLDEN.glob("*.json"))


def rechain(events: list[dict]) -> list[dict]:
    """Recompute every hash after an edit (what a forger would do), so only the edit is at fault."""
    prev = ZERO
    for e in events:
        e["prev_hash"] = prev
        e["hash"] = prev = chain_hash(prev, e)
    return events
