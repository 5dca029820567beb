"""Audit: the history's record form, and the server's own replay report (`verify`)."""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from service.app import commands
from service.app.redaction import rfc3339
from service.eventstore import chain
from service.eventstore.codec import Stored, body_of, to_json
from service.games import engine, registry
from service.games.kernel.events import END_OF_MATCH
from service.games.kernel.model import Context, CreateMatch, RuleViolation
from service.games.kernel.state import TableState

COMPARED = ("seq", "type", "at_ms", "round", "seat", "data", "private", "secret")


def history_record(item: Stored, prev_hash: str) -> dict[str, Any]:
    """One event of a finished game's history: the hashed record plus its chain links."""
    record = chain.audit_record(item.event.seq, item.body)
    record["at"] = rfc3339(item.event.at)
    record["prev_hash"] = prev_hash
    record["hash"] = item.hash
    return record


def history_records(stored: Iterable[Stored]) -> Iterator[dict[str, Any]]:
    prev = chain.GENESIS
    for item in stored:
        yield history_record(item, prev)
        prev = item.hash or prev


@dataclass
class Problem:
    seq: int
    check: str  # chain | commitment | replay
    detail: str


@dataclass
class Report:
    events: int = 0
    commands: int = 0
    shuffles: int = 0
    problems: list[Problem] = field(default_factory=list)
    final: dict[str, Any] | None = None  # the finished game's scores and standings

    @property
    def ok(self) -> bool:
        return not self.problems

    def first_bad(self) -> int | None:
        return min((p.seq for p in self.problems), default=None)

    def as_dict(self) -> dict[str, Any]:
        by = {c: [p for p in self.problems if p.check == c] for c in ("chain", "commitment", "replay")}
        return {
            "ok": self.ok,
            "events": self.events,
            "first_bad_seq": self.first_bad(),
            "chain": {"ok": not by["chain"]},
            "commitments": {"ok": not by["commitment"], "shuffles": self.shuffles},
            "replay": {"ok": not by["replay"], "commands": self.commands},
            "problems": [p.__dict__ for p in sorted(self.problems, key=lambda p: p.seq)],
            "final": self.final,
        }


def check_chain(records: Sequence[Mapping[str, Any]], report: Report) -> None:
    """Sequence numbers 1..n without gaps, every hash recomputed from its record and its predecessor."""
    prev = chain.GENESIS
    for i, rec in enumerate(records, start=1):
        if rec.get("seq") != i:
            report.problems.append(Problem(i, "chain", f"expected event {i}, found {rec.get('seq')}"))
            return
        hashed = {k: v for k, v in rec.items() if k not in ("hash", "prev_hash", "at")}
        expect = chain.link(prev, hashed)
        if rec.get("hash") != expect:
            report.problems.append(Problem(i, "chain", "hash does not match the record and its predecessor"))
            return
        prev = expect


def revealed_seeds(records: Sequence[Mapping[str, Any]]) -> tuple[str | None, dict[str, str]]:
    revealed = next((r for r in records if r.get("type") == END_OF_MATCH), None)  # it reveals the seeds (§2.3)
    if revealed is None:
        return None, {}
    return revealed["data"].get("match_seed"), dict(revealed["data"].get("shuffle_seeds", {}))


def check_commitments(records: Sequence[Mapping[str, Any]], report: Report) -> None:
    """sha256(seed) equals every published commitment (the match seed and each shuffle seed)."""
    match_seed, seeds = revealed_seeds(records)
    for rec in records:
        if rec["type"] == "MatchCreated":
            if match_seed is None or _sha(match_seed) != rec["data"].get("match_seed_commitment"):
                report.problems.append(Problem(rec["seq"], "commitment", "the match seed does not match its commitment"))
        elif rec["type"] == "ShuffleCommitted":
            report.shuffles += 1
            seed = seeds.get(str(rec["seq"]))
            if seed is None or _sha(seed) != rec["data"].get("commitment"):
                report.problems.append(Problem(rec["seq"], "commitment", "the shuffle seed does not match its commitment"))


def check_replay(records: Sequence[Mapping[str, Any]], report: Report) -> TableState | None:
    """Re-decide every recorded command with the revealed seeds and compare every event produced."""
    match_seed, seeds = revealed_seeds(records)
    state: TableState | None = None
    i = 0
    while i < len(records):
        head = records[i]
        if "command" not in head:
            report.problems.append(Problem(head["seq"], "replay", "event without a recorded command"))
            return state
        j = i + 1
        while j < len(records) and "command" not in records[j]:
            j += 1
        batch = records[i:j]
        report.commands += 1
        try:
            cmd = commands.from_record(head["command"], registry.of(state).name if state is not None else None)
        except commands.UnreadableCommand as exc:
            report.problems.append(Problem(head["seq"], "replay", f"the recorded command cannot be read: {exc}"))
            return state
        try:
            produced = decide_batch(state, cmd, batch, match_seed, seeds)
        except RuleViolation as rv:
            report.problems.append(Problem(head["seq"], "replay", f"the recorded command is illegal here: {rv.code}"))
            return state
        except Exception as exc:  # noqa: BLE001 - a record that cannot be replayed is reported, not raised
            report.problems.append(Problem(head["seq"], "replay", f"cannot replay: {type(exc).__name__}: {exc}"))
            return state
        for k in range(max(len(batch), len(produced))):
            if k >= len(batch) or k >= len(produced) or _comparable(produced[k]) != _pick(batch[k]):
                seq = batch[k]["seq"] if k < len(batch) else batch[-1]["seq"] + 1
                report.problems.append(Problem(seq, "replay", "the event differs from what the rules produce"))
                return state
        for event in produced:
            state = engine.evolve(state, event)
        i = j
    return state


def decide_batch(state: TableState | None, cmd: Any, batch: Sequence[Mapping[str, Any]], match_seed: str | None,
                 seeds: Mapping[str, str]) -> Sequence[Any]:
    """The events the rules produce for a recorded command (the head of ``batch``), with its recorded
    time and the seeds revealed for the shuffles of its batch."""
    used = [match_seed] if isinstance(cmd, CreateMatch) else []
    used += [seeds.get(str(r["seq"])) for r in batch if r["type"] == "ShuffleCommitted"]
    ctx = Context(batch[0]["at_ms"], tuple(bytes.fromhex(s) for s in used if s))
    return engine.decide(state, cmd, ctx)


def comparable(event: Any) -> dict[str, Any]:
    """A produced event as the members of its record that ``check_replay`` compares."""
    return _comparable(event)


def recorded(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's members that ``check_replay`` compares."""
    return _pick(record)


def verify(records: Sequence[Mapping[str, Any]]) -> Report:
    report = Report(events=len(records))
    check_chain(records, report)
    check_commitments(records, report)
    state = check_replay(records, report)
    if state is not None and report.ok:
        view = engine.public_view(state, 0)
        report.final = {"scores": view.get("scores"), "standings": view.get("standings")}
    return report


def _sha(hex_seed: str) -> str:
    try:
        return hashlib.sha256(bytes.fromhex(hex_seed)).hexdigest()
    except ValueError:
        return ""


def _pick(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in COMPARED if k in record}


def _comparable(event: Any) -> dict[str, Any]:
    body = orjson.loads(to_json(body_of(event)))
    return _pick(chain.audit_record(event.seq, body))
