"""Sakapuss bot ladder on the rules engine (no HTTP): whose pass planning completes a set first.

A *game* is one Sakapuss round of ``players`` seats played through ``decide``/``evolve``: every
pass step, each seat's policy gets its own ``seat_view`` (hand, legal actions and its own pass
log, as a human in the seat sees them) and submits a pass; the step resolves in one event. The
game is won by the seat(s) whose hand is complete first (ties split). Slap speed is left out on
purpose (it is the reaction-time table of RULES §7.5, not skill), so this measures the passing
policy. Seat 0 plays the strength under test, the others ``medium``; every deal is played once
with each tested strength at seat 0, so the strengths are compared on the same deals.

Prints figures only; never fails on timing.

    python -m bench.sakapuss_ladder --games 300
"""
from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

from bench.tournament import wilson
from service.games.engine import decide, evolve, seat_view
from service.games.kernel.model import Context, CreateMatch, JoinSeat, StartMatch
from service.games.registry import resolve_options
from service.games.sakapuss.commands import PassCard
from service.games.sakapuss.state import complete

T0 = 1_700_000_000_000
MAX_STEPS = 60
Policy = Callable[..., dict[str, Any]]


def policy(strength: str) -> Policy:
    if strength == "easy":
        from service.games.sakapuss.bots.easy import choose
    elif strength == "medium":
        from service.games.sakapuss.bots.medium import choose
    else:
        from service.games.sakapuss.bots.hard import choose
    return choose


def play_round(policies: list[Policy], seed: str) -> tuple[int, ...]:
    """One round through the engine; the seats complete first (empty if none within MAX_STEPS)."""
    n = len(policies)
    opts, _ = resolve_options("sakapuss", {"rounds": 1}, 5)
    state: Any = None
    k = 0

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        seeds = tuple(hashlib.sha256(f"{seed}/{k}/{i}".encode()).digest() for i in range(4))
        for ev in decide(state, cmd, Context(T0, seeds)):
            state = evolve(state, ev)

    run(CreateMatch(f"l-{seed}", "sakapuss", opts, 5))
    for i in range(n):
        run(JoinSeat(f"p{i}"))
    run(StartMatch())
    rngs = [random.Random(f"{seed}/bot/{i}") for i in range(n)]
    for _ in range(MAX_STEPS):
        rnd = state.rnd
        done = tuple(s for s in rnd.seats if complete(rnd.hands[s]))
        if done:
            return done
        step = rnd.step
        for s in rnd.seats:
            view = seat_view(state, s, T0)
            passes = [a for a in view.legal_actions if a["type"] == "pass_card"]
            a = policies[s](view, rngs[s])
            if a["type"] != "pass_card":  # a slap (a race or its own set): pass the medium way
                a = passes[0]
            run(PassCard(s, a["kind"], step))
    return ()


def ladder(players: int, strengths: list[str], games: int, tag: str = "sak") -> dict[str, tuple[float, int, float]]:
    """Seat-0 completes-first share per strength on the same deals, and seconds per game."""
    base = policy("medium")
    out: dict[str, tuple[float, int, float]] = {}
    for name in strengths:
        wins = 0.0
        t0 = time.perf_counter()
        for g in range(games):
            done = play_round([policy(name)] + [base] * (players - 1), f"{tag}/{players}/{g}")
            if 0 in done:
                wins += 1 / len(done)
        out[name] = (wins, games, (time.perf_counter() - t0) / games)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--strengths", default="easy,medium,hard")
    args = ap.parse_args(argv)
    print("seat 0 plays the strength, the others medium; the same deals for every strength;"
          " a fair share is 1/players")
    for players in (int(p) for p in args.players.split(",")):
        for name, (wins, n, secs) in ladder(players, args.strengths.split(","), args.games).items():
            lo, hi = wilson(wins, n)
            print(f"sakapuss {players}p seat 0 {name:<6} completes first {wins / n:6.1%} [{lo:.1%}, {hi:.1%}]"
                  f"  games {n}  {secs * 1000:6.1f} ms/game", flush=True)


if __name__ == "__main__":
    main()
