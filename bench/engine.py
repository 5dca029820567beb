"""Benchmark: random playouts of the rules, in the event engine and in the playout cores.

One playout is one whole match (create, seats, deal, every move, scoring, next deals, match end).
``meow <preset>`` drives the event engine through its public API exactly as the application
does: for every move the seat's ``legal_actions``, one uniformly random closing action,
``engine.outcome`` (decide, which hands back the events and the state they fold to). ``meow-sim <preset>`` plays the
same matches with the same policy in the playout core (``service/games/<game>/playout.py``: mutable state, no
events; what the hard bots' rollouts use), which tests/unit/sim checks move for move against
the event engine. The same run measures RLCard's UNO (``rlcard.make('uno')``,
random legal actions until the game is over) and OpenSpiel's ``crazy_eights`` (random legal
actions, chance outcomes sampled by their probabilities) when they are importable.

Engines run in alternating slices and are timed in process CPU time, so the ratios stay fair
on a busy machine. Prints figures only; never passes or fails on time.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

from service.games.engine import legal_actions, outcome, pending_work
from service.games.kernel.model import Context, CreateMatch, DealRound, FireTimer, JoinSeat, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.sakapuss.commands import PassCard, Slap
from service.games.shedding.commands import AcceptSkip, Announce, Draw, Pass, Play, TakePenalty
from service.games.shedding.options import PRESETS

SHEDDING = ("prsi", "mau-mau-classic", "mau-mau-classic-full", "prsi-traditional")
LIMITED = {"penalty_limit": 50}  # short matches: several rounds each, like a quick table
T0 = 1_700_000_000_000
SIMPLE = {"draw": Draw, "pass": Pass, "take_penalty": TakePenalty, "accept_skip": AcceptSkip,
          "announce": Announce}


def _seeds(tag: str, k: int = 4) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


POOL = [_seeds(f"pool/{i}") for i in range(64)]


def _command(seat: int, a: dict[str, Any]) -> Any:
    """The command of an action object (what the HTTP layer builds from the request body)."""
    kind = a["type"]
    if kind == "play":
        return Play(seat, a["card"], a.get("called_suit"), a.get("announce", False))
    return SIMPLE[kind](seat)


def playout(preset: str, rng: random.Random, players: int, n: int) -> int:
    """One match to the end; returns the number of seat actions (moves) taken."""
    overrides = LIMITED if PRESETS[preset]["match_end_mode"] != "single_round" else {}
    opts, _ = resolve_options(preset, overrides, 5)
    now = T0
    state: Any = None
    k = n * 1000

    def run(cmd: Any, now: int) -> None:
        nonlocal state, k
        k += 1
        state = outcome(state, cmd, Context(now, POOL[k % len(POOL)])).state

    run(CreateMatch(f"b{n}", preset, opts, 5, rules_version=RULES_VERSION), now)
    for i in range(players):
        run(JoinSeat(f"p{i}"), now)
    run(StartMatch(), now)
    moves = 0
    ctx = Context(now, POOL[n % len(POOL)])
    while state.status == "running":
        rnd = state.rnd
        phase = rnd.phase
        if phase == "scoring":
            run(ScoreRound(state.round_no), now)
            continue
        if phase == "intermission":
            now = max(now, state.intermission_deadline or now)
            run(DealRound(state.round_no + 1), now)
            ctx = Context(now, POOL[k % len(POOL)])
            continue
        seat = rnd.current
        acts = legal_actions(state, seat, now)
        closing = acts[:-1] if acts and acts[-1]["type"] == "announce" else acts  # announce is last
        if not closing:  # only an announcement is possible: let another seat's grace run out
            w = rnd.window
            if w is not None and w.seat != seat:
                now += 2000
                ctx = Context(now, POOL[k % len(POOL)])
                continue
            closing = acts
        a = closing[int(rng.random() * len(closing))]
        state = outcome(state, _command(seat, a), ctx).state
        moves += 1
    return moves


def sakapuss_playout(rng: random.Random, players: int, n: int) -> int:
    """One Sakapuss match (3 rounds) to the end: random legal actions of random seats; when no
    seat has anything to do, the next due timer, scoring or deal fires (the clock jumps to it)."""
    opts, _ = resolve_options("sakapuss", {"rounds": 3}, 5)
    now, state, k, moves = T0, None, n * 1000, 0

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        state = outcome(state, cmd, Context(now, POOL[k % len(POOL)])).state

    run(CreateMatch(f"s{n}", "sakapuss", opts, 5))
    for i in range(players):
        run(JoinSeat(f"p{i}"))
    run(StartMatch())
    seats = [s.seat for s in state.seats]
    while state.status == "running":
        options = [(s, a) for s in seats for a in legal_actions(state, s, now)
                   if a["type"] == "pass_card" or (a["type"] == "slap" and rng.random() < 0.02)]
        if options:
            seat, a = options[int(rng.random() * len(options))]
            run(PassCard(seat, a["kind"], a["step"]) if a["type"] == "pass_card" else Slap(seat, a["seen_step"]))
            moves += 1
            continue
        due = min((d for d in pending_work(state) if d.kind != "bot"), key=lambda d: d.due_at)
        now = max(now, due.due_at)
        run({"score": lambda: ScoreRound(int(due.key)), "deal": lambda: DealRound(int(due.key))}.get(
            due.kind, lambda: FireTimer(due.key))())
    return moves


def crazy_eights_playout(rng: random.Random, players: int, n: int) -> int:
    """One Crazy Eights hand on OpenSpiel's default rules (max_draw_cards 5, max_turns 100, no special
    cards, no reshuffle), random legal actions, then its scoring."""
    opts, _ = resolve_options("crazy-eights", {}, 5)
    now, state, k, moves = T0, None, n * 1000, 0

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        state = outcome(state, cmd, Context(now, POOL[k % len(POOL)])).state

    run(CreateMatch(f"c{n}", "crazy-eights", opts, 5, rules_version=RULES_VERSION))
    for i in range(players):
        run(JoinSeat(f"p{i}"))
    run(StartMatch())
    while state.rnd.phase == "play":
        seat = state.rnd.current
        acts = legal_actions(state, seat, now)
        run(_command(seat, acts[int(rng.random() * len(acts))]))
        moves += 1
    run(ScoreRound(1))
    return moves


def meow_runner(preset: str) -> Callable[[float], tuple[int, int]]:
    rng = random.Random(1)
    counter = [0]

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            if preset == "crazy-eights":
                moves += crazy_eights_playout(rng, rng.randint(2, 5), counter[0])
            elif preset == "sakapuss":
                moves += sakapuss_playout(rng, rng.randint(3, 5), counter[0])
            else:
                moves += playout(preset, rng, rng.randint(2, 5), counter[0])
            counter[0] += 1
            games += 1
        return moves, games
    return run


def sim_runner(preset: str) -> Callable[[float], tuple[int, int]]:
    """The playout core of ``preset`` with the same options and policy as ``meow_runner``."""
    rng = random.Random(1)
    if preset == "crazy-eights":
        from service.games.crazy_eights import playout as core  # type: ignore[no-redef]
        opts, _ = resolve_options("crazy-eights", {}, 5)
        low = 2
    elif preset == "sakapuss":
        from service.games.sakapuss import playout as core
        opts, _ = resolve_options("sakapuss", {"rounds": 3}, 5)
        low = 3
    else:
        from service.games.shedding import playout as core  # type: ignore[no-redef]
        opts, _ = resolve_options(preset, LIMITED if PRESETS[preset]["match_end_mode"] != "single_round" else {}, 5)
        low = 2

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            moves += core.playout(opts, rng.randint(low, 5), rng)
            games += 1
        return moves, games
    return run


def rlcard_runner() -> Callable[[float], tuple[int, int]] | None:
    try:
        import rlcard  # type: ignore
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 1})
    rng = random.Random(1)

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                state, _ = env.step(legal[int(rng.random() * len(legal))])
                moves += 1
            games += 1
        return moves, games
    return run


def openspiel_runner() -> Callable[[float], tuple[int, int]] | None:
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    # the same rules as `meow crazy-eights`: OpenSpiel's defaults, 2-5 players drawn alike
    by_players = {n: pyspiel.load_game("crazy_eights", {"players": n}) for n in range(2, 6)}
    rng = random.Random(1)

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            st = by_players[rng.randint(2, 5)].new_initial_state()
            while not st.is_terminal():
                if st.is_chance_node():
                    outcomes, probs = zip(*st.chance_outcomes())
                    st.apply_action(rng.choices(outcomes, weights=probs)[0])
                else:
                    legal = st.legal_actions()
                    st.apply_action(legal[int(rng.random() * len(legal))])
                    moves += 1
            games += 1
        return moves, games
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=12.0, help="CPU-time budget per engine")
    ap.add_argument("--slices", type=int, default=4, help="alternating slices per engine")
    ap.add_argument("--only", nargs="*", help="engine names to run (e.g. prsi uno)")
    args = ap.parse_args()
    engines: list[tuple[str, Callable[[float], tuple[int, int]] | None]] = [
        (f"meow {p}", meow_runner(p)) for p in (*SHEDDING, "sakapuss", "crazy-eights")]
    engines += [(f"meow-sim {p}", sim_runner(p)) for p in (*SHEDDING, "sakapuss", "crazy-eights")]
    engines += [("RLCard uno", rlcard_runner()), ("OpenSpiel crazy_eights", openspiel_runner())]
    if args.only:
        engines = [(n, f) for n, f in engines if any(o in n for o in args.only)]
    totals = {name: [0, 0, 0.0] for name, fn in engines if fn is not None}
    for _ in range(args.slices):
        for name, fn in engines:
            if fn is None:
                continue
            t0 = time.process_time()
            moves, games = fn(args.seconds / args.slices)
            acc = totals[name]
            acc[0] += moves
            acc[1] += games
            acc[2] += time.process_time() - t0
    uno = totals.get("RLCard uno")
    uno_rate = uno[0] / uno[2] if uno else None
    print(f"{'engine':<28}{'moves/s':>12}{'playouts/s':>12}{'x UNO':>8}{'moves':>10}{'cpu s':>8}")
    for name, fn in engines:
        if fn is None:
            print(f"{name:<28}{'not installed':>20}")
            continue
        moves, games, secs = totals[name]
        rate = moves / secs
        ratio = f"{rate / uno_rate:.2f}" if uno_rate else "-"
        print(f"{name:<28}{rate:>12,.0f}{games / secs:>12,.1f}{ratio:>8}{moves:>10}{secs:>8.1f}")
    print("moves = seat actions (legal_actions + decide with its fold for meow; legal + step for meow-sim;"
          " env.step for UNO; apply_action of a player for OpenSpiel, where an eight and its suit are two"
          " actions: compare crazy-eights by playouts/s); times are process CPU seconds")


if __name__ == "__main__":
    main()
