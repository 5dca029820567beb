"""Sakapuss playout core: a whole match on mutable lists, for rollouts and the benchmark.

It mirrors ``service.games.sakapuss`` (the authority) for a fixed table of 3-5 seats:
the deal of one cat kind per seat (RULES §6.3), sealed pass steps resolved at once (§6.4),
slap races judged against the hands with the one-step grace (§6.5.4, §6.5.5), chance cards
(§6.6), the stalemate guard (§6.7) and scoring to the last round (§6.8), honouring every
option of §8.2 that changes play. Joins, leaves and absences are out of scope.

There are no events, views or clocks. What the engine's timers and follow-ups do is a method
the driver calls when it decides the time has come: ``timeout_step`` (the pass deadline),
``close_race`` (the slap window), ``score_round`` and ``deal_round``; ``advance`` fires
whichever is due, as ``pending_work`` would.

Randomness is injected as ``rand(n) -> int``, uniform in ``range(n)``. Choices (first dealer,
auto-passed card, the ``one_random`` non-slapper) are one call each; shuffles (the chance deck,
the cats, the cat kinds) are Fisher-Yates from the top, ``j = rand(i + 1)`` for i = n-1 .. 1,
exactly as ``service.games.kernel.randomness.permutation`` draws its indices. Draws come in the
engine's order, so feeding the engine's outcomes reproduces its match card for card.

Cat kinds are slots ``0 .. n-1`` into ``kinds`` (sorted as the engine sorts them); a hand
is its count per slot. Chance cards are indices into ``cards`` (the engine's ids). Actions
are trusted: the sim applies what ``legal`` lists (or a slap whose ``seen_step`` is one step
behind, which the engine also accepts) without validating it again.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from service.games.sakapuss.commands import cat_id
from service.games.sakapuss.flow import chance_deck_cards

Rand = Callable[[int], int]

PASSING, RACE, SCORING, INTERMISSION, FINISHED = range(5)
PHASES = ("passing", "slap_race", "scoring", "intermission", "finished")
SLAP = -1  # the slap action; an action >= 0 passes the cat of that kind slot
PARASITE, INSECTICIDE, SHOWER = range(3)
SLAP_P = 0.02  # bench policy: the chance that a legal slap is among the options
HAND = 4  # §6.5.3: four of a kind; cats_per_kind is fixed at 4 (§8.2)


def fisher_yates(items: list[Any], rand: Rand) -> list[Any]:
    """Shuffle in place from the top, as the engine's permutation does."""
    for i in range(len(items) - 1, 0, -1):
        j = rand(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


class Sakapuss:
    """One match of ``players`` seats (0 .. players-1); ``start()`` deals round 1."""

    def __init__(self, players: int, options: Mapping[str, Any], rand: Rand) -> None:
        o = options
        self.n = n = players
        self.rand = rand
        step = 1 if o["pass_direction"] == "left" else -1
        self.target = [(s + step) % n for s in range(n)]
        self.rounds = int(o["rounds"])
        self.kinds_total = int(o["cat_kinds_total"])
        self.per_round_kinds = o["kinds_selection"] == "random_per_round"
        if int(o["cats_per_kind"]) != HAND:
            raise ValueError("cats_per_kind must be 4")
        self.grace = int(o["slap_grace_steps"]) >= 1
        self.early_slap = bool(o["allow_slap_before_first_pass"])
        self.last_draws = int(o["last_slapper_draws"])
        self.false_draws = int(o["false_slap_draws"])
        self.both_penalties = o["false_slap_mode"] == "both_penalties_end_round"
        self.one_random = o["non_slappers_policy"] == "one_random"
        self.max_steps = int(o["max_pass_steps_per_round"])
        self.by_cards = o["tie_break"] == "fewer_parasite_cards"
        self.cards = chance_deck_cards(o)
        kind_of = {k: i for i, k in enumerate(o["parasite_kinds"])}
        self.card_type = [PARASITE if c.startswith("par:") else INSECTICIDE if c.startswith("ins:")
                          else SHOWER for c in self.cards]
        self.card_kind = [kind_of[c.split(":")[1]] if t != SHOWER else -1
                          for c, t in zip(self.cards, self.card_type)]
        self.card_value = [int(c.split(":")[2]) if t == PARASITE else 0
                           for c, t in zip(self.cards, self.card_type)]
        self.deck: deque[int] = deque()
        self.parasites: list[list[int]] = [[] for _ in range(n)]
        self.totals = [0] * n
        self.round_no = 0
        self.dealer = -1
        self.kinds: tuple[str, ...] = ()
        self.hands = [[0] * n for _ in range(n)]
        self.held: list[list[int]] = [[] for _ in range(n)]  # kind slots in hand, ascending
        self.passes = [-1] * n
        self.npassed = 0
        self.resolved = 0
        self.voided = 0
        self.races = 0
        self.full = 0  # bit s: seat s holds four of a kind now (H_r)
        self.prev_full = 0  # the same after the step before (H_{r-1})
        self.slaps: list[int] = []
        self.slapped = 0
        self.first_seen = 0
        self.phase = INTERMISSION
        self.end_reason: str | None = None
        self.winner: int | None = None

    # ------------------------------------------------------------------ round flow (§6.3, §6.8)

    def start(self) -> None:
        self.deal_round()

    def deal_round(self) -> None:
        """§6.3: dealer, cat kinds, the chance deck once, then the cats, 4 to each seat."""
        n, rand = self.n, self.rand
        self.round_no += 1
        self.dealer = rand(n) if self.round_no == 1 else (self.dealer + 1) % n
        if not self.kinds or self.per_round_kinds:
            every = fisher_yates([f"k{i}" for i in range(self.kinds_total)], rand)
            self.kinds = tuple(sorted(every[:n], key=lambda k: int(k[1:])))
        if self.round_no == 1:
            self.deck = deque(fisher_yates(list(range(len(self.cards))), rand))
        cats = fisher_yates([k for k in range(n) for _ in range(HAND)], rand)
        hands = self.hands = [[0] * n for _ in range(n)]
        first = self.dealer + 1
        for i, k in enumerate(cats):
            hands[(first + i) % n][k] += 1
        self.held = [[k for k in range(n) if h[k]] for h in hands]
        self.full = sum(1 << s for s in range(n) if HAND in hands[s])
        self.prev_full = 0
        self.passes = [-1] * n
        self.npassed = self.resolved = self.voided = self.races = 0
        self.slaps = []
        self.slapped = 0
        self.end_reason = self.winner = None
        self.phase = PASSING

    def score_round(self) -> None:
        """§6.8: each seat's total is the sum printed on its parasites; the match ends after
        ``rounds`` rounds."""
        value = self.card_value
        self.totals = [sum(value[c] for c in mine) for mine in self.parasites]
        self.phase = FINISHED if self.round_no >= self.rounds else INTERMISSION

    def standings(self) -> list[tuple[int, int, int]]:
        """§6.8: (seat, rank, total) ascending by parasites; ties share a rank."""
        def key(s: int) -> tuple[int, int]:
            return self.totals[s], len(self.parasites[s]) if self.by_cards else 0
        out, rank, prev = [], 0, None
        for i, s in enumerate(sorted(range(self.n), key=lambda s: (key(s), s))):
            if key(s) != prev:
                rank, prev = i + 1, key(s)
            out.append((s, rank, self.totals[s]))
        return out

    def winners(self) -> list[int]:
        return [s for s, rank, _ in self.standings() if rank == 1]

    # ------------------------------------------------------------------ seat actions (§6.4)

    def legal(self, seat: int) -> list[int]:
        """The engine's legal_actions for the seat: a pass per kind held, then the slap."""
        if self.phase == RACE:
            return [] if self.slapped >> seat & 1 else [SLAP]
        if self.phase != PASSING:
            return []
        out = list(self.held[seat]) if self.passes[seat] < 0 else []
        if self.resolved or self.early_slap:
            out.append(SLAP)
        return out

    def act(self, seat: int, action: int) -> None:
        if action == SLAP:
            self.slap(seat)
        else:
            self.pass_card(seat, action)

    def pass_card(self, seat: int, kind: int) -> None:
        """§6.4(1): a sealed pass in the open step; the last one resolves the step."""
        self.passes[seat] = kind
        self.npassed += 1
        if self.npassed == self.n:
            self._resolve_step()

    def slap(self, seat: int, seen_step: int | None = None) -> None:
        """§6.4(3)-(4): the first slap discards the open step's passes and opens a race."""
        if self.phase == PASSING:
            self.races += 1
            self.slaps = [seat]
            self.slapped = 1 << seat
            self.first_seen = self.resolved if seen_step is None else seen_step
            self.passes = [-1] * self.n
            self.npassed = 0
            self.phase = RACE
        elif not self.slapped >> seat & 1:
            self.slaps.append(seat)
            self.slapped |= 1 << seat
            if len(self.slaps) == self.n:
                self._resolve_race()

    # ------------------------------------------------------------------ timers and follow-ups

    def timeout_step(self) -> None:
        """§6.4(2), K-12: each seat yet to pass passes a uniformly random card of its hand."""
        for seat in range(self.n):
            if self.passes[seat] < 0:
                i = self.rand(HAND)
                hand = self.hands[seat]
                k = 0
                while i >= hand[k]:
                    i -= hand[k]
                    k += 1
                self.passes[seat] = k
        self.npassed = self.n
        self._resolve_step()

    def close_race(self) -> None:
        """§6.4(4): the slap window has passed."""
        self._resolve_race()

    def advance(self) -> None:
        """Fire the follow-up that is due: the step or race timer, scoring or the next deal."""
        (self.timeout_step, self.close_race, self.score_round, self.deal_round)[self.phase]()

    @property
    def status(self) -> str:
        return "finished" if self.phase == FINISHED else "running"

    # ------------------------------------------------------------------ resolution (§6.4-§6.7)

    def _resolve_step(self) -> None:
        """§6.4(2): every pass moves to the neighbour at once; §6.7 ends a stale round."""
        hands, passes, target = self.hands, self.passes, self.target
        full = 0
        for g, k in enumerate(passes):
            hands[g][k] -= 1
        for g, k in enumerate(passes):
            h = hands[target[g]]
            h[k] += 1
            if h[k] == HAND:
                full |= 1 << target[g]
        self.held = [[k for k, c in enumerate(h) if c] for h in hands]
        self.prev_full = self.full
        self.full = full
        self.resolved += 1
        self.passes = [-1] * self.n
        self.npassed = 0
        if self.resolved + self.voided >= self.max_steps:
            self._end("stalemate", None)

    def _resolve_race(self) -> None:
        """§6.5.4-§6.5.5: judge the first slap, draw chance cards, end or reopen the step."""
        first = self.slaps[0]
        bit = 1 << first
        valid = bool(self.full & bit) or (self.grace and self.first_seen == self.resolved - 1
                                          and bool(self.prev_full & bit))
        ends = valid or self.both_penalties
        if ends:
            n = self.n
            late = [s for s in ((first + j) % n for j in range(1, n)) if not self.slapped >> s & 1]
            if not late:
                late = [self.slaps[-1]]
            elif self.one_random:
                late = [late[self.rand(len(late))]]
            for s in late:
                for _ in range(self.last_draws):
                    self._draw(s)
        if not valid:
            self.voided += 1
            for _ in range(self.false_draws):
                self._draw(first)
        self.slaps = []
        self.slapped = 0
        if ends:
            self._end("race", first if valid else None)
        elif self.resolved + self.voided >= self.max_steps:
            self._end("stalemate", None)
        else:
            self.phase = PASSING

    def _draw(self, seat: int) -> None:
        """§6.6: a parasite stays; insecticide and shower send cards to the bottom."""
        deck = self.deck
        if not deck:
            return
        card = deck.popleft()
        what = self.card_type[card]
        mine = self.parasites[seat]
        if what == PARASITE:
            mine.append(card)
            return
        if what == INSECTICIDE:
            of = self.card_kind
            pest = of[card]
            deck.extend(c for c in mine if of[c] == pest)
            self.parasites[seat] = [c for c in mine if of[c] != pest]
        else:
            deck.extend(mine)
            self.parasites[seat] = []
        deck.append(card)

    def _end(self, reason: str, winner: int | None) -> None:
        self.end_reason = reason
        self.winner = winner
        self.phase = SCORING

    # ------------------------------------------------------------------ the engine's vocabulary

    def as_dict(self, action: int) -> dict[str, Any]:
        """An action in the engine's legal_actions shape."""
        if action == SLAP:
            return {"type": "slap", "seen_step": self.resolved}
        kind = self.kinds[action]
        return {"type": "pass_card", "kind": kind, "step": self.resolved + 1, "card": cat_id(kind)}

    def hand(self, seat: int) -> tuple[str, ...]:
        """The seat's cats as the engine keeps them: kind names, sorted."""
        return tuple(self.kinds[k] for k, c in enumerate(self.hands[seat]) for _ in range(c))


def playout(options: Mapping[str, Any], players: int, rng: random.Random) -> int:
    """One whole match with the benchmark's policy; returns the number of seat actions."""
    g = Sakapuss(players, options, rng.randrange)
    g.start()
    return play_random(g, rng)


def play_random(g: Sakapuss, rng: random.Random) -> int:
    """The core's random policy to the end of the match (meow-sim in bench/engine.py): among the
    legal actions of all seats (seat by seat, each slap kept with probability SLAP_P) one
    uniformly at random; when there is none, the due follow-up fires. Draws from ``rng``
    exactly as that loop would over ``legal``, so both pick the same actions."""
    r = rng.random
    seats = range(g.n)
    moves = 0
    while g.phase != FINISHED:
        phase = g.phase
        if phase == PASSING:
            passes, held = g.passes, g.held
            slap_ok = g.resolved or g.early_slap
            count = 0
            slappers = 0
            for s in seats:
                if passes[s] < 0:
                    count += len(held[s])
                if slap_ok and r() < SLAP_P:
                    slappers |= 1 << s
                    count += 1
            i = int(r() * count)
            for s in seats:
                if passes[s] < 0:
                    h = held[s]
                    if i < len(h):
                        g.pass_card(s, h[i])
                        break
                    i -= len(h)
                if slappers >> s & 1:
                    if not i:
                        g.slap(s)
                        break
                    i -= 1
            moves += 1
        elif phase == RACE:
            slapped = g.slapped
            chosen = [s for s in seats if not slapped >> s & 1 and r() < SLAP_P]
            if chosen:
                g.slap(chosen[int(r() * len(chosen))])
                moves += 1
            else:
                g.close_race()
        else:
            g.advance()
    return moves
