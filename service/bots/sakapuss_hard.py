"""§7.5 hard Sakapuss bot: belief tracking plus Monte-Carlo pass planning.

Slapping is exactly medium's: slap its own set (never misses) or follow a race; never false-slap.

Passing:
1. **Belief.** Each kind in play has 4 copies; the copies not in the bot's hand are hidden in
   the other dealt-in seats (4 cards each). A hidden deal is sampled uniformly from those copies
   and weighted by what the bot knows about its neighbours (``history``, below).
2. **Simulation.** For every candidate kind, the bot passes it, then everyone (the bot included)
   plays the medium policy (keep the majority kind, pass a kind held least, random ties) for up to
   ``HORIZON`` steps; the first step after which some hand is complete ends the simulation. The
   bot scores 1 if it alone completes first, 1/k if it shares that step with k-1 others (it is
   the fastest slapper, but only the first valid slap counts), else 0. All candidates are run on
   the same sampled deals and the same tie-break stream (common random numbers), so differences
   between candidates are not drowned by sampling noise.
3. **Feeding penalty.** ``FEED_PENALTY`` times the (weighted) share of samples in which the left
   neighbour's majority kind is the kind being passed.

``history`` is a sequence of ``(passed_kind, received_kind)`` per resolved step of this round,
oldest first: the seat's own pass log, which its private view carries (``view.own["pass_log"]``,
the same a human in the seat sees). With a history: the kind passed at the last resolved step is certainly in the left neighbour's
hand (his own pass was sealed before it arrived), and every kind received from the right
neighbour down-weights deals where he holds 2 or more of it (he is not collecting it).

Pure: no clock, no module-level randomness; all randomness comes from the ``rng`` passed in, so a
seed gives one decision. Bounded: at most ``MAX_SIMULATIONS`` rollouts of ``HORIZON`` steps.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from service.bots import sakapuss_medium
from service.bots.sakapuss_medium import slap_or_passes
from service.rules.views import SeatView

MAX_SIMULATIONS = 200  # rollouts per decision, over all candidate kinds
HORIZON = 10  # pass steps simulated per rollout
FEED_PENALTY = 0.1  # per unit of P(left neighbour collects the passed kind)
NOT_COLLECTING_WEIGHT = 0.25  # a received kind the right neighbour holds ≥2 of in a sample
COPIES = 4


def _kind(card: str) -> str:
    return card.split(":", 1)[1]


def _medium_pass(hand: list[int], rng: random.Random) -> int:
    """sakapuss_medium's pass on an int-coded hand: keep the majority, pass a kind held least."""
    counts = Counter(hand)
    kinds = sorted(counts)
    keep = max(kinds, key=lambda k: counts[k])  # lowest number on ties, as medium does
    candidates = [k for k in kinds if k != keep] or kinds
    fewest = min(counts[k] for k in candidates)
    pool = [k for k in candidates if counts[k] == fewest]
    return pool[0] if len(pool) == 1 else pool[rng.randrange(len(pool))]


def _majority(hand: list[int]) -> int:
    counts = Counter(hand)
    return max(sorted(counts), key=lambda k: counts[k])


def _is_set(hand: list[int]) -> bool:
    return len(hand) == COPIES and hand.count(hand[0]) == COPIES


def _sample_deal(me_idx: int, my_hand: list[int], sizes: list[int], n_kinds: int,
                 rng: random.Random) -> list[list[int]]:
    """Hands for every seat index: the own hand, the hidden copies dealt uniformly to the others."""
    held = Counter(my_hand)
    hidden = [k for k in range(n_kinds) for _ in range(COPIES - held[k])]
    rng.shuffle(hidden)
    hands: list[list[int]] = []
    pos = 0
    for i, size in enumerate(sizes):
        if i == me_idx:
            hands.append(list(my_hand))
        else:
            hands.append(hidden[pos:pos + size])
            pos += size
    return hands


def _weight(hands: list[list[int]], left: int, right: int,
            history: Sequence[tuple[int, int]]) -> float:
    """How consistent a sampled deal is with the bot's own pass log (§7.5)."""
    if not history:
        return 1.0
    if history[-1][0] not in hands[left]:
        return 0.0  # the last card passed left is still there: his pass was sealed before it came
    w = 1.0
    for received in {r for _, r in history}:
        if hands[right].count(received) >= 2:
            w *= NOT_COLLECTING_WEIGHT
    return w


def _rollout(hands: list[list[int]], me: int, first: int, targets: list[int],
             rng: random.Random) -> float:
    """The bot's share of 'completes a set first' when it passes ``first`` now."""
    n = len(hands)
    hands = [list(h) for h in hands]
    for step in range(HORIZON):
        gifts = [first if (i == me and step == 0) else _medium_pass(hands[i], rng) for i in range(n)]
        for i in range(n):
            hands[i].remove(gifts[i])
        for i in range(n):
            hands[targets[i]].append(gifts[i])
        done = [i for i in range(n) if _is_set(hands[i])]
        if done:
            return 1.0 / len(done) if me in done else 0.0
    return 0.0


def _dealt_seats(public: Mapping[str, Any], me: int) -> list[int]:
    seats = [s for s in public.get("seats") or () if s.get("hand_count")]
    out = sorted(int(s["seat"]) for s in seats)
    return out if me in out else []


def plan(hand: Sequence[str], kinds: Sequence[str], seats: Sequence[int], me: int,
         direction: int, candidates: Sequence[str], rng: random.Random,
         history: Sequence[tuple[str, str]] = ()) -> dict[str, float]:
    """Score every candidate kind to pass: P(complete first) minus the feeding penalty."""
    code = {k: i for i, k in enumerate(sorted(set(kinds) | {_kind(c) for c in hand}))}
    my_hand = sorted(code[_kind(c)] for c in hand)
    n = len(seats)
    me_idx = seats.index(me)
    targets = [(i + direction) % n for i in range(n)]
    left, right = targets[me_idx], (me_idx - direction) % n
    sizes = [COPIES] * n
    hist = [(code[p], code[r]) for p, r in history if p in code and r in code]
    cands = [code[k] for k in candidates]
    samples = max(1, MAX_SIMULATIONS // max(1, len(cands)))
    win = dict.fromkeys(cands, 0.0)
    feed = dict.fromkeys(cands, 0.0)
    total = 0.0
    for _ in range(samples):
        hands = _sample_deal(me_idx, my_hand, sizes, len(code), rng)
        w = _weight(hands, left, right, hist)
        if w == 0.0:
            continue
        total += w
        collects = _majority(hands[left])
        seed = rng.getrandbits(64)  # the same tie-break stream for every candidate
        for k in cands:
            win[k] += w * _rollout(hands, me_idx, k, targets, random.Random(seed))
            if k == collects:
                feed[k] += w
    if total == 0.0:  # no sample matched the pass log: plan without it
        return plan(hand, kinds, seats, me, direction, candidates, rng)
    names = {i: k for k, i in code.items()}
    return {names[k]: (win[k] - FEED_PENALTY * feed[k]) / total for k in cands}


def choose(view: SeatView, rng: random.Random,
           history: Sequence[tuple[str, str]] | None = None) -> dict[str, Any]:
    """One action of ``view.legal_actions`` (the same view a human in this seat gets)."""
    slap, passes = slap_or_passes(view)
    if slap is not None:
        return slap
    if len(passes) == 1:
        return passes[next(iter(passes))]
    public = view.public
    table = public.get("table") or {}
    seats = _dealt_seats(public, view.seat)
    kinds = list(table.get("kinds") or ())
    if len(seats) < 2 or len(kinds) < len(seats) or len(view.hand) != COPIES:
        # the view cannot support a belief (an unexpected shape): fall back to medium's rule
        return sakapuss_medium.choose(view, rng)
    direction = 1 if table.get("direction", 1) >= 0 else -1
    if history is None:
        history = sakapuss_medium.history(view)
    scores = plan(view.hand, kinds, seats, view.seat, direction, sorted(passes), rng, history)
    counts = Counter(_kind(c) for c in view.hand)
    # best score; ties: pass the kind held least, then the lowest kind name (deterministic)
    best = max(sorted(passes), key=lambda k: (round(scores[k], 9), -counts[k]))
    return passes[best]
