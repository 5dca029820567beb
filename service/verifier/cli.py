"""`meow verify FILE|URL`: prints a short report; exits 1 naming the first bad event. Run as
`python -m service.verifier FILE|URL [--token T] [--independent]` it imports nothing of the
service but this package, the games' verifier modules and (unless --independent) the replay."""
from __future__ import annotations

import argparse
import sys

from service.verifier.check import load, verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="a history JSON/NDJSON file, or the URL of GET /v1/games/{id}/history")
    parser.add_argument("--token", help="bearer token for a URL")
    parser.add_argument("--independent", action="store_true",
                        help="only the standard-library checks (chain, commitments, permutations): "
                             "no replay with the rules engine, nothing of the engine imported")


def main(source: str, token: str | None = None, replay: bool = True) -> int:
    try:
        events = load(source, token)
    except Exception as exc:  # noqa: BLE001 - report any unreadable input plainly
        print(f"cannot read {source}: {exc}", file=sys.stderr)
        return 2
    result = verify(events, replay=replay)
    print(f"events: {result.events}")
    for note in result.notes[:5]:
        print(f"note: {note}")
    if result.first is None:
        print("chain: intact; commitments and permutations: match; "
              + ("replay: every command reproduces its events" if result.replayed else "replay: not run (--independent)"))
        if result.final:
            print(f"final: {result.final}")
        print("OK")
        return 0
    for f in sorted(result.findings, key=lambda f: f.seq):
        print(f"BAD event {f.seq} ({f.check}): {f.detail}")
    print(f"FAILED: first bad event {result.first.seq}")
    return 1


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.verifier", description="check a finished game's history")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return main(args.source, args.token, replay=not args.independent)
