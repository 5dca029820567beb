"""What `meow verify` says: the report of one history as plain text, or as one JSON document for
machines (``--json``; its shape is documented in docs/audit.md and held by tests/audit).
Standard library only."""
from __future__ import annotations

import json
from typing import Any

from service.verifier.check import Finding, Result

FORMAT = "meow-verify/1"
"""The version of the JSON document's shape: a new member keeps it, a changed or removed one bumps it."""

KEYS = ("format", "source", "verdict", "ok", "events", "variant", "checks", "first_bad_seq", "problems", "notes",
        "chain_head", "scores")
PROBLEM_KEYS = ("seq", "line", "kind", "field", "expected", "found", "detail")
VERDICTS = ("verified", "failed", "unfinished", "truncated", "unreadable")
CHECKS = {"chain": ("chain",), "commitments": ("commitment",), "permutations": ("permutation", "game"),
          "replay": ("replay",)}
"""Each check of the report and the kinds of finding that fail it."""


def verdict(result: Result) -> str:
    first = result.first
    if first is None:
        return "verified"
    return first.check if first.check in ("unreadable", "truncated", "unfinished") else "failed"


def checks(result: Result) -> dict[str, str]:
    kinds = {f.check for f in result.findings}
    out = {}
    for name, failing in CHECKS.items():
        ran = result.ran and (name == "chain" or (result.finished and (name != "replay" or result.replayed)))
        out[name] = "failed" if kinds & set(failing) else "ok" if ran else "not run"
    return out


def problem(f: Finding) -> dict[str, Any]:
    return {"seq": f.seq, "line": f.line, "kind": f.check, "field": f.field, "expected": f.expected,
            "found": f.found, "detail": f.detail}


def document(result: Result, source: str) -> dict[str, Any]:
    """The JSON report (KEYS, in that order)."""
    head = None
    if result.head is not None:
        seq, hash_ = result.head
        given = None if result.given_head is None else {"hash": result.given_head, "seq": result.given_at}
        head = {"seq": seq, "hash": hash_, "given": given}
    return {"format": FORMAT, "source": source, "verdict": verdict(result), "ok": result.first is None,
            "events": result.events, "variant": result.variant, "checks": checks(result),
            "first_bad_seq": result.first_bad_seq, "problems": [problem(f) for f in result.ordered()],
            "notes": list(result.notes), "chain_head": head, "scores": result.final}


def as_json(result: Result, source: str) -> str:
    return json.dumps(document(result, source), ensure_ascii=False, indent=2)


def as_text(result: Result, source: str) -> list[str]:
    """The plain report, a line each: what was read, each check, the scores, the chain head, the verdict."""
    doc = document(result, source)
    state = doc["checks"]
    lines = [f"history: {source}: {result.events} events" + (f", {result.variant}" if result.variant else "")]
    lines += [f"note: {n}" for n in result.notes[:5]]
    seeds = "not checked: the seeds are revealed only when the game ends" if result.ran else "not run"
    said = {
        "chain": {"ok": "intact: every event links to the one before and its hash matches its content"},
        "commitments": {"ok": f"the match seed and {result.shuffles} shuffle seeds match their commitments",
                        "not run": seeds},
        "permutations": {"ok": "every shuffle un-shuffles with its seed to the items its game documents",
                         "not run": seeds},
        "replay": {"ok": "every recorded command reproduces its events under the rules",
                   "not run": "not run (--independent)" if result.ran and result.finished else "not run"},
    }
    for name, status in state.items():
        lines.append(f"{name}: " + ("FAILED" if status == "failed" else said[name].get(status, status)))
    for f in result.ordered():
        where = f"event {f.seq}" if f.seq is not None else f"line {f.line}" if f.line is not None else "the history"
        lines.append(f"BAD {where} ({f.check}): {f.detail}")
    if result.final is not None:
        lines.append("final scores: " + json.dumps(result.final, ensure_ascii=False, sort_keys=True))
    head = doc["chain_head"]
    if head is not None:
        lines.append(f"chain head: {head['hash']} (event {head['seq']})")
        given = head["given"]
        if given is None:
            game = source.split("?", 1)[0].removesuffix("/history") if source.startswith(("http://", "https://")) \
                else "/v1/games/{id}"
            lines.append(f"  compare it with the server's: GET {game} answers it as chain_head; "
                         "pass that as --head <chain_head> and this check does it")
        elif given["seq"] == head["seq"]:
            lines.append("  the given --head is this head: the server's game is this history")
        elif given["seq"] is not None:
            lines.append(f"  the given --head is event {given['seq']}'s hash: the history holds it and goes on")
    if result.first is None:
        lines.append("OK")
    elif doc["verdict"] != "failed":
        lines.append(f"NOT VERIFIED: the history is {doc['verdict']}")
    else:
        lines.append(f"FAILED: first bad event {result.first_bad_seq}" if result.first_bad_seq is not None
                     else f"FAILED: {result.first.detail}")
    return lines
