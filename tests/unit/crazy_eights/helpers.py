"""Crazy Eights test helpers: a dealt match through the engine, and tables set up by hand."""
from __future__ import annotations

import hashlib
from types import MappingProxyType
from typing import Any

from service.games.engine import legal_actions, outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, StartMatch
from service.games.kernel.state import rep
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options

T0 = 1_700_000_000_000


def seeds(tag: str, k: int = 8) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


def started(players: int = 3, tag: str = "t", bots: tuple[str, ...] = (), **overrides: Any) -> Any:
    opts, _ = resolve_options("crazy-eights", overrides, 5)
    m = outcome(None, CreateMatch(tag, "crazy-eights", opts, 5, rules_version=RULES_VERSION),
                Context(T0, seeds(tag))).state
    for i in range(players):
        kind = "bot" if i < len(bots) else "human"
        m = outcome(m, JoinSeat(f"p{i}", kind, bots[i] if i < len(bots) else None), Context(T0, ())).state
    return outcome(m, StartMatch(), Context(T0, seeds(tag + "/start"))).state


def run(m: Any, cmd: Any, at: int = T0, tag: str = "x") -> Any:
    """The outcome (events, state) of one command."""
    return outcome(m, cmd, Context(at, seeds(tag)))


def table(m: Any, hands: dict[int, list[str]], top: str, stock: list[str], current: int = 0,
          suit: str | None = None, **rnd: Any) -> Any:
    """The match with the hand set up as given (the rest of the round kept)."""
    r = rep(m.rnd, hands=MappingProxyType({s: tuple(h) for s, h in hands.items()}), discard=(top,),
            stock=tuple(stock), suit=suit or top[-3], current=current, **rnd)
    return rep(m, rnd=r)


def types(m: Any, seat: int) -> list[Any]:
    return [(a["type"], a.get("card"), a.get("called_suit")) for a in legal_actions(m, seat, T0)]
