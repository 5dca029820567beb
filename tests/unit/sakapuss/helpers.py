"""Sakapuss test driver: a match folded through engine.decide/evolve with time as data."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import pytest

from service.games import engine
from service.games.kernel.model import (
    Context,
    CreateMatch,
    DealRound,
    Event,
    FireTimer,
    JoinSeat,
    RuleViolation,
    ScoreRound,
    StartMatch,
)
from service.games.registry import resolve_options
from service.games.sakapuss.commands import PassCard, Slap
from service.games.sakapuss.evolve import fz
from service.games.sakapuss.state import SakapussMatch, rep

T0 = 1_700_000_000_000


def seeds(tag: Any, k: int = 4) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"sak/{tag}/{i}".encode()).digest() for i in range(k))


class Sak:
    """A Sakapuss match driven through the engine, recording every event."""

    def __init__(self, players: int = 3, seed: Any = 0, bots: int = 0, start: bool = True,
                 **overrides: Any) -> None:
        opts, _ = resolve_options("sakapuss", overrides, overrides.pop("max_players", 5)
                                  if "max_players" in overrides else 5)
        self.state: SakapussMatch | None = None
        self.events: list[Event] = []
        self.now = T0
        self.tag = seed
        self.n = 0
        self.do(CreateMatch("g1", "sakapuss", opts, opts["max_players"], "test"))
        for i in range(players):
            kind = "bot" if i >= players - bots else "human"
            self.do(JoinSeat(f"p{i}", kind=kind, creator=(i == 0)))
        if start:
            self.do(StartMatch())

    def ctx(self) -> Context:
        self.n += 1
        return Context(self.now, seeds(f"{self.tag}/{self.n}"))

    def do(self, cmd: Any) -> tuple[Event, ...]:
        evs = engine.decide(self.state, cmd, self.ctx())
        for e in evs:
            self.state = engine.evolve(self.state, e)
        self.events.extend(evs)
        return evs

    def refused(self, cmd: Any) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as info:
            engine.decide(self.state, cmd, self.ctx())
        assert self.state is before
        return info.value

    @property
    def m(self) -> SakapussMatch:
        assert self.state is not None
        return self.state

    @property
    def seats(self) -> tuple[int, ...]:
        return self.m.rnd.seats

    def hand(self, seat: int) -> tuple[str, ...]:
        return self.m.rnd.hands[seat]

    def set_hands(self, hands: dict[int, Sequence[str]]) -> None:
        """Test-only: replace the dealt hands (kinds) of the open round, keeping the 4-per-kind rule."""
        new = {s: tuple(sorted(h)) for s, h in hands.items()}
        self.state = rep(self.m, rnd=rep(self.m.rnd, hands=fz(new)))

    def set_deck(self, cards: Sequence[str]) -> None:
        self.state = rep(self.m, chance_deck=tuple(cards))

    def pass_all(self, kinds: dict[int, str] | None = None) -> tuple[Event, ...]:
        """Every seat passes (the given kind, or its first card); returns the last call's events."""
        kinds = kinds or {}
        evs: tuple[Event, ...] = ()
        step = self.m.rnd.step
        for s in self.seats:
            evs = self.do(PassCard(s, kinds.get(s, self.hand(s)[0]), step))
        return evs

    def types(self, evs: Sequence[Event]) -> list[str]:
        return [e.type for e in evs]

    def advance(self, ms: int) -> None:
        self.now += ms

    def fire_due(self) -> tuple[Event, ...]:
        """Advance the clock to the earliest non-bot due work and run it."""
        due = [d for d in engine.pending_work(self.m) if d.kind != "bot"]
        assert due
        d = min(due, key=lambda x: x.due_at)
        self.now = max(self.now, d.due_at)
        cmd = {"score": lambda: ScoreRound(int(d.key)), "deal": lambda: DealRound(int(d.key)),
               "timer": lambda: FireTimer(d.key)}[d.kind]()
        return self.do(cmd)


def kinds_of(g: Sak) -> tuple[str, ...]:
    return g.m.kinds


__all__ = [
    "T0",
    "DealRound",
    "FireTimer",
    "MappingProxyType",
    "PassCard",
    "Sak",
    "ScoreRound",
    "Slap",
    "kinds_of",
    "seeds",
]
