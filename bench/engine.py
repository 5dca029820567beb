"""Benchmark: random playouts of the rules, in the event engine and in the playout cores.

One playout is one whole match of a registered preset at its defaults (create, seats, deal, every
move, scoring, next deals, match end). ``meow <preset>`` drives the event engine through its public
API exactly as the application does: every seat's ``legal_actions``, one uniformly random action,
``engine.outcome`` (decide, which hands back the events and the state they fold to), and the due
follow-ups as the workers send them. ``meow-sim <preset>`` plays matches of the same options in the
game's playout core (``Game.playout``: mutable state, no events; what the hard bots' rollouts use,
with its own random policy), which tests/unit/sim checks move for move against the event engine.
Nothing here names a game: every preset of the registry is run. The same run measures RLCard's UNO (``rlcard.make('uno')``
with 2-4 players drawn alike, as ``meow uno-rlcard`` plays the same rules; random legal actions until the game
is over) and OpenSpiel's ``crazy_eights`` (random legal actions, chance outcomes sampled by their probabilities)
when they are importable.

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

from service.games import registry
from service.games.engine import legal_actions, outcome, pending_work
from service.games.kernel.due import Kind
from service.games.kernel.model import Context, CreateMatch, DealRound, FireTimer, JoinSeat, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION

T0 = 1_700_000_000_000
MAX_SEATS = 5


def _seeds(tag: str, k: int = 4) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


POOL = [_seeds(f"pool/{i}") for i in range(64)]


def _command(seat: int, a: dict[str, Any]) -> Any:
    """The command of an action object (what the HTTP layer builds from the request body)."""
    fields = dict(a)
    return _SEAT_ACTIONS[fields.pop("type")](seat=seat, **fields)


_SEAT_ACTIONS = registry.SEAT_ACTIONS


def _follow_up(kind: Kind, key: str) -> Any:
    """The command a due follow-up sends (what the workers send)."""
    if kind is Kind.SCORE:
        return ScoreRound(int(key))
    if kind is Kind.DEAL:
        return DealRound(int(key))
    return FireTimer(key)


def players_of(preset: str) -> tuple[int, int]:
    """The seat counts a preset's default table takes (at most MAX_SEATS)."""
    d = registry.preset_defaults(preset)
    return d["min_players"], min(MAX_SEATS, d["max_players"])


def playout(preset: str, rng: random.Random, players: int, n: int) -> int:
    """One bots-only match of ``preset`` (its defaults) to the end; returns the number of seat
    actions (moves) taken. Among the legal actions of the seats a bot move is due for
    (``pending_work``) one uniformly at random; when none is due, the next due follow-up (timer,
    scoring, deal) fires and the clock jumps to it."""
    seats = players_of(preset)[1]
    opts, _ = registry.resolve_options(preset, {}, seats)
    now, state, k, moves = T0, None, n * 1000, 0

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        state = outcome(state, cmd, Context(now, POOL[k % len(POOL)])).state

    run(CreateMatch(f"b{n}", preset, opts, seats, rules_version=RULES_VERSION))
    for i in range(players):
        run(JoinSeat(f"p{i}", kind="bot", strength="easy"))
    run(StartMatch())
    bot, pool, size = Kind.BOT, POOL, len(POOL)
    while state.status == "running":  # the loop of run() inlined: the harness is not what is measured
        due = pending_work(state)
        movers: list[int] = []
        for d in due:
            s = d.seat
            if d.kind is bot and s is not None and s not in movers:
                movers.append(s)
        if len(movers) > 1:
            movers.sort()
        options = [(s, a) for s in movers for a in legal_actions(state, s, now)]
        if options:
            seat, a = options[int(rng.random() * len(options))]
            k += 1
            state = outcome(state, _command(seat, a), Context(now, pool[k % size])).state
            moves += 1
            continue
        nxt = min((d for d in due if d.kind != "bot"), key=lambda d: d.due_at)
        now = max(now, nxt.due_at)
        run(_follow_up(nxt.kind, nxt.key))
    return moves


def meow_runner(preset: str) -> Callable[[float], tuple[int, int]]:
    rng = random.Random(1)
    counter = [0]
    low, high = players_of(preset)

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            moves += playout(preset, rng, rng.randint(low, high), counter[0])
            counter[0] += 1
            games += 1
        return moves, games
    return run


def sim_runner(preset: str) -> Callable[[float], tuple[int, int]] | None:
    """The playout core of ``preset``'s game (its own random policy) with the same options as
    ``meow_runner``; None for a game without one."""
    rng = random.Random(1)
    core = registry.for_variant(preset).playout
    if core is None:
        return None
    low, high = players_of(preset)
    opts, _ = registry.resolve_options(preset, {}, high)

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            moves += core.playout(opts, rng.randint(low, high), rng)
            games += 1
        return moves, games
    return run


def rlcard_runner() -> Callable[[float], tuple[int, int]] | None:
    try:
        import rlcard  # type: ignore
    except ImportError:
        return None
    # RLCard's uno with 2-4 players drawn alike, as `meow uno-rlcard` at its defaults (the same rules)
    envs = {n: rlcard.make("uno", config={"seed": 1, "game_num_players": n}) for n in range(2, 5)}
    rng = random.Random(1)

    def run(budget: float) -> tuple[int, int]:
        t0 = time.process_time()
        moves = games = 0
        while time.process_time() - t0 < budget:
            env = envs[rng.randint(2, 4)]
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
        (f"meow {p}", meow_runner(p)) for p in registry.BY_VARIANT]
    engines += [(f"meow-sim {p}", sim_runner(p)) for p in registry.BY_VARIANT]
    engines += [("RLCard uno", rlcard_runner()), ("OpenSpiel crazy_eights", openspiel_runner())]
    if args.only:
        engines = [(n, f) for n, f in engines if any(o in n for o in args.only)]
    totals = {name: [0, 0, 0.0] for name, fn in engines if fn is not None}
    slices: dict[str, list[float]] = {name: [] for name in totals}  # moves per CPU-second, slice by slice
    for _ in range(args.slices):
        for name, fn in engines:
            if fn is None:
                continue
            t0 = time.process_time()
            moves, games = fn(args.seconds / args.slices)
            secs = time.process_time() - t0
            acc = totals[name]
            acc[0] += moves
            acc[1] += games
            acc[2] += secs
            slices[name].append(moves / secs)
    uno = totals.get("RLCard uno")
    uno_rate = uno[0] / uno[2] if uno else None
    print(f"{'engine':<28}{'moves/s':>12}{'playouts/s':>12}{'x UNO':>8}{'spread':>12}{'moves':>10}{'cpu s':>8}")
    for name, fn in engines:
        if fn is None:
            print(f"{name:<28}{'not installed':>20}")
            continue
        moves, games, secs = totals[name]
        rate = moves / secs
        ratio = f"{rate / uno_rate:.2f}" if uno_rate else "-"
        spread = "-"
        if uno_rate:  # the ratio slice by slice: each slice against RLCard's slice of the same round
            per = [a / b for a, b in zip(slices[name], slices["RLCard uno"])]
            spread = f"{min(per):.2f}-{max(per):.2f}"
        print(f"{name:<28}{rate:>12,.0f}{games / secs:>12,.1f}{ratio:>8}{spread:>12}{moves:>10}{secs:>8.1f}")
    print("moves = seat actions (pending_work + legal_actions + decide with its fold for meow; legal + step for meow-sim;"
          " env.step for UNO; apply_action of a player for OpenSpiel, where an eight and its suit are two"
          " actions: compare crazy-eights by playouts/s); times are process CPU seconds; spread = the lowest"
          " and highest ratio to RLCard's UNO over the rounds of alternating slices")


if __name__ == "__main__":
    main()
