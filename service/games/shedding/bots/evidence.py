"""§7.4 inference from what opponents did: how likely a guessed hand makes their recorded moves.

The view's public record of the round (``record.moves``: every move with the table it was made on,
``record.played``: every card put on the discard) says what each opponent chose, and when. If an
opponent decides like ``medium``, a guess at his hand is more plausible the more of his recorded
decisions ``medium`` would have made with it. ``Evidence`` scores a guess:

- the guess is his current hand plus an *acquisition order*: a priority per card. Walking the
  record backwards from now, a played card goes back into his hand, and the cards he took at a
  draw (its count is public, the cards are not) leave it, highest priority first. That gives his
  hand at each of his decisions;
- at each decision, ``medium``'s chain is run on his hand and the public table of that moment
  (``before``: phase, top, called suit, pending effects, direction, hand counts, the discard and
  the public draw caps). The move recorded gets likelihood 1 if it is medium's move (1/k if
  medium would have picked among k equal cards), else ``MISS``;
- forced moves, moves the service made for him (``auto``: timeouts, autopilot) and moves after a
  draw (``after_draw``) are skipped.

The seat's public kind and strength pick the model: a ``medium`` bot is that chain exactly
(``MISS`` 0.005 only absorbs what the record cannot show); a ``hard`` bot keeps medium's move
unless its search finds better (0.05); a human is medium-like at best (0.15); an ``easy`` bot
plays a uniformly random legal card and draws only when it must, so its plays say nothing and
its draws say all (likelihood 1/cards for a play, ``MISS`` 0.005 for a draw with a card to play).
``MISS`` keeps every model soft: a guess is never ruled out. Known limit: a card is one
acquisition; a card drawn again after a reshuffle is placed at its last acquisition only.
Only public facts are read (the record, the seats, the options, the bot's own hand).
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from service.games.shedding.bots.medium import choose_situation
from service.games.shedding.bots.situation import Situation
from service.games.shedding.cards import RANK, SHORT, SUIT, SUITS
from service.games.shedding.core import calls_suit, legal_cards_of
from service.games.shedding.state import ACE_FOLLOWUP, PLAY, RESPOND_SEVEN, RESPOND_SKIP, Rules
from service.games.shedding.views import full_moves

MISS = {"medium": 0.005, "hard": 0.05, "human": 0.15, "easy": 0.005}
"""Per opponent model: the likelihood of a recorded move the model would not have made."""
CACHE_MAX = 20000
_DECISIONS = frozenset({"play", "draw", "take_penalty", "accept_skip", "pass"})
_PHASES = frozenset({PLAY, ACE_FOLLOWUP, RESPOND_SEVEN, RESPOND_SKIP})


class _Table:
    """The attributes ``legal_cards_of`` / ``calls_suit`` read, for one recorded moment."""

    __slots__ = ("called_suit", "discard", "phase", "top_live")

    def __init__(self, phase: str, discard: tuple[str, ...], called: str | None, live: bool) -> None:
        self.phase = phase
        self.discard = discard
        self.called_suit = called
        self.top_live = live


class _Ties(random.Random):
    """An rng for the chain that records the cards it had to choose between (true ties)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.tied: list[Any] = []

    # (Random.choice takes any sized indexable; the chain hands it lists only)
    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        self.tied = list(seq)
        return seq[0]


def _count(cards: Sequence[str], wild: str | None, ranks: dict[str, int], suits: dict[str, int]) -> None:
    """Add ``cards`` to per-rank and per-suit counts (wild cards count for no suit), as
    ``Situation._seen`` counts them."""
    for c in cards:
        rank = RANK[c]
        ranks[rank] = ranks.get(rank, 0) + 1
        if rank != wild:
            suits[SUIT[c]] += 1


class _Decision:
    """One scored decision: the seat, the recorded table, the move made, the discard's counts."""

    __slots__ = ("index", "observed", "seat", "seen", "sit_args", "table")

    def __init__(self, seat: int, table: _Table, sit_args: dict[str, Any], observed: tuple) -> None:
        self.seat = seat
        self.table = table
        self.sit_args = sit_args
        self.observed = observed
        self.index = 0
        ranks: dict[str, int] = {}
        suits = dict.fromkeys(SUITS, 0)
        _count(table.discard, sit_args["rules"].wild, ranks, suits)
        self.seen = (ranks, suits)


class Evidence:
    """The recorded moves of the view's opponents, ready to score guesses at their hands."""

    def __init__(self, view: Any, rules: Rules) -> None:
        pub = view.public
        record = pub.get("record") or {}
        opts = pub["options"]
        self.rules = rules
        self.me = view.seat
        played = tuple(record.get("played") or ())
        active = {s["seat"] for s in pub["seats"] if s["state"] == "active"}
        n_seats = len(pub["seats"])
        common = dict(n_seats=n_seats, rules=rules, deck_ranks=tuple(opts["deck_ranks"]),
                      copies=int(opts["deck_copies"]),
                      jack_doubles=bool(opts.get("jack_ends_round_doubles", False)))
        # per opponent, newest first: ("play", (card, n), decision|None), ("take", k, decision|None),
        # ("decide", decision) for a decision that moves no card
        self.walks: dict[int, list[tuple]] = {}
        self.n_decisions = 0
        self.model: dict[int, str] = {}
        self.log_miss: dict[int, float] = {}
        for row in pub["seats"]:
            model = row.get("strength") if row.get("kind") == "bot" else "human"
            model = model if model in MISS else "human"
            self.model[row["seat"]] = model
            self.log_miss[row["seat"]] = math.log(MISS[model])
        self._cache: dict[tuple, float] = {}
        # per opponent, his plays in order as keys (card, n): a card he played is one acquisition
        # of it; the same card drawn again after a reshuffle is another (keyed by the card alone
        # while he holds it now)
        self.played_keys: dict[int, list[tuple[str, int]]] = {}
        for mv in full_moves(record.get("moves") or ()):
            seat = mv.get("seat")
            if seat is None or seat == self.me or seat not in active:
                continue
            kind = mv["move"]
            dec = None
            b = mv.get("before")
            if (kind in _DECISIONS and b is not None and not mv.get("auto")
                    and b["phase"] in _PHASES):
                pn, dn = int(b["played_count"]), int(b["discard_count"])
                discard = played[max(0, pn - dn):pn] or (b["top_card"],)
                counts = {s: int(c) for s, c in enumerate(b["hand_counts"]) if s in active}
                caps = {int(k): v for k, v in (b.get("drew_on") or {}).items()} or None
                observed: tuple = ((kind, SHORT[mv["card"]], mv.get("called_suit")) if kind == "play"
                                   else (kind,))
                dec = _Decision(seat, _Table(b["phase"], discard, b["called_suit"], b["top_live"]),
                                dict(common, phase=b["phase"], top=b["top_card"], called=b["called_suit"],
                                     direction=int(b["direction"]), counts=counts, discard=discard,
                                     caps=caps),
                                observed)
                dec.index = self.n_decisions
                self.n_decisions += 1
            walk = self.walks.setdefault(seat, [])
            if kind == "play":
                plays = self.played_keys.setdefault(seat, [])
                key = (mv["card"], len(plays))  # this copy of the card, as he held it until then
                plays.append(key)
                walk.append(("play", key, dec))
            elif kind in ("draw", "gain"):
                walk.append(("take", int(mv.get("count", 0)), dec))
            elif dec is not None:
                walk.append(("decide", 0, dec))
        for walk in self.walks.values():
            walk.reverse()

    def log_likelihood(self, seat: int, hand: Sequence[str], priority: Mapping[Any, float]) -> float:
        """log P(seat's recorded decisions | his current ``hand``, the acquisition ``priority``)."""
        return sum(self.explain(seat, hand, priority))

    def explain(self, seat: int, hand: Sequence[str], priority: Mapping[Any, float]) -> list[float]:
        """The log-likelihood of each of his scored decisions, newest first. ``priority`` maps
        each held card and each play key (``played_keys``) to its acquisition order."""
        walk = self.walks.get(seat)
        out: list[float] = []
        if not walk:
            return out
        held: list[Any] = list(hand)
        for kind, x, dec in walk:
            if kind == "play":
                held.append(x)
            elif kind == "take" and x:
                if x >= len(held):
                    held = []
                else:
                    held.sort(key=lambda c: priority.get(c, 0.0))
                    del held[len(held) - x:]
            if dec is not None:
                out.append(self._score(dec, [c if c.__class__ is str else c[0] for c in held]))
        return out

    def _score(self, dec: _Decision, held: list[str]) -> float:
        key = (dec.index, tuple(sorted(held)))
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) >= CACHE_MAX:
                self._cache.clear()
            got = self._cache[key] = self._score_fresh(dec, held)
        return got

    def _score_fresh(self, dec: _Decision, held: list[str]) -> float:
        r = self.rules
        tbl = dec.table
        phase = tbl.phase
        cards = legal_cards_of(held, tbl, r)
        if not cards:
            return 0.0  # nothing to choose: every recorded move is the forced one
        want = dec.observed
        miss = self.log_miss[dec.seat]
        if self.model[dec.seat] == "easy":  # a random card, a draw only when forced
            if want[0] != "play":
                return miss
            n = len({SHORT[c] for c in cards})
            return -math.log(n) if any(SHORT[c] == want[1] for c in cards) else miss
        left = len(held) - 1
        actions: list[dict[str, Any]] = []
        for c in cards:
            if calls_suit(c, left, tbl, r):
                actions.extend({"type": "play", "card": c, "called_suit": s} for s in SUITS)
            else:
                actions.append({"type": "play", "card": c})
        if phase == RESPOND_SEVEN:
            actions.append({"type": "take_penalty"})
        elif phase == RESPOND_SKIP:
            actions.append({"type": "accept_skip"})
        else:
            actions.append({"type": "draw"})
            if phase == ACE_FOLLOWUP and r.ace_optional:
                actions.append({"type": "pass"})
        ties = _Ties()
        ranks, suits = dec.seen  # the discard's part of the chain's card counting, plus the hand
        ranks, suits = dict(ranks), dict(suits)
        _count(held, r.wild, ranks, suits)
        sit = Situation(seat=dec.seat, hand=tuple(held), _seen_cache=(ranks, suits), **dec.sit_args)
        got = choose_situation(sit, actions, ties)
        if _key(got) == want:
            return -math.log(len(ties.tied)) if len(ties.tied) > 1 and _in(ties.tied, want) else 0.0
        if ties.tied and _in(ties.tied, want):
            return -math.log(len(ties.tied))
        return miss


def _key(a: Mapping[str, Any]) -> tuple:
    t = a["type"]
    return (t, SHORT[a["card"]], a.get("called_suit")) if t == "play" else (t,)


def _in(tied: list[Any], want: tuple) -> bool:
    """Whether the recorded play is one of the cards the chain tied between."""
    return want[0] == "play" and any(SHORT[c] == want[1] for c in tied if isinstance(c, str))
