"""Differential playouts: the Sakapuss playout core against the event engine, move for move.

Each match is driven through ``engine.decide``/``evolve`` (as the application does) and through
``service.games.sakapuss.playout`` with the same actions. The random outcomes the engine recorded (its
shuffles' orders, the dealer and cat kinds, auto-passed cards, the ``one_random`` pick) are
fed to the sim as the Fisher-Yates indices and choices it draws. After every command both
must offer every seat the same legal actions and agree on the state's projection.
"""
from __future__ import annotations

import hashlib
import random
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from service.games.engine import decide, evolve, legal_actions, pending_work
from service.games.kernel.model import Context, CreateMatch, DealRound, FireTimer, JoinSeat, ScoreRound, StartMatch
from service.games.registry import resolve_options
from service.games.sakapuss.commands import PassCard, Slap
from service.games.sakapuss.flow import chance_deck_cards
from service.games.sakapuss.playout import PARASITE, PHASES, RACE, SLAP, Sakapuss, fisher_yates, play_random, playout
from service.games.sakapuss.state import complete

T0 = 1_700_000_000_000
SEEDS = 20  # matches per (seats, option mix): 3 x 6 x 20 = 360
SHORT = {"rounds": 2, "max_pass_steps_per_round": 20}
MIXES: dict[str, dict[str, Any]] = {
    "defaults": {},
    "both-penalties": {"false_slap_mode": "both_penalties_end_round", "non_slappers_policy": "one_random",
                       "tie_break": "fewer_parasite_cards"},
    "right-strict": {"pass_direction": "right", "slap_grace_steps": 0, "allow_slap_before_first_pass": False,
                     "kinds_selection": "random_per_round", "rounds": 3},
    "tiny-deck": {"parasite_kinds": ["lice"], "parasite_cards": {"lice": [1, 5]}, "insecticides_per_kind": 0,
                  "shower_cards": 0, "last_slapper_draws": 2, "false_slap_draws": 3},
    "wet": {"shower_cards": 2, "insecticides_per_kind": 4, "false_slap_draws": 0, "last_slapper_draws": 0,
            "non_slappers_policy": "one_random"},
    "odd-cards": {"parasite_kinds": ["lice", "ticks"], "parasite_cards": {"lice": [1, 1, 4], "ticks": [2, 7]},
                  "insecticides_per_kind": 3, "false_slap_draws": 5, "max_pass_steps_per_round": 25},
}


def fy_draws(initial: Sequence[Any], target: Sequence[Any]) -> list[int]:
    """The Fisher-Yates indices (i = n-1 .. 1) that turn ``initial`` into ``target``."""
    a = list(initial)
    out = []
    for i in range(len(a) - 1, 0, -1):
        j = a.index(target[i], 0, i + 1)
        a[i], a[j] = a[j], a[i]
        out.append(j)
    assert a == list(target)
    return out


class Feed:
    """``rand`` for the sim: hands out the engine's recorded outcomes in order."""

    def __init__(self) -> None:
        self.queue: deque[int] = deque()

    def __call__(self, n: int) -> int:
        assert self.queue, "the sim draws a random outcome the engine did not"
        v = self.queue.popleft()
        assert 0 <= v < n
        return v


def recorded_outcomes(before: Any, events: Sequence[Any], opts: dict[str, Any], n: int) -> list[int]:
    """The engine's random outcomes of one command, as the sim would draw them."""
    out: list[int] = []
    kinds = before.kinds if before is not None else ()
    for e in events:
        d = e.data
        if e.type == "RoundStarted":
            kinds = tuple(d["kinds"])
            if d["round"] == 1:
                out.append(d["active_seats"].index(d["dealer"]))
            if d["round"] == 1 or opts["kinds_selection"] == "random_per_round":
                every = [f"k{i}" for i in range(opts["cat_kinds_total"])]
                out += fy_draws(every, list(kinds) + [k for k in every if k not in kinds])
        elif e.type == "ShuffleCommitted" and d["what"] == "chance_deck":
            out += fy_draws(list(chance_deck_cards(opts)), e.secret["order"])
        elif e.type == "ShuffleCommitted" and d["what"] == "cats":
            out += fy_draws([f"cat:{k}" for k in kinds for _ in range(4)], e.secret["order"])
        elif e.type == "PassSubmitted" and d.get("auto"):
            seat = d["seat"]
            out.append(before.rnd.hands[seat].index(e.to_seat[seat]["kind"]))
        elif e.type == "RaceResolved" and opts["non_slappers_policy"] == "one_random":
            picked = [x["seat"] for x in d["draws"] if x["reason"] == "non_slapper"]
            if picked:
                race = before.rnd.race
                first = race.slaps[0]
                late = [(first + j) % n for j in range(1, n) if (first + j) % n not in race.slaps]
                out.append(late.index(picked[0]))
    return out


def engine_projection(m: Any, n: int) -> dict[str, Any]:
    rnd = m.rnd
    racing = rnd.phase == "slap_race"
    return {
        "status": m.status, "phase": "finished" if m.status == "finished" else rnd.phase,
        "round": m.round_no, "dealer": m.dealer, "kinds": m.kinds, "deck": tuple(m.chance_deck),
        "parasites": [tuple(m.parasites.get(s, ())) for s in range(n)], "totals": [s.total for s in m.seats],
        "hands": [tuple(rnd.hands[s]) for s in range(n)], "passes": dict(rnd.passes),
        "resolved": rnd.resolved, "voided": rnd.voided, "races": rnd.races,
        "race": (tuple(rnd.race.slaps), rnd.race.first_seen_step) if racing else None,
        "end": (rnd.end_reason, rnd.winner),
        "standings": [(x["seat"], x["rank"], x["total"]) for x in m.standings] or None,
    }


def sim_projection(g: Sakapuss) -> dict[str, Any]:
    return {
        "status": g.status, "phase": PHASES[g.phase], "round": g.round_no, "dealer": g.dealer,
        "kinds": g.kinds, "deck": tuple(g.cards[c] for c in g.deck),
        "parasites": [tuple(g.cards[c] for c in mine) for mine in g.parasites], "totals": list(g.totals),
        "hands": [g.hand(s) for s in range(g.n)],
        "passes": {s: g.kinds[k] for s, k in enumerate(g.passes) if k >= 0},
        "resolved": g.resolved, "voided": g.voided, "races": g.races,
        "race": (tuple(g.slaps), g.first_seen) if g.phase == RACE else None,
        "end": (g.end_reason, g.winner),
        "standings": g.standings() if g.status == "finished" else None,
    }


class Duel:
    """One match played by the engine and the sim side by side."""

    def __init__(self, n: int, overrides: dict[str, Any], tag: str, make: Callable[..., Sakapuss]) -> None:
        self.n, self.tag, self.k = n, tag, 0
        self.opts, _ = resolve_options("sakapuss", {**SHORT, **overrides}, n)
        self.now = T0
        self.state: Any = None
        self.events: list[Any] = []
        self.feed = Feed()
        self.sim = make(n, self.opts, self.feed)
        self.run(CreateMatch(tag, "sakapuss", self.opts, n), None)
        for i in range(n):
            self.run(JoinSeat(f"p{i}"), None)
        self.run(StartMatch(), self.sim.start)

    def run(self, cmd: Any, step: Callable[[], None] | None) -> None:
        self.k += 1
        seeds = tuple(hashlib.sha256(f"{self.tag}/{self.k}/{i}".encode()).digest() for i in range(4))
        before = self.state
        events = decide(before, cmd, Context(self.now, seeds))
        for e in events:
            self.state = evolve(self.state, e)
        self.events.extend(events)
        if step is None:
            return
        self.feed.queue.extend(recorded_outcomes(before, events, self.opts, self.n))
        step()
        assert not self.feed.queue, f"the sim left engine outcomes unused after {cmd}"
        self.check(cmd)

    def check(self, cmd: Any) -> None:
        g = self.sim
        for s in range(self.n):
            want = legal_actions(self.state, s, self.now)
            got = [g.as_dict(a) for a in g.legal(s)]
            assert got == want, f"legal actions of seat {s} after {cmd}"
        assert sim_projection(g) == engine_projection(self.state, self.n), f"state after {cmd}"

    def fire_due(self) -> None:
        """The next due follow-up (step or race timer, scoring, deal) at its due time."""
        due = min((d for d in pending_work(self.state) if d.kind != "bot"), key=lambda d: d.due_at)
        self.now = max(self.now, due.due_at)
        cmd = {"score": lambda: ScoreRound(int(due.key)), "deal": lambda: DealRound(int(due.key))}.get(
            due.kind, lambda: FireTimer(due.key))()
        expected = {"passing": "pass-", "slap_race": "race-", "scoring": "score", "intermission": "deal"}
        assert (due.key if due.kind == "timer" else due.kind).startswith(expected[PHASES[self.sim.phase]])
        self.run(cmd, self.sim.advance)

    def pass_card(self, seat: int, kind: str) -> None:
        slot = self.sim.kinds.index(kind)
        self.run(PassCard(seat, kind, self.state.rnd.step), lambda: self.sim.act(seat, slot))

    def slap(self, seat: int, seen: int) -> None:
        self.run(Slap(seat, seen), lambda: self.sim.slap(seat, seen))


def may_time_out(m: Any) -> bool:
    """A pass timeout that would mark a seat absent (§2.7) is left out: absences are out of scope."""
    limit = int(m.options["max_consecutive_timeouts"])
    return all(m.seats[s].timeouts + 1 < limit for s in m.rnd.seats if s not in m.rnd.passes)


def play_passing(d: Duel, rng: random.Random) -> None:
    """Collectors that mostly pass their rarest kind, slap on a set (sometimes a step late, for
    the grace), now and then slap falsely or let the step time out."""
    m = d.state
    rnd = m.rnd
    r = rnd.resolved
    can_slap = r > 0 or m.options["allow_slap_before_first_pass"]
    if can_slap:
        for s in rnd.seats:
            if complete(rnd.hands[s]) and rng.random() < 0.25:
                return d.slap(s, r)
            if r and rnd.prev_hands and complete(rnd.prev_hands[s]) and rng.random() < 0.5:
                return d.slap(s, r - 1)
        if rng.random() < 0.03:
            return d.slap(rng.randrange(d.n), r - rng.randrange(2) if r else 0)
    if rng.random() < 0.04 and may_time_out(m):
        return d.fire_due()
    waiting = [s for s in rnd.seats if s not in rnd.passes]
    seat = rng.choice(waiting)
    counts = Counter(rnd.hands[seat])
    kind = min(counts, key=lambda k: (counts[k], k)) if rng.random() < 0.7 else rng.choice(sorted(counts))
    d.pass_card(seat, kind)


def play_race(d: Duel, rng: random.Random) -> None:
    """Seats slap in a random order until the window closes; a repeated slap is a no-op."""
    rnd = d.state.rnd
    if rng.random() < 0.3:
        return d.fire_due()
    r = rnd.resolved
    seat = rng.randrange(d.n)
    d.slap(seat, r - rng.randrange(2) if r else 0)


def duel(n: int, mix: str, seed: int, make: Callable[..., Sakapuss] = Sakapuss) -> Duel:
    rng = random.Random(f"{mix}/{n}/{seed}")
    d = Duel(n, MIXES[mix], f"duel/{mix}/{n}/{seed}", make)
    while d.state.status == "running":
        phase = d.state.rnd.phase
        if phase == "passing":
            play_passing(d, rng)
        elif phase == "slap_race":
            play_race(d, rng)
        else:
            d.fire_due()
    assert d.sim.status == "finished"
    return d


@pytest.mark.parametrize("mix", sorted(MIXES))
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.deep
def test_sim_matches_engine_move_for_move(n: int, mix: str) -> None:
    for seed in range(SEEDS):
        duel(n, mix, seed)


def test_the_duels_reach_every_race_outcome() -> None:
    """The driver exercises what the comparison is about: valid, graced and false slaps."""
    seen: Counter[str] = Counter()
    for seed, mix in ((s, m) for s in range(3) for m in ("defaults", "tiny-deck", "wet")):
        d = duel(4, mix, seed)
        for e in d.events:
            if e.type == "RaceResolved":
                seen["valid" if e.data["valid"] else "false"] += 1
                seen["grace"] += e.data["grace"]
                seen["last_slapper"] += any(x["reason"] == "last_slapper" for x in e.data["draws"])
                seen["non_slapper"] += any(x["reason"] == "non_slapper" for x in e.data["draws"])
            seen[e.type] += 1
    for what in ("valid", "false", "grace", "last_slapper", "non_slapper", "TimedOut", "ChanceDeckEmpty"):
        assert seen[what], what


class NoGrace(Sakapuss):
    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.grace = False


class ReturnsNewestFirst(Sakapuss):
    """Returns a seat's parasites to the bottom newest first (§6.6 says oldest first)."""

    def _draw(self, seat: int) -> None:
        if self.deck and self.card_type[self.deck[0]] != PARASITE:
            self.parasites[seat].reverse()
        super()._draw(seat)


class LastSlapperAlwaysDraws(Sakapuss):
    def _resolve_race(self) -> None:
        if self.slapped != (1 << self.n) - 1 and self.full >> self.slaps[0] & 1:
            self.slapped = (1 << self.n) - 1
        super()._resolve_race()


@pytest.mark.parametrize("mutant", [NoGrace, ReturnsNewestFirst, LastSlapperAlwaysDraws])
def test_a_perturbed_sim_is_caught(mutant: type[Sakapuss]) -> None:
    with pytest.raises(AssertionError):
        for seed in range(SEEDS):
            for mix in ("defaults", "wet"):
                duel(4, mix, seed, mutant)


def conserved(g: Sakapuss) -> None:
    """Every cat of the round is in some hand; every chance card is in the deck or in front of a seat."""
    assert all(sum(h) == 4 for h in g.hands)
    assert [sum(h[k] for h in g.hands) for k in range(g.n)] == [4] * g.n
    assert sorted([*g.deck, *(c for mine in g.parasites for c in mine)]) == list(range(len(g.cards)))


def bench_policy(g: Sakapuss, rng: random.Random) -> int:
    """``play_random``'s policy (meow-sim in bench/engine.py), written over the sim's legal/act/advance."""
    moves = 0
    while g.status == "running":
        options = [(s, a) for s in range(g.n) for a in g.legal(s) if a != SLAP or rng.random() < 0.02]
        if options:
            seat, a = options[int(rng.random() * len(options))]
            g.act(seat, a)
            moves += 1
        else:
            g.advance()
        conserved(g)
    return moves


@pytest.mark.parametrize("n", [3, 4, 5])
def test_fast_playouts_finish_and_follow_the_bench_policy(n: int) -> None:
    opts, _ = resolve_options("sakapuss", {"rounds": 3}, 5)
    for seed in range(4):
        ref_rng, fast_rng = random.Random(seed), random.Random(seed)
        ref = Sakapuss(n, opts, ref_rng.randrange)
        ref.start()
        fast = Sakapuss(n, opts, fast_rng.randrange)
        fast.start()
        moves = bench_policy(ref, ref_rng)
        assert play_random(fast, fast_rng) == moves > 0
        assert sim_projection(fast) == sim_projection(ref)
        assert fast.round_no == 3 and fast.status == "finished"
        conserved(fast)
    assert playout(opts, n, random.Random(7)) > 0


def test_shuffles_draw_their_indices_as_the_engine_does() -> None:
    """Fed the engine's HMAC index stream, the sim's Fisher-Yates gives the engine's permutation."""
    from service.games.kernel import randomness
    for n in (3, 12, 25):
        seed = hashlib.sha256(f"fy/{n}".encode()).digest()
        words = randomness._words(seed, "shuffle")
        got = fisher_yates(list(range(n)), lambda k: randomness._below(words, k))  # noqa: B023 - used here
        assert tuple(got) == randomness.permutation(seed, n)
