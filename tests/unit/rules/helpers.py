"""Test helpers: build matches from chosen seeds or from hand-crafted deals (evolve only)."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from service.games.engine import decide, evolve
from service.games.kernel import randomness
from service.games.kernel.model import Context, CreateMatch, Event, JoinSeat, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import preset_defaults, resolve_options
from service.games.shedding.cards import build_deck
from service.games.shedding.state import Match

T0 = 1_700_000_000_000


def seeds(tag: Any, k: int = 6) -> tuple[bytes, ...]:
    """Deterministic test seeds."""
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


def apply(state: Match | None, events: Sequence[Event]) -> Match:
    for ev in events:
        state = evolve(state, ev)
    assert state is not None
    return state


class Game:
    """A match driven through decide/evolve, recording every event."""

    def __init__(self, players: int = 2, seed: Any = 0, bots: int = 0, variant: str = "prsi",
                 max_players: int | None = None, rules_version: int = RULES_VERSION, **overrides: Any) -> None:
        if max_players is None:  # the largest table the deck allows (§8.5 rule 1), at most 5
            o = {**preset_defaults(variant), **overrides}
            deck = len(o["deck_ranks"]) * 4 * o["deck_copies"]
            max_players = max(players, min(5, (deck - 4) // o["hand_size"]))
        opts, _ = resolve_options(variant, overrides, max_players)
        self.state: Match | None = None
        self.events: list[Event] = []
        self.now = T0
        self.tag = seed
        self.n = 0
        self.do(CreateMatch("g1", variant, opts, max_players, "test", rules_version))
        for i in range(players):
            kind = "bot" if i >= players - bots else "human"
            self.do(JoinSeat(f"p{i}", kind=kind, creator=(i == 0)))

    def ctx(self, now: int | None = None) -> Context:
        self.n += 1
        return Context(self.now if now is None else now, seeds(f"{self.tag}/{self.n}"))

    def do(self, cmd: Any, now: int | None = None) -> tuple[Event, ...]:
        evs = decide(self.state, cmd, self.ctx(now))
        self.state = apply(self.state, evs)
        self.events.extend(evs)
        return evs

    def start(self) -> tuple[Event, ...]:
        return self.do(StartMatch())

    @property
    def m(self) -> Match:
        assert self.state is not None
        return self.state


def crafted(players: int, hands: Sequence[Sequence[str]], starter: str,
            stock: Sequence[str] | None = None, first: int = 0, dealer: int | None = None,
            variant: str = "prsi", deadline: int | None = None, **overrides: Any) -> Game:
    """A running round with exactly these hands, starter and stock (top first), via evolve only."""
    g = Game(players, variant=variant, **overrides)
    m = g.m
    deck = build_deck(m.options["deck_ranks"], m.options["deck_copies"])
    used = [c for h in hands for c in h] + [starter]
    if stock is None:
        stock = [c for c in deck if c not in used]
    order = [c for h in hands for c in h] + [starter] + list(stock)
    if dealer is None:
        dealer = (first - 1) % players
    seq = m.version
    seed = seeds("crafted")[0]

    def ev(type_: str, seat: int | None, data: dict, **kw: Any) -> Event:
        nonlocal seq
        seq += 1
        return Event(seq, type_, g.now, 1, seat, data, **kw)

    evs = [
        ev("RoundStarted", None, {"round": 1, "dealer": dealer, "active_seats": list(range(players)),
                                  "direction": 1}),
        ev("ShuffleCommitted", None, {"what": "deck", "count": len(order),
                                      "commitment": randomness.commitment(seed),
                                      "algorithm": randomness.ALGORITHM},
           secret={"seed": seed.hex(), "order": order}),
        ev("CardsDealt", None, {"hand_sizes": {str(i): len(h) for i, h in enumerate(hands)}},
           to_seat={i: {"cards": list(h)} for i, h in enumerate(hands)}),
        ev("StarterTurned", None, {"card": starter}),
        ev("TurnStarted", first, {"seat": first, "turn_id": 1, "phase": "play", "deadline": deadline}),
    ]
    g.state = apply(g.state, evs)
    g.events.extend(evs)
    return g


def deck_of(m: Match) -> list[str]:
    return sorted(build_deck(m.options["deck_ranks"], m.options["deck_copies"]))


def conserved(m: Match) -> bool:
    rnd = m.rnd
    if rnd is None:
        return True
    cards = list(rnd.stock) + list(rnd.discard) + [c for h in rnd.hands for c in h]
    if not cards and rnd.phase == "dealing":
        return True  # between RoundStarted and the deck's ShuffleCommitted
    return sorted(cards) == deck_of(m)


def to_command(seat: int, action: dict) -> Any:
    from service.games.registry import SEAT_ACTIONS
    a = dict(action)
    cls = SEAT_ACTIONS[a.pop("type")]
    return cls(seat=seat, **a)
