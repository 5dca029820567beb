"""The hard Sakapuss bot (§7.5): legal, slaps its own set, deterministic, plans its passes."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from service.games.kernel.views import SeatView
from service.games.sakapuss.bots import hard as sakapuss_hard, medium as sakapuss_medium

KINDS = ["k0", "k1", "k2", "k3"]


def _view(hand: list[str], seat: int = 0, n: int = 4, phase: str = "passing", slap: bool = True,
          passes: bool = True, direction: int = 1) -> SeatView:
    kinds = sorted({c.split(":")[1] for c in hand})
    actions: list[dict[str, Any]] = []
    if passes:
        actions = [{"type": "pass_card", "kind": k, "step": 3} for k in kinds]
    if slap:
        actions.append({"type": "slap", "seen_step": 2})
    public = {"phase": phase,
              "seats": [{"seat": s, "hand_count": 4, "state": "active"} for s in range(n)],
              "table": {"kinds": [f"k{i}" for i in range(n)], "direction": direction, "resolved_steps": 2}}
    return SeatView(seat=seat, now=0, public=public, hand=tuple(sorted(hand)), legal_actions=tuple(actions))


def test_returns_only_legal_actions() -> None:
    rng = random.Random(7)
    for _ in range(30):
        n = rng.choice([3, 4, 5])
        deck = [f"cat:k{i}" for i in range(n) for _ in range(4)]
        rng.shuffle(deck)
        seat = rng.randrange(n)
        view = _view(deck[:4], seat=seat, n=n, slap=rng.random() < 0.5, direction=rng.choice([1, -1]))
        action = sakapuss_hard.choose(view, random.Random(rng.random()))
        assert action in [dict(a) for a in view.legal_actions]
        assert action["type"] == "pass_card" or action["type"] == "slap"


def test_slaps_its_own_set_and_follows_a_race_but_never_false_slaps() -> None:
    for seed in range(10):
        assert sakapuss_hard.choose(_view(["cat:k2"] * 4), random.Random(seed))["type"] == "slap"
    race = _view(["cat:k1", "cat:k2", "cat:k2", "cat:k3"], phase="slap_race", passes=False)
    assert sakapuss_hard.choose(race, random.Random(1))["type"] == "slap"
    for seed in range(10):
        view = _view(["cat:k1", "cat:k2", "cat:k2", "cat:k3"])
        assert sakapuss_hard.choose(view, random.Random(seed))["type"] == "pass_card"


def test_deterministic_for_a_seed() -> None:
    """The same seed, the same choice (its speed is bench/bot_latency.py's to print, never a test's)."""
    view = _view(["cat:k0", "cat:k1", "cat:k2", "cat:k3"], n=5)
    first = [sakapuss_hard.choose(view, random.Random(s)) for s in range(5)]
    again = [sakapuss_hard.choose(view, random.Random(s)) for s in range(5)]
    assert first == again


def test_keeps_its_majority_and_passes_toward_a_set() -> None:
    # three k1: passing the lone k2 is the only pass that keeps the set one card away
    view = _view(["cat:k1", "cat:k1", "cat:k1", "cat:k2"])
    for seed in range(10):
        assert sakapuss_hard.choose(view, random.Random(seed))["kind"] == "k2"
    # two pairs: it keeps one of the pairs and passes from the other (never splits both)
    scores = sakapuss_hard.plan(["cat:k0", "cat:k0", "cat:k3", "cat:k3"], KINDS, [0, 1, 2, 3], 0, 1,
                                ["k0", "k3"], random.Random(3))
    assert set(scores) == {"k0", "k3"} and all(-0.1 <= v <= 1.0 for v in scores.values())


def test_history_moves_the_belief() -> None:
    # it passed k3 left last step, so the left neighbour surely holds k3 and may collect it:
    # with the feeding penalty, passing k3 again is worth less than without the history
    hand, seats = ["cat:k0", "cat:k0", "cat:k2", "cat:k3"], [0, 1, 2, 3]
    plain = sakapuss_hard.plan(hand, KINDS, seats, 0, 1, ["k2", "k3"], random.Random(5))
    known = sakapuss_hard.plan(hand, KINDS, seats, 0, 1, ["k2", "k3"], random.Random(5),
                               history=[("k3", "k0")])
    assert known["k3"] - known["k2"] < plain["k3"] - plain["k2"] + 0.05


def _play_round(policies: list[Callable[..., dict[str, Any]]], rng: random.Random, max_steps: int = 40) -> list[int]:
    """A bare Sakapuss round (§6.4): simultaneous passes to the left; who completes first."""
    n = len(policies)
    deck = [f"cat:k{i}" for i in range(n) for _ in range(4)]
    rng.shuffle(deck)
    hands = [sorted(deck[4 * i:4 * i + 4]) for i in range(n)]
    for _ in range(max_steps):
        done = [i for i in range(n) if len(set(hands[i])) == 1]
        if done:
            return done
        gifts = []
        for i in range(n):
            act = policies[i](_view(hands[i], seat=i, n=n, slap=False), random.Random(rng.random()))
            gifts.append(f"cat:{act['kind']}")
        for i in range(n):
            hands[i].remove(gifts[i])
        for i in range(n):
            hands[(i + 1) % n] = sorted(hands[(i + 1) % n] + [gifts[i]])
    return []


@pytest.mark.deep
def test_not_worse_than_medium_in_a_table_of_mediums() -> None:
    # same deals, seat 0 hard vs seat 0 medium; the others medium; small and bounded (~a few s)
    rounds = 60
    wins = {"hard": 0.0, "medium": 0.0}
    for name, bot in (("hard", sakapuss_hard.choose), ("medium", sakapuss_medium.choose)):
        rng = random.Random(2024)
        for _ in range(rounds):
            done = _play_round([bot] + [sakapuss_medium.choose] * 3, random.Random(rng.random()))
            if 0 in done:
                wins[name] += 1 / len(done)
    assert wins["hard"] >= wins["medium"] - 6


def test_particles_replay_the_pass_log_exactly() -> None:
    """Every particle is a deal whose replay gives the bot exactly the cards it received, ends in
    the bot's hand, conserves 4 copies per kind and records when each seat received what."""
    kinds, n, me = 3, 3, 0
    targets = [1, 2, 0]  # passes go left
    rng = random.Random(7)
    # a real replay: deal, three steps of medium passes for everyone; the bot logs its own
    deck = [k for k in range(kinds) for _ in range(4)]
    rng.shuffle(deck)
    hands = [sorted(deck[4 * i:4 * i + 4]) for i in range(n)]
    log = []
    for _ in range(3):
        gifts = [sakapuss_hard._medium_pass(h, rng, {}) for h in hands]
        for i in range(n):
            hands[i].remove(gifts[i])
        for i in range(n):
            hands[targets[i]].append(gifts[i])
        log.append((gifts[me], gifts[2]))
    particles = sakapuss_hard._particles(hands[me], log, me, targets, kinds, random.Random(1))
    assert particles
    for ph, recent in particles:
        assert sorted(ph[me]) == sorted(hands[me])
        assert sorted(k for h in ph for k in h) == sorted(deck)
        assert all(len(h) == 4 for h in ph)
        assert set(recent[me]) == {r for _, r in log} and set(recent[1]) == {p for p, _ in log}
    # a log that contradicts the hand (it received a kind it cannot have got) yields nothing
    assert sakapuss_hard._particles([0, 0, 0, 0], [(1, 2)], me, targets, kinds, random.Random(1)) == []
