"""Fault scenario: the redaction oracle over many random games of every registered variant, and
leaks planted in each variant's game that it must catch. A program of the test suite (it drives the
suite's oracle), run by bench/faults.py as ``python -m tests.conformance.redaction_faults --json``
(the benches import nothing of tests/: tests/test_no_cross_imports.py).

The oracle is tests/conformance/redaction.py and redaction_api.py (docs/reliability.md, "The
redaction oracle"): on the in-memory store, each game of random humans (2-3) and easy bots (0-2),
each match shortened by the catalogue's options half the time, is played for up to ``steps``
moves of its humans; every state it passes through is compared with resamples of it for every
viewer, and every answer to every seat and a spectator (views, legal actions, feed pages, write
answers and their replays, refusals, probes naming hidden values, a long-poll, SSE resumed,
``state?at``, history and verify) with the projection of the truth and searched for needles. The
spec check of the answers against openapi.yaml is left to the tests (it would triple the time).
Then, per variant, the leaks of tests/conformance/test_redaction.py are planted one at a time (a
seat's hand in the public view; every private part shown to everyone in the feed); each must fail.
"""
from __future__ import annotations

import dataclasses
import sys
import time
from collections import Counter
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from service.app import feeds, queries, redaction as projection
from service.games import engine, registry
from tests.conformance.redaction_api import play


def redaction_oracle(variant: str, games: int, steps: int, out: Any) -> Any:
    """``out`` is an ``Outcome``: one trial per game of ``variant``; then its planted leaks."""
    t0 = time.perf_counter()
    figures: Counter = Counter()
    for seed in range(games):
        out.trials += 1
        try:
            figures += play(variant, seed, steps, resamples=2, spec_check=False)
        except AssertionError as exc:
            out.fail(f"{variant} seed {seed}: a leak: {str(exc)[:300]}")
            continue
        out.ok += 1
        if out.trials % 50 == 0:
            print(f"redaction oracle, {variant}: {out.trials} games, {out.ok} clean", file=sys.stderr, flush=True)
    for key in ("moves", "answers", "states resampled", "finished"):
        out.statuses[f"{key} checked" if key in ("moves", "answers") else key] = figures[key]
    caught = [name for name, plant in PLANTED.items() if planted_leak_caught(variant, steps, plant)]
    out.statuses["planted leaks caught"] = len(caught)
    if len(caught) != len(PLANTED):
        out.fail(f"{variant}: planted leaks missed: {sorted(set(PLANTED) - set(caught))}")
    out.seconds = time.perf_counter() - t0
    return out


def _view_leak(variant: str) -> Callable[[], None]:
    """Seat 0's hand in the public view's ``name``; returns the undo."""
    game = registry.for_variant(variant)
    real = game.public_view

    def leaky(state: Any, now: int, record: bool = False) -> dict[str, Any]:
        got = real(state, now, record)
        hand = game.private_view(state, 0, now)["hand"] if state.seats else []
        return {**got, "name": " ".join(hand)} if hand else got

    saved = registry.BY_STATE
    registry.BY_STATE = engine.BY_STATE = MappingProxyType(
        {**saved, game.state_type: dataclasses.replace(game, public_view=leaky)})

    def undo() -> None:
        registry.BY_STATE = engine.BY_STATE = saved
    return undo


def _event_leak(variant: str) -> Callable[[], None]:
    """Every seat's private part of every event shown to everyone (the app's feeds and answers)."""
    real = projection.project_event

    def leaky(event: Any, viewer: Any) -> dict[str, Any]:
        got = real(event, viewer)
        if event.to_seat:
            got["private"] = {str(k): dict(v) for k, v in event.to_seat.items()}
        return got

    queries.project_event = feeds.project_event = leaky

    def undo() -> None:
        queries.project_event = feeds.project_event = real
    return undo


PLANTED = {"a hand in the public view": _view_leak, "private parts in the feed": _event_leak}


def planted_leak_caught(variant: str, steps: int, plant: Callable[[str], Callable[[], None]]) -> bool:
    undo = plant(variant)
    try:
        play(variant, 1, steps, resamples=1, spec_check=False)
    except AssertionError:
        return True
    finally:
        undo()
    return False


def redaction(games: int, steps: int, make_outcome: Callable[[str], Any]) -> list[Any]:
    """One Outcome per registered variant: ``games`` random games each, then the planted leaks."""
    return [redaction_oracle(v, games, steps, make_outcome(f"redaction oracle, {v}, random games of up to "
                                                           f"{steps} moves, and planted leaks"))
            for v in registry.BY_VARIANT]


@dataclasses.dataclass
class Outcome:
    """One scenario's row, as bench/faults.py reports it (its fields, handed over as JSON)."""

    scenario: str
    trials: int = 0
    ok: int = 0
    failures: list[str] = dataclasses.field(default_factory=list)
    statuses: Counter = dataclasses.field(default_factory=Counter)
    seconds: float = 0.0
    note: str = ""

    def fail(self, why: str) -> None:
        if len(self.failures) < 10:
            self.failures.append(why)


def main(argv: list[str] | None = None) -> None:
    import argparse
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="random games of each variant")
    ap.add_argument("--steps", type=int, default=120, help="moves of its humans per game at most")
    ap.add_argument("--json", action="store_true", help="one JSON list of the rows (for bench/faults.py)")
    args = ap.parse_args(argv)
    rows = redaction(args.games, args.steps, Outcome)
    if args.json:
        print(json.dumps([{**vars(r), "statuses": dict(r.statuses)} for r in rows]))
        return
    for r in rows:
        print(f"{r.scenario}: {r.ok} of {r.trials} clean, {dict(r.statuses)}, {r.seconds:.1f} s")
        for why in r.failures:
            print("FAILED", why)


if __name__ == "__main__":
    main()
