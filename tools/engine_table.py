"""Matches on the rules engine with no HTTP, for the bot tournament (bench/tournament.py) and the
bots' tests (tests/unit/bots): a ``Table`` drives ``decide``/``evolve`` with seeds derived from a
tag, each seat played by a policy; ``play_round`` deals and scores one round, ``play_match`` plays a
whole match."""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.games.engine import decide, evolve, seat_view
from service.games.kernel.model import Context, CreateMatch, DealRound, JoinSeat, NeedMoreSeeds, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import SEAT_ACTIONS, resolve_options

T0 = 1_700_000_000_000
Policy = Callable[..., dict[str, Any]]


def seeds(tag: str, k: int = 4) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


@dataclass
class RoundResult:
    winner_seats: tuple[int, ...]  # the seat that went out, or the lowest hands of a blocked round
    points: dict[int, int]
    reason: str
    moves: int


class Table:
    """One match of ``len(policies)`` seats driven through decide/evolve: seeds derived from
    ``seed``, seat i played by ``policies[i]`` with its own rng, time advanced per move."""

    def __init__(self, variant: str, policies: list[Policy], seed: str, overrides: dict[str, Any]) -> None:
        opts, _ = resolve_options(variant, overrides, 5)
        self.policies = policies
        self.seed = seed
        self.state: Any = None
        self.now = T0
        self.k = 0
        self.run(CreateMatch(f"t-{seed}", variant, opts, 5, rules_version=RULES_VERSION))
        for i in range(len(policies)):
            self.run(JoinSeat(f"p{i}"))
        self.run(StartMatch())
        rng_seed = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
        self.rngs = [random.Random(rng_seed + i) for i in range(len(policies))]

    def run(self, cmd: Any) -> None:
        self.k += 1
        ctx_seeds = seeds(f"{self.seed}/{self.k}")
        while True:
            try:
                evs = decide(self.state, cmd, Context(self.now, ctx_seeds))
                break
            except NeedMoreSeeds as e:
                ctx_seeds = seeds(f"{self.seed}/{self.k}", e.needed + 2)
        for ev in evs:
            self.state = evolve(self.state, ev)

    def move(self) -> bool:
        """The current seat's policy acts; False when it must wait out another seat's grace."""
        seat = self.state.rnd.current
        view = seat_view(self.state, seat, self.now)
        if not any(a["type"] != "announce" for a in view.legal_actions):
            self.now += 5000  # another seat's announcement grace: let it run out
            return False
        action = dict(self.policies[seat](view, self.rngs[seat]))
        self.run(SEAT_ACTIONS[action.pop("type")](seat=seat, **action))
        self.now += 2000
        return True


def play_round(variant: str, policies: list[Policy], seed: str,
               overrides: dict[str, Any] | None = None) -> RoundResult:
    """Deal one round with ``len(policies)`` seats; seat i plays policies[i]; score it."""
    t = Table(variant, policies, seed, {"match_end_mode": "single_round", **(overrides or {})})
    moves = 0
    while t.state.rnd.phase != "scoring":
        moves += t.move()
    rnd = t.state.rnd
    t.run(ScoreRound(t.state.round_no))
    pts = {int(s): p for s, p in t.state.scores[-1].points}
    if rnd.winner is not None:
        winners: tuple[int, ...] = (rnd.winner,)
    else:
        low = min(pts.values())
        winners = tuple(s for s, p in pts.items() if p == low)
    return RoundResult(winners, pts, rnd.end_reason or "", moves)


def play_match(variant: str, policies: list[Policy], seed: str) -> tuple[int, ...]:
    """A whole match of the preset (every round to its match end, no intermission wait);
    returns the seats ranked first (ties: all of them)."""
    t = Table(variant, policies, seed, {"round_intermission_s": 0})
    while t.state.status == "running":
        phase = t.state.rnd.phase
        if phase == "scoring":
            t.run(ScoreRound(t.state.round_no))
        elif phase == "intermission":
            t.run(DealRound(t.state.round_no + 1))
        else:
            t.move()
    return tuple(row["seat"] for row in t.state.standings if row["rank"] == 1)
