"""§7.2/§7.3 medium bot: the ordered decision chain over the heuristics H1-H13.

A pure policy ``choose(view, rng) -> action``: deterministic given the view (the rng breaks only
true ties between different cards), and it only ever returns an element of
``view.legal_actions``. ``choose_situation`` is the same chain on a ``Situation`` and the raw
action list; the hard bot uses it for its rollouts.

Chain (RULES §7.3, in order):
 1. a play that empties the hand. With one card left there is never a choice between cards, so
    the "jack finish" (classic rule 1) and "no seven finish" preferences act one card earlier,
    in step 4 (H11: a jack is kept as the finisher, H5: a seven is not kept as the last card);
 2. RESPOND_SEVEN: answer with a seven, else take the penalty (RESPOND_SKIP likewise with the skip
    rank, else accept the skip);
 3. next player at STEP3_N cards or fewer (RULES: 2; tuned to 1, see below): 8 > 7 > 9 (only if reversing
    moves the turn away from him) > a wild jack calling a suit he is likely void in (H4);
 4. a natural match from the suit held most, most points first (H1), keeping one seven (H6) and
    all jacks (H2) while the hand has 3+ cards (prsi: a 20-point jack is dumped first once an
    opponent holds DUMP_N cards or fewer, H2's exception; tuned to 1); H5 (a seven last: play it now; serve
    sevens late while 2+ are unseen), H7 (2 players: an 8 with a follow-up first), H9 (an ace
    with a follow-up first), H10 (a queen lock with its king secured first) and H11 order them;
    the last seven, an 8 without follow-up (2 players), an ace without follow-up and a queen
    lock without its king form a fallback tier that is still played before drawing (in prsi a
    draw ends the turn), see ``_tiers``;
 5. only a wild jack is legal: play it, calling per H3 (classic: H12 voluntary draw instead);
 6. otherwise draw (or the blocked pass);
 7. ACE_FOLLOWUP: steps 1, 3, 4 (first tier only), else pass if allowed, else draw;
 8. AFTER_DRAW: play the drawn card if legal and not a saved jack (H2), else pass.
H13: every play that leaves one card is chosen in its ``announce: true`` form.
H4: the view's public ``table.drew_on`` caps (a seat that drew on suit S holds at most cap S cards)
feed ``void_probs``; step 4 prefers, after the tempo bonuses, a card whose suit the next player is
likely void in (``VOID_PREF``). H2's exception is kept (``DUMP_JACKS``): a 20-point jack is dumped
once an opponent is down to 2 cards (turning it off measured within noise for going out first).
The other module constants are tuning knobs kept at the measured defaults.

Tuning for rounds won (2p prsi vs easy, bench.tournament.run_pairing, paired seeds, 4000-8000
rounds per variant; a round is won by going out, so tempo beats penalty points):
 - step 4's tie-break after the suit count: keep cards whose *rank* I hold again (they let me
   switch suits later), i.e. shed singleton ranks first (``RANK_TB``); H1's point order stays the
   next tie-break. Together with the two thresholds below: 62.6% -> 66.3% (8000 paired rounds).
 - step 3 only when the next player holds 1 card (``STEP3_N = 1``; 2 spent 8s/7s/jacks too early,
   3 measured -1.2 points) and H2's jack dump only then (``DUMP_N = 1``): jacks held are worth
   about 7 points of rounds won (HOLD_JACKS off: 55%).
 - within noise (not kept): ACE_FOLLOWUP fallback plays, 8s without follow-up first (2p),
   serving sevens earlier (SEVEN_EARLY 0/2) or not keeping one (KEEP_SEVEN), a P(opponent blocked)
   term (BLOCK_W), keeping the last jack when dumping. VOID_PREF off: -1 point.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from service.games.kernel.views import SeatView
from service.games.shedding.bots.situation import Situation, from_view
from service.games.shedding.cards import RANK, SUIT, SUITS
from service.games.shedding.state import ACE_FOLLOWUP, AFTER_DRAW, RESPOND_SEVEN, RESPOND_SKIP

Action = Mapping[str, Any]

SEVEN_EARLY = -1
KEEP_SEVEN = True
SEVEN_MULTI = None
DUMP_JACKS = True  # RULES §7.3 H2: dump a costly jack once an opponent is down to DUMP_N cards
HOLD_JACKS = True
VOID_PREF = 0.6
CALL_VOID = 0.0
STEP3_N = 1  # 2 measured -1.5 to -2 points of rounds won vs easy (2p)
ACE_FB = False  # ACE_FOLLOWUP may use the fallback tier (tried: within noise)
BLOCK_W = 0.0  # weight of P(next player cannot answer) in step 4 (tried 2, 3: within noise)
EIGHT_NOFU_FIRST = False  # 2p: an 8 without follow-up in the first tier (tried: within noise)
PTS_W = 1  # H1 point order as the tie-break after RANK_TB (0 = rng ties: within noise)
FU_W = 0.0  # weight of same-rank duplicates in the suit score (tried -0.5/-1/-2: noise; +0.5: -4 points)
DUMP_N = 1  # H2 exception threshold (opponent cards); 2 measured worse for going out first
UNSEEN_TB = 0  # final tie-break by unseen copies of the rank (tried +-1: within noise)
RANK_TB = -1  # keep cards whose rank I hold again (suit switches); +3 points vs easy
DUMP_KEEP_LAST = 0  # keep the last jack when dumping at hand <= N (3: worse, 9: noise)


def choose(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """The medium policy on a bot's view."""
    if not view.legal_actions:
        raise ValueError("no legal action")
    return dict(choose_situation(from_view(view), view.legal_actions, rng))


def choose_situation(sit: Situation, actions: Sequence[Action], rng: random.Random) -> Action:
    """The decision chain on a situation; returns one element of ``actions``."""
    plays: dict[str, list[Action]] = {}
    other: dict[str, Action] = {}
    for a in actions:
        t = a["type"]
        if t == "play":
            plays.setdefault(a["card"], []).append(a)
        else:
            other.setdefault(t, a)
    ch = _Chain(sit, plays, other, rng)
    return ch.run() or _fallback(actions)


def _fallback(actions: Sequence[Action]) -> Action:
    closing = [a for a in actions if a["type"] != "announce" and a["type"] != "challenge"]
    return (closing or list(actions))[0]


class _Chain:
    """One evaluation of the chain (a tiny object so the steps can share the lookups)."""

    __slots__ = ("_suit_counts", "hand", "n_hand", "other", "plays", "pts", "r", "rng", "s")

    def __init__(self, s: Situation, plays: dict[str, list[Action]], other: dict[str, Action],
                 rng: random.Random) -> None:
        self.s = s
        self.r = s.rules
        self.plays = plays
        self.other = other
        self.rng = rng
        self.hand = s.hand
        self.n_hand = len(s.hand)
        self.pts = s.rules.points
        self._suit_counts: dict[str, int] | None = None

    # ------------------------------------------------------------------ helpers
    def suit_counts(self) -> dict[str, int]:
        """Non-wild cards per suit in hand (H3, step 4)."""
        if self._suit_counts is None:
            c = dict.fromkeys(SUITS, 0)
            for card in self.hand:
                if RANK[card] != self.r.wild:
                    c[SUIT[card]] += 1
            self._suit_counts = c
        return self._suit_counts

    def act(self, card: str, suit: str | None = None) -> Action:
        """The listed play of ``card`` (with the flag where listed, H13; the suit if it calls)."""
        opts = self.plays[card]
        if suit is not None:
            with_suit = [a for a in opts if a.get("called_suit") == suit]
            opts = with_suit or opts
        elif any(a.get("called_suit") for a in opts):
            opts = [a for a in opts if a.get("called_suit") == self.call_suit(card)] or opts
        flagged = [a for a in opts if a.get("announce")]
        return (flagged or opts)[0]

    def call_suit(self, jack: str) -> str:
        """H3: the suit held most (after the jack), then most points in it, then the likely void."""
        counts = dict.fromkeys(SUITS, 0)
        points = dict.fromkeys(SUITS, 0)
        removed = False
        for c in self.hand:
            if c == jack and not removed:
                removed = True
                continue
            if RANK[c] == self.r.wild:
                continue
            counts[SUIT[c]] += 1
            points[SUIT[c]] += self.pts.get(RANK[c], 0)
        if CALL_VOID and self.s.caps:
            void = self.void_probs()
            return max(SUITS, key=lambda x: (counts[x] + CALL_VOID * void[x], points[x], -SUITS.index(x)))
        top = max((counts[s], points[s]) for s in SUITS)
        tied = [s for s in SUITS if (counts[s], points[s]) == top]
        if len(tied) == 1:
            return tied[0]
        void = self.void_probs()
        return max(tied, key=lambda s: (void[s], -SUITS.index(s)))

    def void_probs(self) -> dict[str, float]:
        """H4 as far as the view allows: P(next player holds no card of suit S and no wild card).

        The hypergeometric chance from the unseen cards and his public hand size, bounded by the
        public draw caps (``table.drew_on``); medium does not read the round's record
        (``table.moves``), the hard bot does (``evidence``).
        """
        s = self.s
        nxt = s.next_seat(s.seat)
        h = s.counts.get(nxt, 0)
        wild = self.r.wild
        total = s.unseen_total()
        wilds = s.unseen_rank(wild)
        out = {}
        wcap = s.cap(nxt, wild)
        if wcap is not None:
            wilds = min(wilds, wcap)
        for suit in SUITS:
            k = s.unseen_suit(suit)
            scap = s.cap(nxt, suit)
            if scap is not None and scap < k:
                # H4: he drew when this suit was required: at most ``scap`` of his cards are of it
                # (a cap of 0 with no wild card left: surely void); scale the chance accordingly
                out[suit] = _p_none(total, wilds, h) * _p_none(total, k, scap) if scap else _p_none(total, wilds, h)
            else:
                out[suit] = _p_none(total, k + wilds, h)
        return out

    def is_wild(self, card: str) -> bool:
        return RANK[card] == self.r.wild

    def best(self, cards: list[str], key: Any) -> str:
        """The card with the highest key; the rng breaks only exact ties."""
        scored = [(key(c), c) for c in sorted(cards)]
        top = max(k for k, _ in scored)
        tied = [c for k, c in scored if k == top]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    def opp_min(self) -> int:
        s = self.s
        return min((n for seat, n in s.counts.items() if seat != s.seat), default=99)

    # ------------------------------------------------------------------ the chain
    def run(self) -> Action | None:
        phase = self.s.phase
        done = self.step1()
        if done is not None:
            return done
        if phase == RESPOND_SEVEN:
            return self.respond(self.r.draw, "take_penalty")
        if phase == RESPOND_SKIP:
            return self.respond(self.r.skip, "accept_skip")
        if phase == AFTER_DRAW:
            return self.step8()
        if phase == ACE_FOLLOWUP:
            a = self.step3() or self.step4(fallback=ACE_FB)
            return a or self.other.get("pass") or self.other.get("draw")
        return self.step3() or self.step4(fallback=True) or self.step5() or self.step6()

    def step1(self) -> Action | None:
        """1. A play that empties the hand."""
        if self.n_hand != 1 or not self.plays:
            return None
        card = next(iter(self.plays))
        if RANK[card] == self.r.extra and not self.r.ace_last_wins:
            return None  # §3.5 step 5: the last ace draws instead of going out
        return self.act(card)

    def respond(self, rank: str | None, decline: str) -> Action | None:
        """2. Answer a pending seven (or a counterable skip) if possible (H6), else take it."""
        cards = [c for c in self.plays if RANK[c] == rank]
        if cards:
            counts = self.suit_counts()
            return self.act(self.best(cards, lambda c: (counts[SUIT[c]], self.pts.get(RANK[c], 0))))
        return self.other.get(decline)

    def step3(self) -> Action | None:
        """3. The next player holds 2 cards or fewer: skip > draw > reverse > void-suit jack."""
        s = self.s
        r = self.r
        nxt = s.next_seat(s.seat)
        if nxt == s.seat or s.counts.get(nxt, 99) > STEP3_N:
            return None
        counts = self.suit_counts()
        key = lambda c: (counts[SUIT[c]] - 1, self.pts.get(RANK[c], 0))  # noqa: E731
        n_active = len(s.counts)
        skip_ranks = [r.skip] if r.skip else []
        if r.reverse and n_active == 2 and r.reverse_acts_as_skip:
            skip_ranks.append(r.reverse)
        for ranks in (skip_ranks, [r.draw]):
            cards = [c for c in self.plays if RANK[c] in ranks and not self.is_wild(c)]
            if cards:
                return self.act(self.best(cards, key))
        if r.reverse and n_active >= 3:
            prev = s.next_seat(s.seat, -s.direction)
            if prev != nxt and s.counts.get(prev, 0) > 2:
                cards = [c for c in self.plays if RANK[c] == r.reverse]
                if cards:
                    return self.act(self.best(cards, key))
        jacks = [c for c in self.plays if self.is_wild(c)]
        if jacks and any(a.get("called_suit") for a in self.plays[jacks[0]]):
            void = self.void_probs()
            suit = max(SUITS, key=lambda x: (void[x], counts[x], -SUITS.index(x)))
            if void[suit] >= 0.5:
                return self.act(self.best(jacks, lambda c: self.pts.get(RANK[c], 0)), suit)
        return None

    def _tiers(self, cards: list[str]) -> tuple[list[str], list[str]]:
        """4. Split natural candidates into the preferred tier and the fallback tier."""
        s = self.s
        r = self.r
        n = self.n_hand
        sevens = sum(1 for c in self.hand if RANK[c] == r.draw) if r.draw else 0
        first: list[str] = []
        fallback: list[str] = []
        for c in cards:
            rank = RANK[c]
            if KEEP_SEVEN and n >= 3 and r.draw and rank == r.draw and sevens <= 1:
                fallback.append(c)  # H6: keep one seven as a defence
            elif rank == r.skip and len(s.counts) == 2 and not EIGHT_NOFU_FIRST and not self.has_followup(c):
                fallback.append(c)  # H7
            elif rank == r.extra and not self.has_followup(c):
                fallback.append(c)  # H9
            elif r.lock and rank == r.lock and not self.king_secured(c):
                fallback.append(c)  # H10
            else:
                first.append(c)
        return first, fallback

    def has_followup(self, card: str) -> bool:
        """H7/H9: another non-wild card playable on ``card`` (its suit or its rank)."""
        rank, suit = RANK[card], SUIT[card]
        used = False
        for c in self.hand:
            if c == card and not used:
                used = True
                continue
            if RANK[c] != self.r.wild and (SUIT[c] == suit or RANK[c] == rank):
                return True
        return False

    def n_followups(self, card: str) -> int:
        """Other non-wild cards of the card's rank (they can switch the suit later)."""
        rank = RANK[card]
        return sum(1 for c in self.hand if c != card and RANK[c] == rank and RANK[c] != self.r.wild)

    def p_blocked(self, card: str) -> float:
        """P(the next player holds no card playable on ``card``: its suit, its rank, a wild card)."""
        s = self.s
        nxt = s.next_seat(s.seat)
        h = s.counts.get(nxt, 0)
        suit, rank = SUIT[card], RANK[card]
        k = s.unseen_suit(suit) + s.unseen_rank(rank) + s.unseen_rank(self.r.wild)
        # the same-rank card of the same suit is counted twice only in a 2-copy deck; fine as a score
        return _p_none(s.unseen_total(), k, h)

    def king_secured(self, queen: str) -> bool:
        """H10: holding the lock target of the queen's suit, or it has been seen in the discard."""
        target = (self.r.lock_target, SUIT[queen])
        if any((RANK[c], SUIT[c]) == target for c in self.hand):
            return True
        seen = sum(1 for c in self.s.discard if (RANK[c], SUIT[c]) == target)
        return seen >= self.s.copies

    def step4(self, fallback: bool) -> Action | None:
        """4. The natural match from the suit held most, highest points first (H1, H2, H5, H11)."""
        r = self.r
        n = self.n_hand
        dump_jacks = DUMP_JACKS and self.pts.get(r.wild or "", 0) >= 10 and self.opp_min() <= DUMP_N  # H2 exception
        if dump_jacks and DUMP_KEEP_LAST and n <= DUMP_KEEP_LAST and sum(1 for c in self.hand if self.is_wild(c)) <= 1:
            dump_jacks = False
        if not HOLD_JACKS:
            dump_jacks = True
        cards = [c for c in self.plays if not self.is_wild(c) or dump_jacks]
        if not cards:
            return None
        first, rest = self._tiers(cards)
        pool = first or (rest if fallback else [])
        if not pool:
            return None
        counts = self.suit_counts()
        sevens_out = self.s.unseen_rank(r.draw)
        ace_bonus = {c: 1 for c in pool if RANK[c] == r.extra and self.has_followup(c)}

        def key(c: str) -> tuple:
            rank = RANK[c]
            bonus = ace_bonus.get(c, 0)
            if r.lock and rank == r.lock and self.king_secured(c):
                bonus = 1
            if rank == r.skip and len(self.s.counts) == 2 and self.has_followup(c):
                bonus = 1  # H7: with 2 players an 8 with a follow-up is a free extra card
            if r.draw and rank == r.draw:
                if n == 2 and sevens_out > 0:
                    bonus = 2  # H5: never keep a seven as the last card
                elif SEVEN_MULTI is not None and sum(1 for x in self.hand if RANK[x] == r.draw) >= 2:
                    bonus = SEVEN_MULTI
                elif n > 2 and sevens_out >= 2:
                    bonus = SEVEN_EARLY  # H5: do not serve a seven early while several are out
            if self.is_wild(c):
                bonus = 3  # H2: dump the 20-point jack once an opponent is close
            vb = 0
            if void is not None and not self.is_wild(c) and void[SUIT[c]] >= VOID_PREF:
                vb = 1
            sc: float = counts[SUIT[c]]
            if pblock is not None:  # made exactly when BLOCK_W weighs it
                sc += BLOCK_W * pblock[c]
            if FU_W:
                sc += FU_W * self.n_followups(c)
            return (bonus, vb, sc, RANK_TB * self.n_followups(c), PTS_W * self.pts.get(rank, 0),
                    UNSEEN_TB * self.s.unseen_rank(rank))

        void = self.void_probs() if VOID_PREF and self.s.caps else None
        pblock = {c: self.p_blocked(c) for c in pool} if BLOCK_W else None
        return self.act(self.best(pool, key))

    def step5(self) -> Action | None:
        """5. Only a wild jack is legal: play it with an H3 call (classic: H12 voluntary draw)."""
        jacks = [c for c in self.plays if self.is_wild(c)]
        if not jacks:
            return None
        if (self.r.jack_requires_no_match and self.n_hand >= 4 and self.opp_min() >= 3
                and "draw" in self.other):
            return self.other["draw"]  # H12
        return self.act(self.best(jacks, lambda c: self.pts.get(RANK[c], 0)))

    def step6(self) -> Action | None:
        """6. Draw (or the blocked pass)."""
        return self.other.get("draw") or self.other.get("pass")

    def step8(self) -> Action | None:
        """8. AFTER_DRAW: play the (drawn) legal card unless it is a jack being saved; else pass."""
        cards = [c for c in self.plays if not self.is_wild(c)]
        if cards:
            counts = self.suit_counts()
            return self.act(self.best(cards, lambda c: (counts[SUIT[c]], self.pts.get(RANK[c], 0))))
        jacks = [c for c in self.plays if self.is_wild(c)]
        if jacks and self.n_hand <= 2:
            return self.act(jacks[0])
        return self.other.get("pass") or self.other.get("draw") or (self.act(jacks[0]) if jacks else None)


def _p_none(total: int, k: int, h: int) -> float:
    """Hypergeometric P(a random h-card hand from ``total`` cards misses all ``k`` marked ones)."""
    if h <= 0:
        return 1.0
    if total - k < h:
        return 0.0
    p = 1.0
    for i in range(h):
        p *= (total - k - i) / (total - i)
    return p
