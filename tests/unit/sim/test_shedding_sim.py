"""The shedding playout core against the event engine, move for move (service/games/shedding/playout.py).

Each match is driven through ``decide``/``evolve`` and the sim together: the sim gets the
engine's recorded shuffles and first dealer; after every command both must list the same legal
actions for every seat and hold the same state (stock order, discard, hands, turn, phase and every
pending effect, the announcement window, the public draw inference, totals, eliminations, status).
"""
from __future__ import annotations

import collections
import hashlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from service.games.engine import decide, evolve, legal_actions
from service.games.kernel.catch import Challenge
from service.games.kernel.model import Context, CreateMatch, DealRound, JoinSeat, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.shedding import playout as shedding
from service.games.shedding.commands import AcceptSkip, Announce, Draw, Pass, Play, TakePenalty
from service.games.shedding.game import GAME as SHEDDING_GAME
from service.games.shedding.playout import SheddingSim, action_of, command_tuple
from tests.unit.rules.test_playout import option_mixes

SHEDDING = SHEDDING_GAME.variants  # every preset the shedding games serve
SIMPLE = {"draw": Draw, "pass": Pass, "take_penalty": TakePenalty, "accept_skip": AcceptSkip,
          "announce": Announce}


class RecordedChance:
    """Feeds the sim exactly what the engine drew: its shuffles in order and its first dealer."""

    def __init__(self) -> None:
        self.orders: collections.deque[tuple[str, list[str]]] = collections.deque()
        self.dealer: int | None = None

    def record(self, events: Any) -> None:
        for e in events:
            if e.type == "ShuffleCommitted":
                self.orders.append((e.data["what"], list(e.secret["order"])))
            elif e.type == "RoundStarted" and self.dealer is None:
                self.dealer = e.data["dealer"]

    def shuffle(self, what: str, cards: Any) -> list[str]:
        got_what, order = self.orders.popleft()
        assert got_what == what and sorted(order) == sorted(cards), (what, got_what)
        return order

    def first_dealer(self, active: tuple[int, ...]) -> int:
        assert self.dealer in active
        return self.dealer


class Pair:
    """One match in the event engine and in the sim."""

    def __init__(self, preset: str, overrides: dict[str, Any], players: int, max_players: int, tag: str) -> None:
        self.opts, _ = resolve_options(preset, overrides, max_players)
        self.now = 1_700_000_000_000
        self.k = 0
        self.tag = tag
        self.m: Any = None
        self.chance = RecordedChance()
        self.run(CreateMatch(tag, preset, self.opts, max_players, rules_version=RULES_VERSION))
        for i in range(players):
            self.run(JoinSeat(f"p{i}", creator=i == 0))
        self.run(StartMatch())
        self.sim = SheddingSim(self.opts, players, self.chance)
        self.sim.deal()

    def run(self, cmd: Any) -> None:
        self.k += 1
        self.now += 10_000  # past every announcement grace: the sim has no clock
        seeds = tuple(hashlib.sha256(f"{self.tag}/{self.k}/{i}".encode()).digest() for i in range(4))
        events = decide(self.m, cmd, Context(self.now, seeds))
        self.chance.record(events)
        for e in events:
            self.m = evolve(self.m, e)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return legal_actions(self.m, seat, self.now + 10_000)

    def check(self) -> None:
        m, sim = self.m, self.sim
        assert (m.status, m.round_no, m.dealer) == (sim.status, sim.round_no, sim.dealer)
        assert [(s.state, s.total) for s in m.seats] == [(s.state, s.total) for s in sim.seats]
        r = m.rnd
        w = None if r.window is None else (r.window.seat, r.window.satisfied, r.window.challengers)
        sw = None if sim.win_seat is None else (sim.win_seat, sim.win_sat, sim.win_challengers)
        assert list(r.stock) == sim.stock_top_first()
        assert list(r.discard) == sim.discard
        assert [list(h) for h in r.hands] == sim.hands
        engine = (r.current, r.direction, r.phase, r.turn_id, r.called_suit, r.top_live, r.pending_draw,
                  r.pending_skip, r.drawn_card, r.draws_this_turn, r.blocked_passes, w, r.armed, r.winner,
                  r.end_reason, r.end_cause, r.last_card, r.drew_on)
        mine = (sim.current, sim.direction, sim.phase, sim.turn_id, sim.called_suit, sim.top_live,
                sim.pending_draw, sim.pending_skip, sim.drawn_card, sim.draws_this_turn, sim.blocked_passes,
                sw, sim.armed, sim.winner, sim.end_reason_round, sim.end_cause, sim.last_card, sim.drew_on)
        assert engine == mine
        for seat in range(len(m.seats)):
            assert [action_of(a) for a in sim.legal(seat)] == self.legal(seat), seat

    def play(self, rng: random.Random, max_moves: int = 3000) -> int:
        moves = 0
        self.check()
        while self.m.status == "running" and moves < max_moves:
            phase = self.m.rnd.phase
            if phase == "scoring":
                self.run(ScoreRound(self.m.round_no))
                self.sim.score()
            elif phase == "intermission":
                self.run(DealRound(self.m.round_no + 1))
                self.sim.deal()
            else:
                seat, a = self.pick(rng)
                cmd = (Play(seat, a["card"], a.get("called_suit"), a.get("announce", False))
                       if a["type"] == "play" else Challenge(seat, a["target"]) if a["type"] == "challenge"
                       else SIMPLE[a["type"]](seat))
                self.run(cmd)
                self.sim.step(seat, command_tuple(a))
                moves += 1
            self.check()
        assert not self.chance.orders  # every shuffle of the engine was one of the sim's
        return moves

    def pick(self, rng: random.Random) -> tuple[int, dict[str, Any]]:
        """Mostly the current seat's actions; sometimes any seat's (announcements, arming)."""
        cur = self.m.rnd.current
        if rng.random() < 0.15:
            options = [(s, a) for s in range(len(self.m.seats)) for a in self.legal(s)]
        else:
            options = [(cur, a) for a in self.legal(cur)]
        return options[int(rng.random() * len(options))]


@pytest.mark.parametrize("preset", SHEDDING)
@pytest.mark.deep
def test_the_sim_plays_every_preset_like_the_engine(preset):
    moves = 0
    for n in range(12):
        rng = random.Random(f"{preset}/{n}")
        over = {} if preset == "mau-mau-classic" else {"penalty_limit": 60}
        pair = Pair(preset, {**over, "round_intermission_s": 0}, 2 + n % 4, 5, f"{preset}/{n}")
        moves += pair.play(rng)
    assert moves > 1000


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mix=option_mixes(), seed=st.integers(0, 2**16))
@pytest.mark.deep
def test_the_sim_plays_option_mixes_like_the_engine(mix, seed):
    preset, overrides, max_players = mix
    rng = random.Random(seed)
    pair = Pair(preset, overrides, rng.randint(2, max_players), max_players, f"mix/{seed}")
    pair.play(rng)


class RebuildingPair(Pair):
    """After some checks, the sim is thrown away and rebuilt from the engine's state."""

    rng = random.Random(0)
    rebuilt = 0

    def check(self) -> None:
        super().check()
        if self.m.status == "running" and self.rng.random() < 0.05:
            self.sim = SheddingSim.from_match(self.m, self.chance)
            RebuildingPair.rebuilt += 1
            super().check()


def test_a_sim_built_from_an_engine_state_plays_on_like_the_engine():
    """``from_match`` (how a bot turns a determinization into a sim) at random points of play."""
    RebuildingPair.rebuilt = 0
    for n in range(8):
        preset = "prsi" if n % 2 else "mau-mau-classic-full"
        pair = RebuildingPair(preset, {"round_intermission_s": 0, "penalty_limit": 60}, 2 + n % 3, 5, f"from/{n}")
        pair.play(random.Random(f"from/{n}"))
    assert RebuildingPair.rebuilt > 20


def test_the_differential_check_catches_a_wrong_rule(monkeypatch):
    """A sim that forgets the skip of an eight must be caught by the comparison."""
    real = SheddingSim._play

    def forgetful(self, seat, card, suit, flag):
        real(self, seat, card, suit, flag)
        self.pending_skip = False
    monkeypatch.setattr(SheddingSim, "_play", forgetful)
    with pytest.raises(AssertionError):
        for n in range(20):
            Pair("prsi", {"round_intermission_s": 0}, 3, 5, f"wrong/{n}").play(random.Random(n))


@pytest.mark.parametrize("preset", SHEDDING)
def test_fast_playouts_conserve_cards_and_end(preset):
    opts, _ = resolve_options(preset, {} if preset == "mau-mau-classic" else {"penalty_limit": 50}, 5)
    size = len(opts["deck_ranks"]) * 4 * opts["deck_copies"]
    rng = random.Random(preset)
    for n in range(20):
        sim = SheddingSim(opts, 2 + n % 4, shedding.RngChance(rng))
        while sim.status == "running":
            if sim.phase == "scoring":
                sim.score()
            elif sim.phase in ("intermission", "dealing"):
                sim.deal()
            else:
                acts = sim.legal(sim.current)
                sim.step(sim.current, acts[int(rng.random() * len(acts))])
            if sim.phase not in ("intermission", "dealing"):
                assert len(sim.stock) + len(sim.discard) + sum(map(len, sim.hands)) == size
        assert sim.round_no >= 1 and sim.end_reason is not None
    assert shedding.playout(opts, 3, random.Random(1)) > 0


class CatchingPair(Pair):
    """Challenge mode (§3.8.4): the other seats' catches, right and wrong, are picked often."""

    caught = 0

    def run(self, cmd: Any) -> None:
        CatchingPair.caught += isinstance(cmd, Challenge)
        super().run(cmd)

    def pick(self, rng: random.Random) -> tuple[int, dict[str, Any]]:
        catches = [(s, a) for s in range(len(self.m.seats)) for a in self.legal(s) if a["type"] == "challenge"]
        if catches and rng.random() < 0.5:
            return catches[int(rng.random() * len(catches))]
        return super().pick(rng)


@pytest.mark.parametrize("preset", SHEDDING)
def test_the_sim_plays_the_challenge_mode_like_the_engine(preset):
    CatchingPair.caught = 0
    for n in range(4):
        over = {"announce_penalty_requires_challenge": True, "false_challenge_penalty_cards": n % 3,
                "round_intermission_s": 0, "penalty_limit": 60, "easy_bot_forget_announce_p": 0.0}
        pair = CatchingPair(preset, over, 2 + n % 3, 5, f"catch/{preset}/{n}")
        pair.play(random.Random(f"catch/{preset}/{n}"), max_moves=600)
    assert CatchingPair.caught > 5


def test_the_differential_check_catches_a_sim_that_forgets_the_catch_penalty(monkeypatch):
    real = SheddingSim._challenge

    def lenient(self, seat, target):
        sat = self.win_sat
        self.win_sat = True  # judges every catch wrong
        real(self, seat, target)
        if self.win_seat is not None:
            self.win_sat = sat
    monkeypatch.setattr(SheddingSim, "_challenge", lenient)
    with pytest.raises(AssertionError):
        for n in range(10):
            CatchingPair("prsi", {"announce_penalty_requires_challenge": True, "round_intermission_s": 0}, 3, 5,
                         f"lenient/{n}").play(random.Random(n), max_moves=400)
