"""`meow verify FILE|URL`: prints a short report; exits 1 naming the first bad event."""
from __future__ import annotations

import sys

from service.verifier.check import load, verify


def main(source: str, token: str | None = None) -> int:
    try:
        events = load(source, token)
    except Exception as exc:  # noqa: BLE001 - report any unreadable input plainly
        print(f"cannot read {source}: {exc}", file=sys.stderr)
        return 2
    result = verify(events)
    print(f"events: {result.events}")
    for note in result.notes[:5]:
        print(f"note: {note}")
    if result.first is None:
        print("chain: intact; commitments and permutations: match; replay: every command reproduces its events")
        if result.final:
            print(f"final: {result.final}")
        print("OK")
        return 0
    for f in sorted(result.findings, key=lambda f: f.seq):
        print(f"BAD event {f.seq} ({f.check}): {f.detail}")
    print(f"FAILED: first bad event {result.first.seq}")
    return 1
