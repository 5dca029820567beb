"""UNO playout core: one hand on mutable lists, for rollouts and the benchmark.

It mirrors ``service.games.uno`` (the authority) move for move: the deal in blocks of seven, a
turned-up wild draw four going back into the stock, the starter performed, RLCard's legal plays,
its draw rule and its reshuffle of every played card. There are no events, views, seats leaving
or clocks; tests/unit/sim checks it against the event engine. The ``uno`` preset's rules of a hand
are options of the core: ``colour_only`` (``wild_draw_4`` only_without_colour) and ``keep``
(``drawn_card`` play_or_keep: a drawn card that follows is the seat's to play or keep, ``PASS``) and
``printed`` (``uno`` from rules version 4: a last draw two or wild draw four still makes the next
player draw, a reshuffle keeps the top card on the table); it has no UNO call and plays one hand
(no card points).

Cards are ints, indices into ``cards.DECK``. Actions are ints: ``c`` plays the non-wild card c,
``WILD + c * 4 + k`` plays the wild c naming colour k, ``DRAW`` draws, ``PASS`` keeps a drawn card. Randomness is injected:
``shuffle(cards)`` returns the cards in a new order (the deck, the stock after a wild draw four
went back, the reshuffled stock), ``color()`` a random colour index (a turned or drawn wild).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from service.games.uno.cards import COLOR, COLORS, DECK, DRAW_2, REVERSE, SKIP, TRAIT, WILD_DRAW_4, sort_hand
from service.games.uno.options import ONLY_WITHOUT_COLOUR, PLAY_OR_KEEP, rule_of
from service.games.uno.rules import HAND_SIZE, playable

DRAW, PASS, WILD = 1000, 1001, 2000
Shuffle = Callable[[list[int]], list[int]]
_INDEX = {c: i for i, c in enumerate(DECK)}
_PENALTY = {DRAW_2: 2, WILD_DRAW_4: 4}


class Uno:
    """One hand of ``players`` seats (0 .. players-1), dealt at construction."""

    def __init__(self, players: int, shuffle: Shuffle, color: Callable[[], int], dealt: int = HAND_SIZE,
                 colour_only: bool = False, keep: bool = False, printed: bool = False) -> None:
        self.n = n = players
        self.colour_only, self.keep, self.printed = colour_only, keep, printed
        self.drawn: int | None = None  # with ``keep``: the card just drawn that follows
        self.shuffle, self.color_of = shuffle, color
        deck = shuffle(list(range(len(DECK))))
        self.hands: list[list[int]] = [deck[i * dealt:(i + 1) * dealt] for i in range(n)]
        self.stock: list[int] = deck[n * dealt:]  # index 0 is the top
        while TRAIT[DECK[self.stock[0]]] == WILD_DRAW_4:
            self.stock.append(self.stock.pop(0))
            self.stock = shuffle(self.stock)
        top = self.stock.pop(0)
        self.discard = [top]
        self.target = top
        self.color = COLOR[DECK[top]] or COLORS[color()]
        self.direction = 1
        self.current = 0
        self.over = False
        self.winner: int | None = None
        trait = TRAIT[DECK[top]]
        if trait == SKIP:
            self.current = 1
        elif trait == REVERSE:
            self.direction = -1
            self.current = n - 1
        elif trait == DRAW_2:
            self._give(0, 2)

    def legal(self) -> list[int]:
        """The current seat's actions, in the engine's order (cards in deck order, a wild's colours
        R G B Y), or [DRAW]; after a draw that may be kept, the drawn card and PASS."""
        t = DECK[self.target]
        ids = playable([DECK[c] for c in self.hands[self.current]], TRAIT[t], COLOR[t] is None, self.color,
                       self.colour_only)
        if self.drawn is not None:
            ids = [DECK[self.drawn]] if DECK[self.drawn] in ids else []
        out: list[int] = []
        for cid in sort_hand(ids):
            c = _INDEX[cid]
            if COLOR[cid] is None:
                out.extend(WILD + c * 4 + k for k in range(4))
            else:
                out.append(c)
        if self.drawn is not None:
            return [*out, PASS]
        return out or [DRAW]

    def act(self, a: int) -> None:
        if a == DRAW:
            self._draw()
        elif a == PASS:
            self.drawn = None
            self.current = self._seat(1)
        elif a >= WILD:
            self._play((a - WILD) >> 2, COLORS[(a - WILD) & 3])
        else:
            self._play(a, None)

    def _seat(self, by: int) -> int:
        return (self.current + by * self.direction) % self.n

    def _give(self, seat: int, count: int) -> list[int]:
        top = self.discard[-1:] if self.printed else []  # the printed rules: the top card stays
        if len(self.stock) < count and len(self.discard) > len(top):
            self.stock = self.shuffle(self.stock + self.discard[:len(self.discard) - len(top)])
            self.discard = top
        got = self.stock[:count]
        del self.stock[:count]
        self.hands[seat].extend(got)
        return got

    def _put(self, c: int, color: str) -> None:
        self.hands[self.current].remove(c)
        self.drawn = None
        self.discard.append(c)
        self.target, self.color = c, color

    def _play(self, c: int, color: str | None) -> None:
        self._put(c, color or COLOR[DECK[c]] or "")
        if not self.hands[self.current]:
            self.over, self.winner = True, self.current
            if self.printed and TRAIT[DECK[c]] in _PENALTY:  # the printed rules: the last +2/+4 still acts
                self._give(self._seat(1), _PENALTY[TRAIT[DECK[c]]])
            return
        self._effect(c)

    def _effect(self, c: int) -> None:
        trait = TRAIT[DECK[c]]
        if trait == REVERSE:
            self.direction = -self.direction
            self.current = self._seat(1)
        elif trait == SKIP:
            self.current = self._seat(2)
        elif trait in _PENALTY:
            self._give(self._seat(1), _PENALTY[trait])
            self.current = self._seat(2)
        else:
            self.current = self._seat(1)

    def _draw(self) -> None:
        got = self._give(self.current, 1)
        if not got:
            self.current = self._seat(1)
            return
        c = got[0]
        if self.keep:
            self.drawn = c
            if self.legal() == [PASS]:  # it does not follow: kept, the turn is over
                self.drawn = None
                self.current = self._seat(1)
            return
        col = COLOR[DECK[c]]
        if col is None:
            self._put(c, COLORS[self.color_of()])
            self.current = self._seat(1)
        elif col == self.color:
            self._put(c, col)
            self._effect(c)
        else:
            self.current = self._seat(1)


def rng_shuffle(rng: random.Random) -> Shuffle:
    def shuffle(cards: list[int]) -> list[int]:
        out = list(cards)
        rng.shuffle(out)
        return out
    return shuffle


def playout(options: Mapping[str, Any], players: int, rng: random.Random, printed: bool = False) -> int:
    """One hand with uniformly random legal actions; returns the number of moves. ``printed``: the
    ``uno`` preset's printed rules of rules version 4 (options do not say it: the preset and version do)."""
    g = Uno(players, rng_shuffle(rng), lambda: int(rng.random() * 4), int(options.get("cards_dealt", HAND_SIZE)),
            rule_of(options, "wild_draw_4") == ONLY_WITHOUT_COLOUR, rule_of(options, "drawn_card") == PLAY_OR_KEEP,
            printed)
    moves = 0
    while not g.over:
        acts = g.legal()
        g.act(acts[int(rng.random() * len(acts))])
        moves += 1
    return moves
