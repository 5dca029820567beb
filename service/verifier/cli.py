"""`meow verify FILE|URL`: prints a short report (or, with ``--json``, one JSON document); exits 0
when the history verifies, 1 when it does not (failed, unfinished, truncated or unreadable), 2 when
the file or URL cannot be opened at all. Run as
`python -m service.verifier FILE|URL [--token T] [--independent] [--json] [--head H]` it imports
nothing of the service but this package, the games' verifier modules and (unless --independent)
the replay."""
from __future__ import annotations

import argparse
import sys

from service.verifier import report
from service.verifier.check import Finding, Result, verify
from service.verifier.read import read


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="a history JSON/NDJSON file, or the URL of GET /v1/games/{id}/history")
    parser.add_argument("--token", help="bearer token for a URL")
    parser.add_argument("--independent", action="store_true",
                        help="only the standard-library checks (chain, commitments, permutations): "
                             "no replay with the rules engine, nothing of the engine imported")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({report.FORMAT}, docs/audit.md) instead of the text report")
    parser.add_argument("--head", metavar="HASH",
                        help="a chain head to find in the history: the chain_head of GET /v1/games/{id}, "
                             "or one noted during play")


def main(source: str, token: str | None = None, replay: bool = True, as_json: bool = False,
         head: str | None = None) -> int:
    try:
        got = read(source, token)
    except (OSError, UnicodeDecodeError) as exc:  # a missing file, a refused or failed request
        if as_json:  # still one document, for a machine
            unopened = Result()
            unopened.bad(None, "unreadable", f"cannot read {source}: {exc}")
            print(report.as_json(unopened, source))
        else:
            print(f"cannot read {source}: {exc}", file=sys.stderr)
        return 2
    if (got.problem is not None and got.problem.kind == "unreadable") or not got.events:
        result = Result(events=len(got.events))  # nothing sound to check
    else:
        result = verify(got.events, replay=replay, head=head)
    if got.problem is not None:
        p = got.problem
        result.findings.insert(0, Finding(None, p.kind, p.detail, line=p.line))
    print(report.as_json(result, source) if as_json else "\n".join(report.as_text(result, source)))
    return 0 if result.first is None else 1


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.verifier", description="check a finished game's history")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return main(args.source, args.token, replay=not args.independent, as_json=args.json, head=args.head)
