"""Benchmark: random playouts of the prsi engine (legal_actions + decide + evolve per move).

Also measures RLCard UNO and OpenSpiel crazy_eights random playouts when those are importable.
Prints figures only; never passes or fails on time.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import time
from typing import Any, Callable

from service.rules.engine import decide, evolve, legal_actions, pending_work
from service.rules.model import (SEAT_ACTIONS, Context, CreateMatch, DealRound, JoinSeat, ScoreRound,
                                 StartMatch)
from service.rules.options import resolve_options


def _seeds(tag: str, k: int = 4) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


POOL = [_seeds(f"pool/{i}") for i in range(64)]


def _apply(state: Any, evs: tuple) -> Any:
    for ev in evs:
        state = evolve(state, ev)
    return state


def prsi_playout(rng: random.Random, players: int, n: int) -> int:
    """One match to the end; returns the number of seat actions taken."""
    opts, _ = resolve_options("prsi", {"penalty_limit": 50}, 5)
    now = 1_700_000_000_000
    state = None
    k = 0

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        state = _apply(state, decide(state, cmd, Context(now, POOL[k % len(POOL)])))

    run(CreateMatch(f"b{n}", "prsi", opts, 5))
    for i in range(players):
        run(JoinSeat(f"p{i}"))
    run(StartMatch())
    moves = 0
    while state.status == "running":
        rnd = state.rnd
        if rnd.phase == "scoring":
            run(ScoreRound(state.round_no))
            continue
        if rnd.phase == "intermission":
            run(DealRound(state.round_no + 1))
            continue
        seat = rnd.current
        acts = legal_actions(state, seat, now)
        closing = [a for a in acts if a["type"] != "announce"]
        if not closing:
            w = rnd.window
            if w is not None and w.seat != seat:
                now += 2000
                continue
            closing = acts
        a = dict(rng.choice(closing))
        run(SEAT_ACTIONS[a.pop("type")](seat=seat, **a))
        moves += 1
        now += 10
    return moves


def bench_prsi(seconds: float) -> tuple[int, float]:
    rng = random.Random(1)
    t0 = time.perf_counter()
    moves = 0
    n = 0
    while time.perf_counter() - t0 < seconds:
        moves += prsi_playout(rng, rng.randint(2, 5), n)
        n += 1
    return moves, time.perf_counter() - t0


def bench_rlcard(seconds: float) -> tuple[int, float] | None:
    try:
        import rlcard  # type: ignore
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 1})
    rng = random.Random(1)
    t0 = time.perf_counter()
    moves = 0
    while time.perf_counter() - t0 < seconds:
        state, _ = env.reset()
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"].keys()))
            state, _ = env.step(action)
            moves += 1
    return moves, time.perf_counter() - t0


def bench_openspiel(seconds: float) -> tuple[int, float] | None:
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights")
    rng = random.Random(1)
    t0 = time.perf_counter()
    moves = 0
    while time.perf_counter() - t0 < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(rng.choice(outcomes)[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
                moves += 1
    return moves, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=15.0, help="time budget per engine")
    args = ap.parse_args()
    rows: list[tuple[str, Callable[[float], Any]]] = [
        ("meow prsi (legal_actions+decide+evolve)", bench_prsi),
        ("RLCard uno (env.step)", bench_rlcard),
        ("OpenSpiel crazy_eights (apply_action)", bench_openspiel),
    ]
    results: dict[str, float] = {}
    print(f"{'engine':<44}{'moves':>10}{'seconds':>10}{'moves/s':>12}")
    for name, fn in rows:
        res = fn(args.seconds)
        if res is None:
            print(f"{name:<44}{'not installed':>32}")
            continue
        moves, secs = res
        results[name] = moves / secs
        print(f"{name:<44}{moves:>10}{secs:>10.1f}{moves / secs:>12,.0f}")
    base = results.get(rows[0][0])
    for name, mps in results.items():
        if base and name != rows[0][0]:
            print(f"ratio meow / {name.split(' (')[0]}: {base / mps:.2f}")


if __name__ == "__main__":
    main()
