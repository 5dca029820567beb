"""The checks of `meow verify`, each naming the first bad event: the generic driver.

It knows no game. It checks the chain, the match seed's commitment and, for every
``ShuffleCommitted``, its seed's commitment and that the recorded order un-shuffles to the items
the game's own verifier module expects (service/verifier/games.py finds it by file). Then,
unless asked not to, the engine's replay (service/verifier/replay.py, the one part that imports
the service). docs/audit.md says what each part checks."""
from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from service.verifier import games
from service.verifier.primitives import ZERO, chain_hash, sha256_hex, unshuffle

UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What a game's verifier module may raise on a record it cannot follow (a finding, not a crash)."""


@dataclass
class Finding:
    seq: int
    check: str
    detail: str


@dataclass
class Result:
    events: int = 0
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    final: Any = None
    replayed: bool = False

    def bad(self, seq: int, check: str, detail: str) -> None:
        self.findings.append(Finding(seq, check, detail))

    @property
    def first(self) -> Finding | None:
        return min(self.findings, key=lambda f: f.seq) if self.findings else None


def load(source: str, token: str | None = None) -> list[dict]:
    """A history from a file or URL: the JSON body of GET /history, or NDJSON (one event per line)."""
    if source.startswith(("http://", "https://")):
        req = urllib.request.Request(source, headers={"Accept": "application/json"})
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=60) as resp:  # the auditor's own URL
            text = resp.read().decode()
    else:
        with open(source, encoding="utf-8") as fh:
            text = fh.read()
    text = text.strip()
    if text.startswith("{") and "\n{" not in text:
        body = json.loads(text)
        return body.get("events", [body])
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_chain(events: list[dict], out: Result) -> None:
    prev = ZERO
    for i, rec in enumerate(events, start=1):
        if rec.get("seq") != i:
            out.bad(i, "chain", f"event {i} is missing or out of place (found seq {rec.get('seq')})")
            return
        if rec.get("prev_hash") not in (None, prev):
            out.bad(i, "chain", "prev_hash does not name the previous event's hash")
            return
        expect = chain_hash(prev, rec)
        if rec.get("hash") != expect:
            out.bad(i, "chain", "the hash does not match this event's content")
            return
        prev = expect


def check_seeds(events: list[dict], out: Result) -> None:
    """Commitments, then each recorded permutation re-derived from its seed and the items the
    game's verifier module documents for it."""
    revealed = next((e for e in events if e.get("type") == "SeedsRevealed"), None)
    if revealed is None:
        out.bad(len(events), "seeds", "no SeedsRevealed: the game is not finished")
        return
    seeds = revealed["data"].get("shuffle_seeds", {})
    created = events[0] if events[0].get("type") == "MatchCreated" else None
    if created is None:
        out.bad(1, "seeds", "the history does not open with MatchCreated")
        return
    d = created.get("data", {})
    if sha256_hex(revealed["data"]["match_seed"]) != d.get("match_seed_commitment"):
        out.bad(created["seq"], "commitment", "the match seed does not match its commitment")
    module = games.for_variant(d.get("variant"))
    if module is None:
        out.bad(created["seq"], "seeds", f"no game's verifier module checks the variant {d.get('variant')!r}")
        return
    cards: games.Shuffles = module.Shuffles(d.get("options", {}))
    for e in events[1:]:
        if e["type"] == "ShuffleCommitted":
            _check_shuffle(e, seeds.get(str(e["seq"])), cards, out)
        try:
            cards.see(e)
        except UNREADABLE as exc:
            out.bad(e["seq"], "permutation", f"{module.__name__} cannot follow this event: {exc!r}")
            return


def _check_shuffle(e: dict, seed: str | None, cards: games.Shuffles, out: Result) -> None:
    seq, d = e["seq"], e["data"]
    if seed is None or sha256_hex(seed) != d.get("commitment"):
        out.bad(seq, "commitment", "the shuffle seed does not match its commitment")
        return
    order = e.get("secret", {}).get("order")
    if order is None or len(order) != d.get("count"):
        out.bad(seq, "permutation", "the recorded order is missing or has the wrong length")
        return
    what = d.get("what")
    try:
        expected = cards.expected(what)
    except UNREADABLE as exc:
        out.bad(seq, "permutation", f"the {what} items cannot be listed from the record: {exc!r}")
        return
    if expected is None:
        out.notes.append(f"event {seq}: '{what}' shuffle: commitment checked, items replayed by the engine")
    elif unshuffle(seed, order) != expected:
        out.bad(seq, "permutation", f"the {what} order is not the documented shuffle of its seed")


def verify(events: list[dict], replay: bool = True) -> Result:
    """Every check of docs/audit.md; with ``replay=False`` only the independent ones (the chain,
    the commitments and the permutations), importing nothing of the engine."""
    out = Result(events=len(events))
    check_chain(events, out)
    check_seeds(events, out)
    if replay:
        from service.verifier.replay import check_replay

        check_replay(events, out)
        out.replayed = True
    return out
