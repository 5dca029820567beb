"""Playout core of the shedding games (RULES §3-§5): one mutable match, no events, no clock.

It plays what ``service.games`` decides for a table whose seats stay put (no joins, leaves or
timeouts): the deal and starter (§3.2), every turn phase of §3.4 with the effects of §3.5-§3.7,
draws with on-demand reshuffles (§3.6), announcement windows and arming (§3.8; the other seats'
grace is taken as run out, there is no clock), the public draw inference of ``Round.drew_on``,
scoring, eliminations and the match end (§3.9, §5.8, §4.8). The option-driven predicates are
the engine's own (``core.turn_options``, ``core.natural``, ``inference``), read through the same
attribute names: ``sim.rnd`` is the sim itself.

Differences from the engine are representation only: ``stock`` is a list with the top card
LAST (``stock_top_first()`` gives the engine's order), hands are lists, actions are tuples
(``action_of`` / ``command_tuple`` convert to and from the API's action objects), and actions are
trusted: ``step`` applies what ``legal`` listed without validating it again.

Randomness is injected (``Chance``): the benchmark and the bots use ``RngChance``; the
differential test (tests/unit/sim) replays the engine's recorded shuffles and first dealer.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from service.games.kernel.catch import CHALLENGE, CallWindow, Verdict
from service.games.kernel.table import RULES_VERSION
from service.games.shedding import inference
from service.games.shedding.cards import RANK, SUITS, build_deck
from service.games.shedding.core import (
    calls_suit,
    early_announcement,
    late_flag_counts,
    legal_cards_of,
    natural,
    next_active,
    rules_from_options,
    turn_options,
)
from service.games.shedding.scoring import default_suit, exceeds, next_dealer, round_points
from service.games.shedding.state import (
    ACE_FOLLOWUP,
    AFTER_DRAW,
    INTERMISSION,
    PLAY,
    RESPOND_SEVEN,
    RESPOND_SKIP,
    SCORING,
    TURN_PHASES,
    Match,
)

Action = tuple  # ("play", card, suit | None, announce) | ("draw",) | ("pass",) | ("take_penalty",)
#                 | ("accept_skip",) | ("announce",) | ("challenge", target)
DRAW: Action = ("draw",)
PASS: Action = ("pass",)
TAKE_PENALTY: Action = ("take_penalty",)
ACCEPT_SKIP: Action = ("accept_skip",)
ANNOUNCE: Action = ("announce",)


class Chance(Protocol):
    """Where the sim's random outcomes come from."""

    def shuffle(self, what: str, cards: Sequence[str]) -> list[str]:
        """A permutation of ``cards``, index 0 = the top (what the engine's shuffles return)."""

    def first_dealer(self, active: tuple[int, ...]) -> int:
        """§3.2 step 1: the first dealer among the active seats."""


class RngChance:
    """Uniform outcomes from a ``random.Random`` (simulations; not the engine's committed FY)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, what: str, cards: Sequence[str]) -> list[str]:
        out = list(cards)
        self.rng.shuffle(out)
        return out

    def first_dealer(self, active: tuple[int, ...]) -> int:
        return active[int(self.rng.random() * len(active))]


class SimSeat:
    """A seat as the predicates read it (``.seat``, ``.state``) plus its running total."""

    __slots__ = ("elim_round", "seat", "state", "total")

    def __init__(self, seat: int, total: int = 0) -> None:
        self.seat = seat
        self.state = "active"
        self.total = total
        self.elim_round: int | None = None


class SheddingSim:
    """A whole match of a shedding preset or option mix, played in place."""

    def __init__(self, options: Mapping[str, Any], players: int, chance: Chance,
                 totals: Sequence[int] | None = None, rules_version: int = RULES_VERSION) -> None:
        self.options = options
        self.rules_version = rules_version  # the engine's Match.rules_version (behaviour fixes)
        self.rules = r = rules_from_options(options)
        self.rnd = self  # the engine's predicates read ``m.rnd.<field>``: the sim is both
        self.chance = chance
        self.seats = [SimSeat(i, totals[i] if totals else 0) for i in range(players)]
        self.status = "running"
        self.round_no = 0
        self.dealer: int | None = None
        self.scores: list[tuple[int, dict[int, int]]] = []
        self.end_reason: str | None = None
        self._deck = build_deck(options["deck_ranks"], options["deck_copies"])
        self._auto = r.announce_mode == "auto"
        self._flagging = r.announce_mode == "flag_or_window"
        self._catching = r.catch.by_catch  # §3.8.4 challenge mode
        self._clear_round()

    @classmethod
    def from_match(cls, m: Any, chance: Chance) -> SheddingSim:
        """The sim of an engine ``Match`` (running, seats active or eliminated), e.g. a bot's
        determinization, to be played on from where it stands."""
        sim = cls(m.options, len(m.seats), chance, [s.total for s in m.seats], m.rules_version)
        sim.rules = m.rules
        for mine, s in zip(sim.seats, m.seats):
            mine.state = s.state if s.state in ("active", "eliminated") else "left"
            mine.elim_round = s.elim_round
        sim.status, sim.round_no, sim.dealer = m.status, m.round_no, m.dealer
        sim.scores = [(e.round, dict(e.points)) for e in m.scores]
        r = m.rnd
        if r is None:
            return sim
        sim.stock = list(r.stock[::-1])
        sim.discard = list(r.discard)
        sim.hands = [list(h) for h in r.hands] + [[] for _ in range(len(m.seats) - len(r.hands))]
        sim.current, sim.direction, sim.phase, sim.turn_id = r.current, r.direction, r.phase, r.turn_id
        sim.called_suit, sim.top_live, sim.pending_draw = r.called_suit, r.top_live, r.pending_draw
        sim.pending_skip, sim.drawn_card, sim.draws_this_turn = r.pending_skip, r.drawn_card, r.draws_this_turn
        sim.blocked_passes, sim.armed, sim.winner = r.blocked_passes, r.armed, r.winner
        sim.win_seat = None if r.window is None else r.window.seat
        sim.win_sat = False if r.window is None else r.window.satisfied
        sim.win_challengers = () if r.window is None else r.window.challengers
        sim.end_reason_round, sim.end_cause, sim.last_card = r.end_reason, r.end_cause, r.last_card
        sim.drew_on = r.drew_on
        return sim

    @property
    def as_match(self) -> Match:
        """The sim as the Match-reading predicates (``turn_options``, ``next_active``, a bot's
        ``from_state``) read it: it has every field they read, though it is no Match."""
        return cast("Match", self)

    def _clear_round(self) -> None:
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in self.seats]
        self.current = 0
        self.direction = 1
        self.phase = "dealing"
        self.turn_id = 0
        self.called_suit: str | None = None
        self.top_live = False
        self.pending_draw = 0
        self.pending_skip = False
        self.drawn_card: str | None = None
        self.draws_this_turn = 0
        self.blocked_passes = 0
        self.win_seat: int | None = None  # §3.8: the seat of the open announcement window
        self.win_sat = False
        self.win_challengers: tuple[int, ...] = ()  # the seats that challenged the window wrongly
        self.armed: int | None = None
        self.winner: int | None = None
        self.end_reason_round: str | None = None
        self.end_cause: str | None = None
        self.last_card: str | None = None
        self.drew_on: inference.Caps = ()

    # ---- reading -------------------------------------------------------------------------

    def stock_top_first(self) -> list[str]:
        return self.stock[::-1]

    def active(self) -> list[int]:
        return [s.seat for s in self.seats if s.state == "active"]

    def next_active(self, frm: int, direction: int) -> int:
        return next_active(self.as_match, frm, direction)

    def legal(self, seat: int) -> list[Action]:
        """What ``engine.legal_actions`` lists for the seat once every grace has run out."""
        if self.status != "running" or self.phase not in TURN_PHASES or self.seats[seat].state != "active":
            return []
        out: list[Action] = []
        hand = self.hands[seat]
        if seat == self.current:
            cards, draw, passing = turn_options(self.as_match, seat, legal_cards_of)
            if cards:
                r = self.rules
                left = len(hand) - 1
                flag = left == 1 and not self._auto
                wild = r.wild if left > 0 else None
                for c in cards:
                    if RANK[c] == wild and (r.jack_calls_on_match or not natural(c, self)):
                        for s in SUITS:
                            out.append(("play", c, s, False))
                            if flag:
                                out.append(("play", c, s, True))
                    else:
                        out.append(("play", c, None, False))
                        if flag:
                            out.append(("play", c, None, True))
            phase = self.phase
            if phase == RESPOND_SEVEN:
                out.append(TAKE_PENALTY)
            elif phase == RESPOND_SKIP:
                out.append(ACCEPT_SKIP)
            else:
                if draw:
                    out.append(DRAW)
                if passing is not None:
                    out.append(PASS)
        if self._flagging:  # noqa: SIM102 - the mode first, then when it offers the announcement
            if (self.win_seat == seat and not self.win_sat) or \
                    (len(hand) == 2 and self._can_arm(seat) and turn_options(self.as_match, seat, legal_cards_of)[0]):
                out.append(ANNOUNCE)
        w = self.win_seat
        if self._catching and w is not None and w != seat and seat not in self.win_challengers:
            out.append((CHALLENGE, w))  # §3.8.2: challenge{target}, the kernel's catch
        return out

    def _can_arm(self, seat: int) -> bool:
        return (self.current == seat and self.phase in TURN_PHASES and self.armed != seat
                and len(self.hands[seat]) == 2)

    # ---- acting --------------------------------------------------------------------------

    def step(self, seat: int, a: Action) -> None:
        """Apply one action ``legal(seat)`` listed (§3.4-§3.8)."""
        kind = a[0]
        if kind == "play":
            self._play(seat, a[1], a[2], a[3])
        elif kind == "draw":
            phase = self.phase
            self._close_windows(seat, False)
            self._draw(seat, 1, "turn")
            if phase == ACE_FOLLOWUP or self.rules.play_after_draw == "none" or self.phase != AFTER_DRAW:
                self._advance(seat)
        elif kind == "pass":
            blocked = turn_options(self.as_match, seat, legal_cards_of)[2] == "blocked"
            self._close_windows(seat, False)
            if blocked:
                self.blocked_passes += 1
            self.win_seat = None
            if blocked and self.blocked_passes >= len(self.active()):
                self._end_round("blocked", "stuck", None)
            else:
                self._advance(seat)
        elif kind == "take_penalty":
            self._close_windows(seat, False)
            amount = self.pending_draw
            self.pending_draw = 0
            self.top_live = False
            self.win_seat = None
            r = self.rules
            if r.draw and r.seven_answerable:
                self.drew_on = inference.noted(self.drew_on, seat, (r.draw,))
            self._draw(seat, amount, "seven")
            self._advance(seat)
        elif kind == "accept_skip":
            self._close_windows(seat, False)
            self.pending_skip = False
            self.top_live = False
            self.win_seat = None
            self._advance(seat)
        elif kind == CHALLENGE:
            self._challenge(seat, a[1])
        else:
            self._announce(seat)

    def _challenge(self, seat: int, target: int) -> None:
        """§3.8.4: a right challenge closes the window and the target draws; a wrong one notes the
        challenger, who draws ``false_challenge_penalty_cards``."""
        w = None if self.win_seat is None else CallWindow(self.win_seat, 0, 0, self.win_sat, self.win_challengers)
        verdict = self.rules.catch.judge((w,), seat, target)
        assert isinstance(verdict, Verdict), verdict  # actions are trusted: ``legal`` listed it
        if verdict.outcome == "caught":
            self.win_seat = None
        else:
            self.win_challengers = self.win_challengers + (seat,)
        if verdict.cards > 0:
            self._draw(verdict.victim, verdict.cards, verdict.reason)

    def _announce(self, seat: int) -> None:
        if self._flagging and self.phase in TURN_PHASES:
            if self.win_seat == seat and not self.win_sat:
                self.win_sat = True
                return
            if self._can_arm(seat):
                self.armed = seat
                return
        if early_announcement(self.rules, self.phase, self.hands, self.seats, seat, self.win_seat == seat):
            self._draw(seat, self.rules.early_penalty, "early_announcement")  # §3.8.5

    def _close_windows(self, seat: int, flag: bool) -> None:
        """§3.8.3: the seat's own flag first, then the penalty of an unsatisfied window."""
        w = self.win_seat
        if w is None or self.win_sat:
            return
        if flag and w == seat and late_flag_counts(self.rules, self.rules_version):
            self.win_sat = True
            return
        if self._catching:
            return  # closes uncaught, free (§3.8.4): the action itself closes it
        self.win_seat = None
        self._draw(w, self.rules.announce_penalty, "missed_announcement")

    def _play(self, seat: int, card: str, suit: str | None, flag: bool) -> None:
        prev_pending = self.pending_draw
        if self.win_seat is not None:
            self._close_windows(seat, flag)
        r = self.rules
        hand = self.hands[seat]
        left = len(hand) - 1
        rank = RANK[card]
        calls = rank == r.wild and calls_suit(card, left, self, r)
        armed = self.armed
        hand.remove(card)
        self.discard.append(card)
        self.called_suit = None
        self.top_live = True
        self.blocked_passes = 0
        self.win_seat = None
        self.armed = None
        self.last_card = card
        if self.drew_on:
            self.drew_on = inference.played(self.drew_on, seat, card, r.wild)
        if left:
            if left == 1:
                self.win_seat = seat
                self.win_sat = flag or armed == seat or self._auto
                self.win_challengers = ()
            if rank == r.draw:
                self.pending_draw = prev_pending + r.seven_count if r.seven_accumulate else r.seven_count
            elif rank == r.skip or (rank == r.reverse and r.reverse_acts_as_skip and len(self.active()) == 2):
                self.pending_skip = True
            elif rank == r.extra:
                self.phase = ACE_FOLLOWUP
        if calls:
            self.called_suit = suit if suit in SUITS else default_suit(hand)
        if not left:
            self._go_out(seat, card, prev_pending)
            return
        if rank == r.extra:
            return
        if rank == r.reverse:
            self.direction = -self.direction
        self._advance(seat)

    def _go_out(self, seat: int, card: str, prev_pending: int) -> None:
        """§3.9.1 with the final seven and ace_last_card_wins (§3.5 step 5)."""
        r = self.rules
        rank = RANK[card]
        if rank == r.extra and not r.ace_last_wins:
            self._draw(seat, 1, "ace_last_card")
            if self.hands[seat]:
                self._advance(seat)
                return
        elif rank == r.draw and r.final_seven:
            amount = r.seven_count if r.final_seven_fixed else (
                prev_pending + r.seven_count if r.seven_accumulate else r.seven_count)
            victim = self.next_active(seat, self.direction)
            if victim != seat:
                self._draw(victim, amount, "final_seven")
        self._end_round("out", None, seat)

    def _draw(self, seat: int, k: int, reason: str) -> None:
        """§3.6 draw_cards: reshuffle the discard minus its top on demand; a shortfall forfeits."""
        turn = reason == "turn"
        while k > 0:
            stock = self.stock
            if not stock:
                if self.rules.reshuffle and len(self.discard) > 1:
                    moved = self.discard[:-1]
                    del self.discard[:-1]
                    order = self.chance.shuffle("discard", moved)
                    order.reverse()
                    self.stock = order
                    continue
                if (turn and self.rules_version >= 2 and self.rules.play_after_draw != "none"
                        and (self.phase == PLAY or self.phase == AFTER_DRAW)):
                    # v2 (RULES §4.5.4): an empty turn draw still enters AFTER_DRAW (engine: DrawShortfall)
                    self.blocked_passes = 0
                    self.draws_this_turn += 1
                    self.win_seat = None
                    self.drawn_card = None
                    self.phase = AFTER_DRAW
                return
            n = k if k <= len(stock) else len(stock)
            hand = self.hands[seat]
            if n == 1:
                last = stock.pop()
                hand.append(last)
            else:
                for _ in range(n):
                    hand.append(stock.pop())
                last = hand[-1]
            drew_on = self.drew_on
            if turn:
                keys = inference.turn_draw_keys(self, self.rules)
                if keys:
                    drew_on = inference.noted(drew_on, seat, keys)
            if drew_on:
                drew_on = inference.gained(drew_on, seat, n)
            self.drew_on = drew_on
            if turn:
                self.blocked_passes = 0
                self.draws_this_turn += 1
                self.win_seat = None
                self.drawn_card = last
                if self.rules.play_after_draw != "none" and (self.phase == PLAY or self.phase == AFTER_DRAW):
                    self.phase = AFTER_DRAW
            k -= n

    def _advance(self, frm: int, check_limit: bool = True) -> None:
        """§3.7 advance(from): turn limit, next active seat, skips, then the next turn."""
        r = self.rules
        if check_limit and self.turn_id >= r.max_turns:
            self._end_round("blocked", "turn_limit", None)
            return
        d = self.direction
        n = self.next_active(frm, d)
        if self.pending_skip:
            if r.skip_counterable:
                self._start_turn(n, RESPOND_SKIP)
                return
            self.pending_skip = False
            n = self.next_active(n, d)
        self._start_turn(n, RESPOND_SEVEN if self.pending_draw > 0 else PLAY)

    def _start_turn(self, seat: int, phase: str) -> None:
        self.current = seat
        self.phase = phase
        self.turn_id += 1
        self.draws_this_turn = 0
        self.drawn_card = None
        self.armed = None

    def _end_round(self, reason: str, cause: str | None, winner: int | None) -> None:
        self.phase = SCORING
        self.winner = winner
        self.end_reason_round = reason
        self.end_cause = cause
        self.win_seat = None
        self.armed = None

    # ---- the table: deal, scoring, match end (§2.8) ------------------------------------------

    def deal(self) -> None:
        """§3.2: the next round: dealer, shuffle, deal, starter, first turn."""
        self.round_no += 1
        active = tuple(self.active())
        self.dealer = dealer = self._choose_dealer(active)
        self._clear_round()
        self.current = dealer
        order_top = self.chance.shuffle("deck", self._deck)
        seats = [self.next_active(dealer, 1)]
        while len(seats) < len(active):
            seats.append(self.next_active(seats[-1], 1))
        n = len(seats) * self.rules.hand_size
        for i in range(n):
            self.hands[seats[i % len(seats)]].append(order_top[i])
        rest = order_top[n:]
        policy = self.options["starter_special_policy"]
        i = 0
        if policy == "cover":
            special = self.rules.special
            while RANK[rest[i]] in special and i + 1 < len(rest):
                i += 1
        self.discard = list(rest[:i + 1])
        stock = rest[i + 1:]
        stock.reverse()
        self.stock = stock
        r = self.rules
        if policy == "apply":
            rank = RANK[rest[0]]
            self.top_live = True
            self.pending_draw = r.seven_count if rank == r.draw else 0
            self.pending_skip = rank == r.skip
            if rank == r.reverse:
                self.direction = -self.direction
        self._advance(dealer, check_limit=False)

    def _choose_dealer(self, active: tuple[int, ...]) -> int:
        """§3.2 step 1: the first dealer by chance, then dealer_rotation."""
        if self.round_no == 1 or self.dealer is None:
            return self.chance.first_dealer(active)
        last = self.scores[-1][1] if self.scores else None
        return next_dealer(self.options["dealer_rotation"], last, active, self.dealer, len(self.seats),
                           lambda s: self.next_active(s, 1))

    def score(self) -> None:
        """§3.9.2/§3.9.3 and §5.8: points, totals, eliminations, the match end."""
        o = self.options
        pts_of = self.rules.points
        active = self.active()
        values = {s: sum(pts_of[RANK[c]] for c in self.hands[s]) for s in active}
        pts = round_points(values, o, self.rules_version, self.end_reason_round, self.winner, self.last_card)
        out = []
        for s, p in pts.items():
            seat = self.seats[s]
            seat.total += p
            if exceeds(o, seat.total):
                out.append(s)
        self.scores.append((self.round_no, pts))
        mode = o["match_end_mode"]
        if mode == "elimination":
            for s in out:
                self.seats[s].state = "eliminated"
                self.seats[s].elim_round = self.round_no
            ends = len(pts) - len(out) <= 1
        else:
            ends = mode == "single_round" or bool(out)
        self.phase = INTERMISSION
        if ends:
            self.status = "finished"
            self.end_reason = "last_standing" if mode == "elimination" else mode


def action_of(a: Action) -> dict[str, Any]:
    """The API action object of a sim action (what ``engine.legal_actions`` lists)."""
    if a[0] == CHALLENGE:
        return {"type": CHALLENGE, "target": a[1]}
    if a[0] != "play":
        return {"type": a[0]}
    out: dict[str, Any] = {"type": "play", "card": a[1]}
    if a[2] is not None:
        out["called_suit"] = a[2]
    if a[3]:
        out["announce"] = True
    return out


def command_tuple(a: Mapping[str, Any]) -> Action:
    """The sim action of an API action object."""
    if a["type"] == "play":
        return ("play", a["card"], a.get("called_suit"), bool(a.get("announce", False)))
    if a["type"] == CHALLENGE:
        return (CHALLENGE, a["target"])
    return (a["type"],)


def playout(options: Mapping[str, Any], players: int, rng: random.Random) -> int:
    """One match to the end with the core's random policy (meow-sim in bench/engine.py): the current
    seat takes a uniformly random action among those that close or continue its turn (an
    announcement or a challenge only when nothing else is listed). Returns the number of moves."""
    sim = SheddingSim(options, players, RngChance(rng))
    moves = 0
    rand = rng.random
    while sim.status == "running":
        phase = sim.phase
        if phase == SCORING:
            sim.score()
            continue
        if phase == INTERMISSION or phase == "dealing":
            sim.deal()
            continue
        seat = sim.current
        acts = sim.legal(seat)
        if len(acts) > 1 and (acts[-1] is ANNOUNCE or acts[-1][0] == CHALLENGE):
            acts = [a for a in acts if a is not ANNOUNCE and a[0] != CHALLENGE] or acts
        sim.step(seat, acts[int(rand() * len(acts))])
        moves += 1
    return moves


__all__ = ["Chance", "RngChance", "SheddingSim", "action_of", "command_tuple", "playout"]
