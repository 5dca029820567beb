"""The checks of `meow verify`, each naming the first bad event: the generic driver.

It knows no game. It reads the history (read.py: a truncated or malformed file is named with its
line), checks that the game is finished, the chain, the match seed's commitment and, for every
``ShuffleCommitted``, its seed's commitment and that the recorded order un-shuffles to the items
the game's own verifier module expects (service/verifier/games.py finds it by file). Then, unless
asked not to, the engine's replay (service/verifier/replay.py, the one part that imports the
service). docs/audit.md says what each part checks and the report's shape (report.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.verifier import games
from service.verifier.primitives import ZERO, chain_hash, sha256_hex, unshuffle
from service.verifier.read import load, read

__all__ = ["Finding", "Result", "check_chain", "check_seeds", "load", "read", "verify"]

UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What a game's verifier module may raise on a record it cannot follow (a finding, not a crash)."""

END = "SeedsRevealed"
"""The table event that closes a finished game's history and reveals every seed (randomness.md)."""

WHOLE = ("unreadable", "truncated", "unfinished", "head")
"""Kinds of finding about the history as a whole: named before any finding at an event."""

ABSENT: Any = None
"""``expected``/``found`` of a field one side does not hold (``field_absent`` says which)."""


@dataclass
class Finding:
    """One problem: where (``seq``, or the file's ``line``), what kind, in words, and for a field
    that differs, its path and both values (each taken from, or derived from, the history)."""

    seq: int | None
    check: str
    detail: str
    field: str | None = None
    expected: Any = None
    found: Any = None
    line: int | None = None

    @property
    def whole(self) -> bool:
        return self.check in WHOLE


@dataclass
class Result:
    events: int = 0
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    final: Any = None
    replayed: bool = False
    variant: str | None = None
    shuffles: int = 0
    head: tuple[int, str] | None = None  # (seq, hash) of the last record, as recorded
    given_head: str | None = None  # a chain head to find in the history (``--head``)
    given_at: int | None = None  # the event whose hash it is
    finished: bool = True
    ran: bool = False  # the checks ran (not on a file that is not a history)

    def bad(self, seq: int | None, check: str, detail: str, **where: Any) -> None:
        self.findings.append(Finding(seq, check, detail, **where))

    def ordered(self) -> list[Finding]:
        """Findings about the whole history first (in the order found), then by event."""
        return sorted(self.findings, key=lambda f: (not f.whole, f.seq or 0))

    @property
    def first(self) -> Finding | None:
        ordered = self.ordered()
        return ordered[0] if ordered else None

    @property
    def first_bad_seq(self) -> int | None:
        return min((f.seq for f in self.findings if f.seq is not None), default=None)


def check_chain(events: list[dict], out: Result) -> None:
    prev = ZERO
    for i, rec in enumerate(events, start=1):
        if rec.get("seq") != i:
            out.bad(i, "chain", f"event {i} is missing or out of place (found seq {rec.get('seq')})",
                    field="seq", expected=i, found=rec.get("seq"))
            return
        if rec.get("prev_hash") not in (None, prev):
            out.bad(i, "chain", "prev_hash does not name the previous event's hash",
                    field="prev_hash", expected=prev, found=rec.get("prev_hash"))
            return
        expect = chain_hash(prev, rec)
        if rec.get("hash") != expect:
            out.bad(i, "chain", "the hash does not match this event's content: the event was changed",
                    field="hash", expected=expect, found=rec.get("hash"))
            return
        prev = expect


def check_finished(events: list[dict], out: Result) -> bool:
    """A finished game's history ends with the event that reveals the seeds; without it nothing but
    the chain can be checked (a running game's history, or one cut short at a record's end)."""
    if any(e.get("type") == END for e in events):
        return True
    last = events[-1] if events else {}
    out.finished = False
    out.bad(None, "unfinished",
            f"the game is unfinished: the history ends at event {last.get('seq', len(events))} "
            f"({last.get('type', 'nothing')}) without {END}; the commitments, shuffles and replay need the "
            f"seeds it reveals, so only the chain was checked")
    return False


def check_seeds(events: list[dict], out: Result) -> None:
    """Commitments, then each recorded permutation re-derived from its seed and the items the
    game's verifier module documents for it."""
    revealed = next((e for e in events if e.get("type") == END), None)
    if revealed is None:
        out.bad(len(events), "unfinished", f"no {END}: the game is not finished")
        return
    seeds = revealed["data"].get("shuffle_seeds", {})
    created = events[0] if events[0].get("type") == "MatchCreated" else None
    if created is None:
        out.bad(1, "game", "the history does not open with MatchCreated")
        return
    d = created.get("data", {})
    match_seed = revealed["data"].get("match_seed")
    if _digest(match_seed) != d.get("match_seed_commitment"):
        out.bad(created["seq"], "commitment",
                f"broken commitment: the match seed revealed at event {revealed['seq']} does not hash to the "
                f"commitment published at event {created['seq']}: the seed or its commitment was changed",
                field="data.match_seed_commitment", expected=d.get("match_seed_commitment"), found=_digest(match_seed))
    out.variant = d.get("variant") if isinstance(d.get("variant"), str) else None
    module = games.for_variant(d.get("variant"))
    if module is None:
        out.bad(created["seq"], "game", f"no game's verifier module checks the variant {d.get('variant')!r}",
                field="data.variant", found=d.get("variant"))
        return
    cards: games.Shuffles = module.Shuffles(d.get("options", {}))
    for e in events[1:]:
        if e["type"] == "ShuffleCommitted":
            out.shuffles += 1
            _check_shuffle(e, seeds.get(str(e["seq"])), revealed["seq"], cards, out)
        try:
            cards.see(e)
        except UNREADABLE as exc:
            out.bad(e["seq"], "permutation", f"{module.__name__} cannot follow this event: {exc!r}")
            return


def _digest(seed: Any) -> str | None:
    try:
        return sha256_hex(seed) if isinstance(seed, str) else None
    except ValueError:
        return None


def _check_shuffle(e: dict, seed: str | None, revealed_at: int, cards: games.Shuffles, out: Result) -> None:
    seq, d = e["seq"], e["data"]
    if seed is None or _digest(seed) != d.get("commitment"):
        said = "reveals no seed for it" if seed is None else "does not hash to the commitment published here"
        out.bad(seq, "commitment",
                f"broken commitment: the seed event {revealed_at} ({END}) {said}: the seed or its commitment was changed",
                field="data.commitment", expected=d.get("commitment"), found=_digest(seed))
        return
    assert seed is not None
    order = e.get("secret", {}).get("order")
    if order is None or len(order) != d.get("count"):
        out.bad(seq, "permutation", "the recorded order is missing or has the wrong length",
                field="secret.order", expected=d.get("count"), found=None if order is None else len(order))
        return
    what = d.get("what")
    try:
        expected = cards.expected(what)
    except UNREADABLE as exc:
        out.bad(seq, "permutation", f"the {what} items cannot be listed from the record: {exc!r}")
        return
    if expected is None:
        out.notes.append(f"event {seq}: '{what}' shuffle: commitment checked, items replayed by the engine")
        return
    items = unshuffle(seed, order)
    if items != expected:
        k = next((i for i, (a, b) in enumerate(zip(items, expected, strict=False)) if a != b), min(len(items), len(expected)))
        out.bad(seq, "permutation",
                f"the {what} order is not the documented shuffle of its seed: un-shuffled, item {k} should be "
                f"{_at(expected, k)!r} but is {_at(items, k)!r} (a re-stacked order)",
                field="secret.order", expected=_at(expected, k), found=_at(items, k))


def _at(items: list, k: int) -> Any:
    return items[k] if k < len(items) else ABSENT


def check_head(events: list[dict], given: str, out: Result) -> None:
    """A chain head seen elsewhere (GET /v1/games/{id}'s ``chain_head``, or noted during play) must
    be the hash of one of the history's events: the last one for a finished game's head."""
    out.given_head = given.strip().lower()
    out.given_at = next((e.get("seq") for e in events if e.get("hash") == out.given_head), None)
    if out.given_at is None:
        out.bad(None, "head", "the given chain head is the hash of no event of this history: the server "
                              "showed a different game, or this history was changed", expected=out.given_head,
                found=out.head[1] if out.head else None)


def verify(events: list[dict], replay: bool = True, head: str | None = None) -> Result:
    """Every check of docs/audit.md; with ``replay=False`` only the independent ones (the chain,
    the commitments and the permutations), importing nothing of the engine. ``head``: a chain head
    to find in the history."""
    out = Result(events=len(events), ran=True)
    if events:
        out.head = (events[-1].get("seq"), events[-1].get("hash"))  # type: ignore[assignment]
    if head is not None:
        check_head(events, head, out)
    check_chain(events, out)
    if not check_finished(events, out):
        return out
    check_seeds(events, out)
    if replay:
        from service.verifier.replay import check_replay

        check_replay(events, out)
        out.replayed = True
    return out
