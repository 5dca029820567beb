"""The checks of `meow verify`, each naming the first bad event."""
from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from service.verifier.primitives import ZERO, chain_hash, chance_deck, deck, sha256_hex, unshuffle


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
    """Commitments, then each recorded permutation re-derived from its seed and the documented items."""
    revealed = next((e for e in events if e.get("type") == "SeedsRevealed"), None)
    if revealed is None:
        out.bad(len(events), "seeds", "no SeedsRevealed: the game is not finished")
        return
    seeds = revealed["data"].get("shuffle_seeds", {})
    options: dict = {}
    discard: list[str] = []
    left_hand: list[str] = []
    kinds: list[str] = []
    for e in events:
        t, d, seq = e["type"], e.get("data", {}), e["seq"]
        if t == "MatchCreated":
            options = d.get("options", {})
            if sha256_hex(revealed["data"]["match_seed"]) != d.get("match_seed_commitment"):
                out.bad(seq, "commitment", "the match seed does not match its commitment")
        elif t == "RoundStarted":
            discard = []
            kinds = list(d.get("kinds", []))
        elif t in ("StarterTurned", "StarterCovered", "CardPlayed"):
            discard.append(d["card"])
        elif t == "StarterReturned" and d.get("card") in discard:  # Crazy Eights: a turned-up eight
            discard.remove(d["card"])  # goes back into the stock
        elif t == "SeatLeft":
            left_hand = list(e.get("secret", {}).get("hand", []))
        elif t == "ShuffleCommitted":
            _check_shuffle(e, seeds.get(str(seq)), options, discard, left_hand, kinds, out)
            if d.get("what") == "discard":
                discard = discard[-1:]


def _check_shuffle(e: dict, seed: str | None, options: dict, discard: list, left_hand: list, kinds: list,
                   out: Result) -> None:
    seq, d = e["seq"], e["data"]
    if seed is None or sha256_hex(seed) != d.get("commitment"):
        out.bad(seq, "commitment", "the shuffle seed does not match its commitment")
        return
    order = e.get("secret", {}).get("order")
    if order is None or len(order) != d.get("count"):
        out.bad(seq, "permutation", "the recorded order is missing or has the wrong length")
        return
    items = unshuffle(seed, order)
    expected = {
        "deck": lambda: deck(options),
        "discard": lambda: discard[:-1],
        "leaver_hand": lambda: left_hand,
        "chance_deck": lambda: chance_deck(options),
        "cats": lambda: [f"cat:{k}" for k in kinds for _ in range(int(options["cats_per_kind"]))],
    }
    if d.get("what") in expected:
        if items != expected[d["what"]]():
            out.bad(seq, "permutation", f"the {d['what']} order is not the documented shuffle of its seed")
    else:
        out.notes.append(f"event {seq}: '{d.get('what')}' shuffle: commitment checked, items replayed by the engine")


def check_replay(events: list[dict], out: Result) -> None:
    """Replay with the rules engine: every recorded command re-decided must give the recorded events."""
    from service.app import audit

    report = audit.Report(events=len(events))
    state = audit.check_replay(events, report)
    for p in report.problems:
        out.bad(p.seq, "replay", p.detail)
    if state is not None and not report.problems:
        from service.games import engine

        view = engine.public_view(state, 0)
        out.final = {"standings": view.get("standings"), "totals": (view.get("scores") or [{}])[-1].get("totals")}


def verify(events: list[dict]) -> Result:
    out = Result(events=len(events))
    check_chain(events, out)
    check_seeds(events, out)
    check_replay(events, out)
    return out
