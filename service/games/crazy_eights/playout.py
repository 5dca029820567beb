"""Crazy Eights playout core: one hand on mutable lists, for rollouts and the benchmark.

It mirrors ``service.games.crazy_eights`` (the authority) move for move: the deal from dealer+1,
eights turned up going back into the stock, draws up to ``max_draw_cards``, passes, special cards,
the stock reshuffled from the discard (``reshuffle``), and the three ends of the hand. There are
no events, views, seats leaving or clocks; tests/unit/sim checks it against the event engine.

Cards are ints ``rank * 4 + suit`` (ranks 2..A, suits C, D, H, S: OpenSpiel's numbering). Actions
are ints: ``c`` plays card c (an eight that ends the hand names nothing), ``DRAW``, ``PASS``, and
``CALL + c * 4 + s`` plays the eight c naming suit s. Randomness is injected: ``shuffle(cards)``
returns the cards in a new order (the deck, the stock after an eight went back, the reshuffled
discard), and ``dealer`` is the dealer's seat.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from service.games.shedding.cards import RANKS, SUITS

DRAW, PASS, CALL = 52, 53, 100
EIGHT, SKIP, REVERSE, TWO = 6, 10, 12, 0  # rank indices
Shuffle = Callable[[list[int]], list[int]]


def rank(c: int) -> int:
    return c >> 2


def card_id(c: int) -> str:
    """The engine's id of card c ("8H:0")."""
    return f"{RANKS[c >> 2]}{SUITS[c & 3]}:0"


def card_int(cid: str) -> int:
    r, s = cid[:-3], cid[-3]
    return RANKS.index(r) * 4 + SUITS.index(s)


def penalty(c: int) -> int:
    """50 per eight, 10 per J, Q, K and A, face value otherwise."""
    r = c >> 2
    return 50 if r == EIGHT else 10 if r >= 9 else r + 2


class CrazyEights:
    """One hand of ``players`` seats (0 .. players-1), dealt at construction."""

    def __init__(self, players: int, options: Mapping[str, Any], shuffle: Shuffle, dealer: int) -> None:
        self.n = n = players
        self.max_draw = int(options["max_draw_cards"])
        self.max_turns = int(options["max_turns"])
        self.special = bool(options["use_special_cards"])
        self.reshuffle = bool(options["reshuffle"])
        self.shuffle = shuffle
        self.dealer = dealer
        deck = shuffle([r * 4 + s for s in range(4) for r in range(13)])  # the engine's deck order
        k = 7 if n == 2 else 5
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(k * n):
            self.hands[(dealer + 1 + i) % n].append(deck[i])
        self.stock: list[int] = deck[k * n:]  # index 0 is the top
        while rank(self.stock[0]) == EIGHT:  # the eight goes back under the stock, which is shuffled
            self.stock.append(self.stock.pop(0))
            self.stock = shuffle(self.stock)
        top = self.stock.pop(0)
        self.discard = [top]
        self.suit = top & 3
        self.direction = 1
        self.drawn = self.owed = self.passes = self.plays = 0
        self.over = False
        self.reason: str | None = None
        self.winner: int | None = None
        self.current = (dealer + 1) % n
        if self.special:
            r = rank(top)
            if r == SKIP:
                self.current = (dealer + 2) % n
            elif r == REVERSE:
                self.direction = -1
                self.current = (dealer - 1) % n
            elif r == TWO:
                self.owed = 2

    # ------------------------------------------------------------------ legality

    def _follows(self, c: int) -> bool:
        return rank(c) == EIGHT or (c & 3) == self.suit or rank(c) == rank(self.discard[-1])

    def legal(self) -> list[int]:
        """The current seat's actions, sorted as the engine lists them (by card, then draw, pass)."""
        hand = self.hands[self.current]
        if self.owed:
            cards = [c for c in hand if rank(c) == TWO]
        else:
            cards = [c for c in hand if self._follows(c)]
        calls = len(hand) > 1 and self.plays + 1 < self.max_turns
        out: list[int] = []
        for c in sorted(cards, key=lambda c: (c & 3, c >> 2)):
            if rank(c) == EIGHT and calls:
                out.extend(CALL + c * 4 + s for s in range(4))
            else:
                out.append(c)
        if self.stock and (self.owed or self.drawn < self.max_draw):
            out.append(DRAW)
        if not self.owed and (not self.stock or self.drawn >= self.max_draw):
            out.append(PASS)
        return out

    # ------------------------------------------------------------------ moves

    def act(self, a: int) -> None:
        if a == DRAW:
            self._draw()
        elif a == PASS:
            self._pass()
        elif a >= CALL:
            self._play((a - CALL) >> 2, (a - CALL) & 3)
        else:
            self._play(a, None)

    def _next(self, by: int = 1) -> None:
        self.current = (self.current + by * self.direction) % self.n
        self.drawn = 0

    def _refill(self) -> bool:
        if len(self.discard) < 2:
            return False
        self.stock = self.shuffle(self.discard[:-1])
        self.discard = self.discard[-1:]
        return True

    def _play(self, c: int, suit: int | None) -> None:
        seat = self.current
        hand = self.hands[seat]
        hand.remove(c)
        self.discard.append(c)
        self.suit = c & 3 if suit is None else suit
        self.plays += 1
        self.drawn = self.passes = 0
        if not hand:
            return self._end("hand_empty", seat)
        if self.plays >= self.max_turns:
            return self._end("max_turns", None)
        if not self.stock and self.reshuffle:
            self._refill()
        r = rank(c)
        if self.special:
            if r == SKIP:
                return self._next(2)
            if r == REVERSE:
                self.direction = -self.direction
                return self._next()
            if r == TWO and self.stock:
                self.owed += 2
        self._next()

    def _draw(self) -> None:
        hand = self.hands[self.current]
        self.passes = 0
        if not self.owed:
            hand.append(self.stock.pop(0))
            self.drawn += 1
            if not self.stock and self.reshuffle:
                self._refill()
            return
        while True:
            k = min(self.owed, len(self.stock))
            hand.extend(self.stock[:k])
            del self.stock[:k]
            self.owed -= k
            if not self.stock and not (self.reshuffle and self._refill()):
                if self.owed == 0:
                    self.passes = 1
                self.owed = 0
                break
            if not self.owed:
                break
        self._next()

    def _pass(self) -> None:
        self.passes = self.passes + 1 if not self.stock else 0
        if self.passes >= self.n + 1:
            return self._end("blocked", None)
        self._next()

    def _end(self, reason: str, winner: int | None) -> None:
        self.over = True
        self.reason = reason
        self.winner = winner

    def scores(self) -> list[int]:
        return [-sum(penalty(c) for c in h) for h in self.hands]


def rng_shuffle(rng: random.Random) -> Shuffle:
    def shuffle(cards: list[int]) -> list[int]:
        out = list(cards)
        rng.shuffle(out)
        return out
    return shuffle


def playout(options: Mapping[str, Any], players: int, rng: random.Random) -> int:
    """One hand with uniformly random legal actions; returns the number of moves."""
    g = CrazyEights(players, options, rng_shuffle(rng), int(rng.random() * players))
    moves = 0
    while not g.over:
        acts = g.legal()
        g.act(acts[int(rng.random() * len(acts))])
        moves += 1
    return moves
