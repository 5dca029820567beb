"""Reading a history for `meow verify`: the JSON body of GET /history (``{"events": [...]}``), a
list of records, or NDJSON (one record a line), from a file or a URL. A file that cannot be read
as one is named plainly, with the line of the file where it goes wrong: ``truncated`` when it
ends mid-record (a cut download), ``unreadable`` for anything else (a syntax error, a line that
is not a record). Standard library only."""
from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field


@dataclass
class Unreadable:
    """Why (part of) the file is not a history: ``kind`` is ``truncated`` or ``unreadable``;
    ``line`` is the file's line (1-based); ``after`` the records read before it (NDJSON)."""

    kind: str
    line: int | None
    detail: str


@dataclass
class Read:
    events: list[dict] = field(default_factory=list)
    problem: Unreadable | None = None


def fetch(source: str, token: str | None = None) -> str:
    """The text of a file or URL (errors of the file system or the network are raised as they are)."""
    if source.startswith(("http://", "https://")):
        req = urllib.request.Request(source, headers={"Accept": "application/json"})
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=60) as resp:  # the auditor's own URL
            return resp.read().decode()
    with open(source, encoding="utf-8") as fh:
        return fh.read()


def parse(text: str) -> Read:
    """The records of a history's text, or what is wrong with it (line numbers of ``text``)."""
    if not text.strip():
        return Read(problem=Unreadable("unreadable", None, "the file holds no history (it is empty)"))
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            return Read(problem=_syntax(exc, text, 1, 0))
        return _lines(text)  # one JSON document a line
    return _records(body)


def _records(body: object) -> Read:
    events = body.get("events", body.get("history", [body])) if isinstance(body, dict) else body
    if not isinstance(events, list):
        return Read(problem=Unreadable("unreadable", None, "the JSON holds no list of events"))
    bad = next((i for i, e in enumerate(events) if not isinstance(e, dict)), None)
    if bad is not None:
        return Read(events[:bad], Unreadable("unreadable", None, f"item {bad + 1} of the events is not a record"))
    return Read(events)


def _lines(text: str) -> Read:
    out = Read()
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line.strip())
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            out.problem = _syntax(exc, line, i + 1, len(out.events), cut_ok=i == last)
            return out
        if not isinstance(record, dict):
            out.problem = Unreadable("unreadable", i + 1, f"line {i + 1} is not a record (a JSON object)")
            return out
        out.events.append(record)
    return out


def _syntax(exc: json.JSONDecodeError, doc: str, first_line: int, whole: int, cut_ok: bool = True) -> Unreadable:
    """A JSON error as the file's line: ``truncated`` when the text ends inside the record."""
    line = first_line + exc.lineno - 1
    at_end = exc.msg.startswith("Unterminated string") or not doc[exc.pos:].strip()  # it ran out of text
    if cut_ok and at_end:
        return Unreadable("truncated", line,
                          f"the history ends mid-record at line {line}: the file was cut short after {whole} whole "
                          f"records (a partial download?)" if whole else
                          f"the history ends mid-record at line {line}: the file was cut short")
    return Unreadable("unreadable", line, f"line {line} is not valid JSON: {exc.msg} (column {exc.colno})")


def read(source: str, token: str | None = None) -> Read:
    return parse(fetch(source, token))


def load(source: str, token: str | None = None) -> list[dict]:
    """Every record of a well-formed history file or URL; ValueError naming the line otherwise."""
    got = read(source, token)
    if got.problem is not None:
        raise ValueError(got.problem.detail)
    return got.events
