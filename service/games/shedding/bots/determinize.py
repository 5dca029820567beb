"""§7.4 determinization: full ``Match`` states consistent with one seat's ``SeatView``.

Unseen cards = the deck − the bot's hand − the public discard (the cards played since the last
reshuffle). Each active opponent gets exactly his public hand size; the rest becomes the stock
in random order. The public draw caps (``table.drew_on``) down-weight cards beyond a cap (×0.2 per
card, §7.4); ``voids`` (seat -> suits he is believed void in) does the same per suit by weighted
sampling without replacement (no bot passes voids today). ``with_hands`` deals given hands
instead: the hard bot's opponent model (``posterior``) chooses them from the round's record.

Everything built here comes from the view alone: the states are the bot's *guesses*, never the
real hidden state.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from service.games.kernel.views import SeatView
from service.games.shedding.cards import RANK, SHORT, SUIT, build_deck
from service.games.shedding.core import rules_from_options
from service.games.shedding.state import AFTER_DRAW, Match, Round, Seat, Window, rep

VOID_WEIGHT = 0.2


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _make(cls: type, **kw: Any) -> Any:
    """Construct a frozen state dataclass; fields added later without a default get None."""
    spec = _FIELDS.get(cls)
    if spec is None:
        spec = tuple((f.name, f.default is dataclasses.MISSING
                      and f.default_factory is dataclasses.MISSING)
                     for f in dataclasses.fields(cls))
        _FIELDS[cls] = spec
    args = {}
    for name, required in spec:
        if name in kw:
            args[name] = kw[name]
        elif required:
            args[name] = None
    return cls(**args)


class Determinizer:
    """Samples states for one view; the fixed parts are computed once."""

    def __init__(self, view: SeatView, voids: Mapping[int, frozenset[str]] | None = None) -> None:
        pub = view.public
        opts = dict(pub["options"])
        table = pub["table"]
        self.record = pub["record"]  # the bot's view carries the round's record (include=record)
        self.view = view
        self.voids = {s: v for s, v in (voids or {}).items() if v}
        # H4 (§7.4 inference weighting): the public caps of the view, seat -> {key: cap}
        drew = table.get("drew_on") or {}
        self.caps = {int(s): dict(v) for s, v in drew.items() if int(s) != view.seat and v}
        self.wild = opts.get("wild_rank") if opts.get("jack_wild", True) else None
        self.options = MappingProxyType(opts)
        # no announcement grace inside simulations: every simulated seat always announces, and
        # the grace only delays other seats in wall-clock time (§3.8.6), it never changes outcomes
        self.rules = rep(rules_from_options(opts), grace_ms=0)
        deck = build_deck(opts["deck_ranks"], opts["deck_copies"])
        known = Counter(view.hand) + Counter(self.record["discard"])
        unseen = []
        for c in deck:
            if known[c] > 0:
                known[c] -= 1
            else:
                unseen.append(c)
        self.unseen = unseen
        self.me = view.seat
        seats = pub["seats"]
        self.seat_rows = seats
        self.opp_counts = [(s["seat"], int(s["hand_count"])) for s in seats
                           if s["state"] == "active" and s["seat"] != view.seat]
        self.seats = tuple(_make(Seat, seat=s["seat"], name=s["name"], kind=s["kind"],
                                 strength=s.get("strength"), state=s["state"], total=int(s["score"]))
                           for s in seats)
        self.n_seats = len(seats)
        self.table = table
        self.now = view.now
        self._round_fixed = self._fixed_round_fields(view, table)

    def _fixed_round_fields(self, view: SeatView, table: Mapping[str, Any]) -> dict[str, Any]:
        pub = view.public
        r = self.rules
        discard = tuple(self.record["discard"])
        top = discard[-1]
        phase = pub["phase"]
        turn = pub.get("turn") or {}
        window = None
        for w in pub.get("announcements") or ():
            if w.get("open"):
                window = Window(w["seat"], int(w["opened_at"]), 0, bool(w["satisfied"]))
        # top_live is not in the view: a seven/skip is live while its penalty is pending, a lock
        # card is live unless it is the starter (the only exact case the view cannot tell)
        if RANK[top] == r.draw:
            live = int(table["pending_draw"]) > 0
        elif RANK[top] == r.skip:
            live = bool(table["pending_skip"])
        else:
            live = len(discard) > 1
        drawn = None
        if phase == AFTER_DRAW and turn.get("seat") == view.seat:
            playable = {SHORT[a["card"]] for a in view.legal_actions if a["type"] == "play"}
            hand = view.hand
            if r.play_after_draw == "drawn_card_only" and playable:
                drawn = next(c for c in hand if SHORT[c] in playable)
            else:
                drawn = next((c for c in hand if SHORT[c] not in playable), hand[-1] if hand else None)
        return dict(discard=discard, current=turn.get("seat", self.me), direction=int(table["direction"]),
                    phase=phase, turn_id=int(turn.get("turn_id", 0)), called_suit=table["called_suit"],
                    top_live=live, pending_draw=int(table["pending_draw"]),
                    pending_skip=bool(table["pending_skip"]), drawn_card=drawn,
                    draws_this_turn=1 if phase == AFTER_DRAW else 0, blocked_passes=0, window=window,
                    armed=pub.get("armed"), phase_seq=0, phase_at=self.now, winner=None,
                    end_reason=None, end_cause=None, last_card=top,
                    drew_on=tuple((int(s), k, int(c)) for s, v in (table.get("drew_on") or {}).items()
                                  for k, c in v.items()))

    def deal(self, rng: random.Random) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
        """Opponents' hands (their public sizes) and the stock order, from the unseen cards."""
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: dict[int, tuple[str, ...]] = {}
        if self.caps and not self.voids:
            return self._deal_capped(pool, rng)
        if not self.voids:
            i = 0
            for seat, k in self.opp_counts:
                hands[seat] = tuple(pool[i:i + k])
                i += k
            return hands, tuple(pool[i:])
        for seat, k in self.opp_counts:
            void = self.voids.get(seat, frozenset())
            keyed = sorted(((rng.random() ** (1.0 / (VOID_WEIGHT if SUIT[c] in void else 1.0)), j)
                            for j, c in enumerate(pool)), reverse=True)
            take = {j for _, j in keyed[:k]}
            hands[seat] = tuple(pool[j] for j in sorted(take))
            pool = [c for j, c in enumerate(pool) if j not in take]
        return hands, tuple(pool)

    def _deal_capped(self, pool: list[str], rng: random.Random
                     ) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
        """Deal with the public H4 caps: a card that would take an opponent past the cap of its
        suit or rank is kept with probability ``VOID_WEIGHT`` per card (§7.4 weighting)."""
        hands: dict[int, tuple[str, ...]] = {}
        wild = self.wild
        for seat, k in self.opp_counts:
            caps = self.caps.get(seat)
            if not caps:
                hands[seat] = tuple(pool[:k])
                pool = pool[k:]
                continue
            held: dict[str, int] = {}
            take: list[str] = []
            rest: list[str] = []
            for c in pool:
                if len(take) >= k:
                    rest.append(c)
                    continue
                rank = RANK[c]
                keys = (rank,) if rank == wild else (rank, SUIT[c])
                over = sum(1 for key in keys if key in caps and held.get(key, 0) >= caps[key])
                if over and rng.random() >= VOID_WEIGHT ** over:
                    rest.append(c)
                    continue
                take.append(c)
                for key in keys:
                    held[key] = held.get(key, 0) + 1
            if len(take) < k:  # not enough cards left that fit: fill up from the rejected ones
                need = k - len(take)
                take += rest[:need]
                rest = rest[need:]
            hands[seat] = tuple(take)
            rng.shuffle(rest)
            pool = rest
        return hands, tuple(pool)

    def with_hands(self, hands: Mapping[int, tuple[str, ...]], rng: random.Random
                   ) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
        """The given opponents' hands; the rest of the unseen cards is the stock, shuffled."""
        taken = Counter(c for h in hands.values() for c in h)
        stock = []
        for c in self.unseen:
            if taken[c] > 0:
                taken[c] -= 1
            else:
                stock.append(c)
        rng.shuffle(stock)
        return dict(hands), tuple(stock)

    def sample(self, rng: random.Random, hands: Mapping[int, tuple[str, ...]] | None = None) -> Match:
        """One full state consistent with the view (``hands``: the opponents' hands to use)."""
        opp, stock = self.deal(rng) if hands is None else self.with_hands(hands, rng)
        seated = tuple(tuple(self.view.hand) if s == self.me else opp.get(s, ())
                       for s in range(self.n_seats))
        rnd = _make(Round, stock=stock, hands=seated, **self._round_fixed)
        pub = self.view.public
        return _make(Match, id=pub["id"], variant=pub["variant"], name=pub.get("name"),
                     options=self.options, rules=self.rules,
                     max_players=int(self.options.get("max_players", self.n_seats)),
                     status="running", version=int(pub["version"]), seats=self.seats,
                     round_no=int(pub["round"]), dealer=self.table.get("dealer"), rnd=rnd, scores=(),
                     intermission_deadline=None, standings=(), match_seed="",
                     match_seed_commitment=pub.get("match_seed_commitment", ""), shuffle_seeds=(),
                     end_reason=None, seeds_revealed=False, created_at=0)
