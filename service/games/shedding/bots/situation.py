"""What a shedding bot knows at its turn, in a compact form (RULES §2.4, §7.1).

``from_view`` builds it from a ``SeatView`` (the only input of a real bot). ``from_state`` builds
the same facts for one seat of a *simulated* match (the hard bot's own determinizations and
rollouts); it reads nothing of that seat that its ``SeatView`` would not show.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.games.kernel.views import SeatView
from service.games.shedding.cards import RANK, SUIT, SUITS
from service.games.shedding.core import rules_from_options
from service.games.shedding.state import Match, Rules, round_of


@dataclass(slots=True)
class Situation:
    """The facts the medium chain reads: own hand, the table, public hand counts, the rules."""

    seat: int
    phase: str
    hand: tuple[str, ...]
    top: str
    called: str | None
    direction: int
    counts: dict[int, int]  # active seat -> public hand size
    n_seats: int
    rules: Rules
    discard: tuple[str, ...]  # public: cards played since the last reshuffle (top last)
    deck_ranks: tuple[str, ...]
    copies: int
    jack_doubles: bool
    _seen_cache: Any = None
    caps: Any = None  # public H4 facts: seat -> {suit or rank: most such cards he can hold}

    def cap(self, seat: int, key: str | None) -> int | None:
        """The public bound on ``seat``'s cards of ``key`` (a suit or a rank), if there is one."""
        if not self.caps or key is None:
            return None
        c = self.caps.get(seat)
        return None if c is None else c.get(key)

    def next_seat(self, frm: int, direction: int | None = None) -> int:
        """§2.1: the next active seat from ``frm`` in ``direction`` (default: current)."""
        d = self.direction if direction is None else direction
        i = frm
        for _ in range(self.n_seats):
            i = (i + d) % self.n_seats
            if i in self.counts:
                return i
        return frm

    def _seen(self) -> tuple[dict[str, int], dict[str, int]]:
        """Cards in hand or discard, counted per rank and per suit (wild cards excluded)."""
        if self._seen_cache is None:
            ranks: dict[str, int] = {}
            suits = dict.fromkeys(SUITS, 0)
            wild = self.rules.wild
            for part in (self.discard, self.hand):
                for c in part:
                    r = RANK[c]
                    ranks[r] = ranks.get(r, 0) + 1
                    if r != wild:
                        suits[SUIT[c]] += 1
            self._seen_cache = (ranks, suits)
        return self._seen_cache

    def unseen_rank(self, rank: str | None) -> int:
        """Cards of ``rank`` neither in hand nor in the discard (H5 counting)."""
        if rank is None or rank not in self.deck_ranks:
            return 0
        return max(0, 4 * self.copies - self._seen()[0].get(rank, 0))

    def unseen_suit(self, suit: str) -> int:
        """Non-wild cards of ``suit`` neither in hand nor in the discard (H3/H4)."""
        n_ranks = sum(1 for r in self.deck_ranks if r != self.rules.wild)
        return max(0, n_ranks * self.copies - self._seen()[1][suit])

    def unseen_total(self) -> int:
        return max(0, len(self.deck_ranks) * 4 * self.copies - len(self.discard) - len(self.hand))


_RULES_CACHE: dict[int, tuple[Mapping[str, Any], Rules]] = {}


def _rules(options: Mapping[str, Any]) -> Rules:
    key = id(options)
    hit = _RULES_CACHE.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    r = rules_from_options(options)
    if len(_RULES_CACHE) > 64:
        _RULES_CACHE.clear()
    _RULES_CACHE[key] = (options, r)
    return r


def from_view(view: SeatView) -> Situation:
    """The situation of ``view.seat`` read from its public view and own hand only."""
    pub = view.public
    opts = pub["options"]
    table = pub.get("table") or {}
    counts = {s["seat"]: int(s["hand_count"]) for s in pub["seats"] if s["state"] == "active"}
    discard = tuple((pub.get("record") or {}).get("discard") or ())
    return Situation(
        seat=view.seat, phase=pub.get("phase") or "", hand=tuple(view.hand),
        top=table.get("top_card") or (discard[-1] if discard else ""),
        called=table.get("called_suit"), direction=int(table.get("direction", 1)),
        counts=counts, n_seats=len(pub["seats"]), rules=_rules(opts), discard=discard,
        deck_ranks=tuple(opts["deck_ranks"]), copies=int(opts["deck_copies"]),
        jack_doubles=bool(opts.get("jack_ends_round_doubles", False)),
        caps={int(k): v for k, v in (table.get("drew_on") or {}).items()},
    )


def _caps(drew_on: Any) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for s, k, c in drew_on:
        out.setdefault(s, {})[k] = c
    return out


def from_state(m: Match, seat: int) -> Situation:
    """The same facts for ``seat`` of a simulated match (its own hand plus public facts)."""
    rnd = round_of(m)
    hands = rnd.hands
    counts = {s.seat: len(hands[s.seat]) if s.seat < len(hands) else 0
              for s in m.seats if s.state == "active"}
    o = m.options
    return Situation(
        seat=seat, phase=rnd.phase, hand=hands[seat], top=rnd.discard[-1], called=rnd.called_suit,
        direction=rnd.direction, counts=counts, n_seats=len(m.seats), rules=m.rules,
        discard=rnd.discard, deck_ranks=tuple(o["deck_ranks"]), copies=int(o["deck_copies"]),
        jack_doubles=bool(o.get("jack_ends_round_doubles", False)),
        caps=_caps(rnd.drew_on) if rnd.drew_on else None,
    )
