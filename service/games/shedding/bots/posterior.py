"""§7.4 determinizations weighted by the opponents' recorded moves: a Metropolis sampler.

A state is a guess at every opponent's hand (his public hand size, from the unseen cards) plus an
acquisition priority per card (``evidence.Evidence`` reads his hand at each past decision from
them). Its weight is the likelihood of the recorded decisions; the prior is uniform over the
unseen cards. A population of chains starts from the determinizer's deals and moves by

- swapping a card of an opponent's hand with an unseen card outside it (the stock's or another
  opponent's), the new card taking the old one's acquisition priority, and
- swapping the acquisition priorities of two of one opponent's cards (held or played),

both symmetric proposals, accepted with probability min(1, likelihood ratio). The hard bot then
draws its determinizations from the population, each with a freshly shuffled stock.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from service.games.shedding.bots.evidence import Evidence


class Posterior:
    """A population of guesses at the opponents' hands, moved towards their recorded moves."""

    def __init__(self, unseen: list[str], opp_counts: list[tuple[int, int]], evidence: Evidence,
                 rng: random.Random, size: int,
                 deal: Callable[[random.Random], tuple[dict[int, tuple[str, ...]], tuple[str, ...]]]) -> None:
        """``size`` chains, each started from ``deal(rng)`` (the determinizer's deal: opponents'
        hands and the stock from the ``unseen`` cards, weighted by the public draw caps)."""
        self.ev = evidence
        self.rng = rng
        self.seats = [s for s, k in opp_counts if k > 0]
        played = evidence.played_keys
        self.played = played
        self.chains: list[list[Any]] = []
        for _ in range(max(1, size)):
            dealt, stock = deal(rng)
            hands = {seat: list(dealt.get(seat, ())) for seat, _ in opp_counts}
            rest = list(stock)
            prio: dict[Any, float] = {c: rng.random() for c in unseen}
            for cards in played.values():
                for c in cards:
                    prio[c] = rng.random()
            ll = {s: evidence.log_likelihood(s, hands[s], prio) for s in self.seats}
            self.chains.append([hands, rest, prio, ll])
        self.steps = 0
        self.accepted = 0
        self._next = 0

    def step(self, index: int | None = None) -> None:
        """One Metropolis step of chain ``index`` (default: the next one, round robin)."""
        rng = self.rng
        if not self.seats:
            return
        if index is None:
            index = self._next
            self._next = (index + 1) % len(self.chains)
        chain = self.chains[index]
        hands, rest, prio, ll = chain
        seat = rng.choice(self.seats)
        hand = hands[seat]
        ev = self.ev
        self.steps += 1
        if rng.random() < 0.7:
            # swap one of his cards with an unseen card outside his hand
            others = [s for s in self.seats if s != seat]
            n_rest = len(rest)
            n_other = sum(len(hands[s]) for s in others)
            if n_rest + n_other == 0:
                return
            i = rng.randrange(len(hand))
            j = rng.randrange(n_rest + n_other)
            x = hand[i]
            if j < n_rest:
                y = rest[j]
                new_hand = hand[:]
                new_hand[i] = y
                new_prio = dict(prio)
                new_prio[y], new_prio[x] = prio[x], prio[y]
                new_ll = ev.log_likelihood(seat, new_hand, new_prio)
                delta = new_ll - ll[seat]
                if delta >= 0 or rng.random() < math.exp(delta):
                    hands[seat] = new_hand
                    rest[j] = x
                    chain[2] = new_prio
                    ll[seat] = new_ll
                    self.accepted += 1
                return
            j -= n_rest
            for o in others:
                if j < len(hands[o]):
                    break
                j -= len(hands[o])
            y = hands[o][j]
            new_hand, new_other = hand[:], hands[o][:]
            new_hand[i], new_other[j] = y, x
            new_prio = dict(prio)
            new_prio[y], new_prio[x] = prio[x], prio[y]
            a = ev.log_likelihood(seat, new_hand, new_prio)
            b = ev.log_likelihood(o, new_other, new_prio)
            delta = a + b - ll[seat] - ll[o]
            if delta >= 0 or rng.random() < math.exp(delta):
                hands[seat], hands[o] = new_hand, new_other
                chain[2] = new_prio
                ll[seat], ll[o] = a, b
                self.accepted += 1
            return
        # swap the acquisition priorities of two of his cards (held or played)
        cards: list[Any] = hand + self.played.get(seat, [])
        if len(cards) < 2:
            return
        x, y = rng.sample(cards, 2)
        new_prio = dict(prio)
        new_prio[x], new_prio[y] = prio[y], prio[x]
        new_ll = ev.log_likelihood(seat, hand, new_prio)
        delta = new_ll - ll[seat]
        if delta >= 0 or rng.random() < math.exp(delta):
            chain[2] = new_prio
            ll[seat] = new_ll
            self.accepted += 1

    def hands(self, rng: random.Random, steps: int = 0) -> dict[int, tuple[str, ...]]:
        """The opponents' hands of the next chain (round robin) after ``steps`` more steps of it,
        so a long search keeps drawing fresh, better-mixed guesses."""
        i = self._next
        self._next = (i + 1) % len(self.chains)
        for _ in range(steps):
            self.step(i)
        return {s: tuple(h) for s, h in self.chains[i][0].items()}
