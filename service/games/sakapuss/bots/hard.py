"""§7.5 hard Sakapuss bot: belief tracking plus Monte-Carlo pass planning.

Slapping is exactly medium's: slap its own set (never misses) or follow a race; never false-slap.

Passing:
1. **Belief.** Each kind in play has 4 copies; the copies not in the bot's hand are hidden in
   the other dealt-in seats (4 cards each). Once the round has a pass log, the belief is a
   particle filter (``_particles``): the bot undoes its log to get its dealt hand, deals the
   hidden copies at random and replays every logged step with the opponents passing as medium
   does (10 % random); deals in which the right neighbour does not pass exactly what the bot
   received are rejected. The survivors carry the opponents' current hands *and* what each of
   them received when, which medium's keep-tie rule depends on. When too few survive (the
   opponents do not play like medium), or before the first step, a hidden deal is sampled
   uniformly and weighted by what the bot knows about its neighbours (``history``, below).
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

from service.games.kernel.views import SeatView
from service.games.sakapuss.bots import medium as sakapuss_medium
from service.games.sakapuss.bots.medium import slap_or_passes

MAX_SIMULATIONS = 200  # rollouts per decision, over all candidate kinds
HORIZON = 10  # pass steps simulated per rollout
FEED_PENALTY = 0.1  # per unit of P(left neighbour collects the passed kind)
NOT_COLLECTING_WEIGHT = 0.25  # a received kind the right neighbour holds ≥2 of in a sample
COPIES = 4
RECENT_BASE = 1000  # simulated receipts come after every logged one
PARTICLES = 100  # replayed deals kept per decision (``_particles``)
PARTICLE_ATTEMPTS = 1500  # deals tried for them
MIN_PARTICLES = 10  # fewer survivors: the opponents do not play like medium; use the weighting
MODEL_NOISE = 0.1  # in the replay, an opponent passes a random card with this probability


def _kind(card: str) -> str:
    return card.split(":", 1)[1]


def _medium_pass(hand: list[int], rng: random.Random, recent: Mapping[int, int]) -> int:
    """sakapuss_medium's pass on an int-coded hand: keep the majority (ties: the kind received
    most recently, ``recent`` = kind -> when, then the lowest), pass a kind held least."""
    counts = Counter(hand)
    kinds = sorted(counts)
    keep = max(kinds, key=lambda k: (counts[k], recent.get(k, -1)))
    candidates = [k for k in kinds if k != keep] or kinds
    fewest = min(counts[k] for k in candidates)
    pool = [k for k in candidates if counts[k] == fewest]
    return pool[0] if len(pool) == 1 else pool[rng.randrange(len(pool))]


def _majority(hand: list[int], recent: Mapping[int, int]) -> int:
    counts = Counter(hand)
    return max(sorted(counts), key=lambda k: (counts[k], recent.get(k, -1)))


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
             rng: random.Random, recent: list[dict[int, int]]) -> float:
    """The bot's share of 'completes a set first' when it passes ``first`` now. ``recent`` is
    what each seat is known to have received and when (medium's tie-break); it grows as the
    simulated steps hand cards on."""
    n = len(hands)
    hands = [list(h) for h in hands]
    recent = [dict(r) for r in recent]
    for step in range(HORIZON):
        gifts = [first if (i == me and step == 0) else _medium_pass(hands[i], rng, recent[i])
                 for i in range(n)]
        for i in range(n):
            hands[i].remove(gifts[i])
        for i in range(n):
            hands[targets[i]].append(gifts[i])
            recent[targets[i]][gifts[i]] = RECENT_BASE + step
        done = [i for i in range(n) if _is_set(hands[i])]
        if done:
            return 1.0 / len(done) if me in done else 0.0
    return 0.0


def _particles(my_hand: list[int], hist: Sequence[tuple[int, int]], me: int, targets: list[int],
               n_kinds: int, rng: random.Random) -> list[tuple[list[list[int]], list[dict[int, int]]]]:
    """Hidden hands *and* what every seat received, replayed from the deal (a particle filter).

    The bot's dealt hand is its hand with the log undone. Each particle deals the other copies
    at random and replays the logged steps: the bot passes what it passed, every other seat
    passes as medium does (a random card with p = ``MODEL_NOISE``, so any opponent stays
    possible); a particle survives only if its right neighbour passes exactly what the bot
    received at every step. The survivors are the deals and pass histories the log allows,
    in proportion to how likely each is.
    """
    dealt = list(my_hand)
    for passed, received in reversed(hist):
        if received not in dealt:
            return []  # a log that does not fit the hand (it cannot happen in one round)
        dealt.remove(received)
        dealt.append(passed)
    n = len(targets)
    giver_to_me = targets.index(me)
    hidden = [k for k in range(n_kinds) for _ in range(COPIES - dealt.count(k))]
    out: list[tuple[list[list[int]], list[dict[int, int]]]] = []
    for _ in range(PARTICLE_ATTEMPTS):
        rng.shuffle(hidden)
        hands: list[list[int]] = []
        pos = 0
        for i in range(n):
            if i == me:
                hands.append(list(dealt))
            else:
                hands.append(hidden[pos:pos + COPIES])
                pos += COPIES
        recent: list[dict[int, int]] = [{} for _ in range(n)]
        for t, (passed, received) in enumerate(hist):
            gifts = []
            for i in range(n):
                h = hands[i]
                if i == me:
                    gifts.append(passed)
                elif rng.random() < MODEL_NOISE:
                    gifts.append(h[rng.randrange(len(h))])
                else:
                    gifts.append(_medium_pass(h, rng, recent[i]))
            if gifts[giver_to_me] != received:
                break
            for i in range(n):
                hands[i].remove(gifts[i])
            for i in range(n):
                hands[targets[i]].append(gifts[i])
                recent[targets[i]][gifts[i]] = t
        else:
            out.append((hands, recent))
            if len(out) >= PARTICLES:
                break
    return out


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
    # who is known to have received what, and when: the bot itself, and its left neighbour (he
    # received every card the bot passed); the others' receipts are unknown
    recent: list[dict[int, int]] = [{} for _ in range(n)]
    recent[me_idx] = {r: i for i, (_, r) in enumerate(hist)}
    recent[left] = {p: i for i, (p, _) in enumerate(hist)}
    cands = [code[k] for k in candidates]
    samples = max(1, MAX_SIMULATIONS // max(1, len(cands)))
    win = dict.fromkeys(cands, 0.0)
    feed = dict.fromkeys(cands, 0.0)
    total = 0.0
    particles = _particles(my_hand, hist, me_idx, targets, len(code), rng) if hist else []
    if len(particles) < MIN_PARTICLES:
        particles = []
    for i in range(samples):
        if particles:  # the replayed deals: hands and every seat's receipts
            hands, recent = particles[i % len(particles)]
            w = 1.0
        else:
            hands = _sample_deal(me_idx, my_hand, sizes, len(code), rng)
            w = _weight(hands, left, right, hist)
        if w == 0.0:
            continue
        total += w
        collects = _majority(hands[left], recent[left])
        seed = rng.getrandbits(64)  # the same tie-break stream for every candidate
        for k in cands:
            win[k] += w * _rollout(hands, me_idx, k, targets, random.Random(seed), recent)
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
