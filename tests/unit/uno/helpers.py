"""UNO test helpers: a dealt match through the engine, hands set by hand, one command applied."""
from __future__ import annotations

import hashlib
from types import MappingProxyType
from typing import Any

from service.games.engine import outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, StartMatch
from service.games.kernel.state import rep
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options

T0 = 1_700_000_000_000


def seeds(tag: str, k: int = 8) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


def started(players: int = 3, tag: str = "t", bots: tuple[str, ...] = (), preset: str = "uno-rlcard",
            rules_version: int = RULES_VERSION, **overrides: Any) -> Any:
    seats = max(4, players)
    opts, _ = resolve_options(preset, overrides, seats)
    m = outcome(None, CreateMatch(tag, preset, opts, seats, rules_version=rules_version),
                Context(T0, seeds(tag))).state
    for i in range(players):
        kind = "bot" if i < len(bots) else "human"
        m = outcome(m, JoinSeat(f"p{i}", kind, bots[i] if i < len(bots) else None), Context(T0, ())).state
    return outcome(m, StartMatch(), Context(T0, seeds(tag + "/start"))).state


def with_hands(m: Any, hands: dict[int, tuple[str, ...]], target: str, color: str, current: int = 0,
               **rnd: Any) -> Any:
    """The match with these hands (the other cards in the stock, in deck order), target and colour."""
    from service.games.uno.cards import DECK
    held = [c for h in hands.values() for c in h] + [target]
    stock = tuple(c for c in DECK if c not in held)
    r = rep(m.rnd, hands=MappingProxyType(dict(hands)), stock=rnd.pop("stock", stock), discard=rnd.pop("discard", (target,)),
            target=target, color=color, current=current, **rnd)
    return rep(m, rnd=r)


def act(m: Any, cmd: Any, tag: str = "x", at: int = T0) -> Any:
    """(state, events) after one command."""
    d = outcome(m, cmd, Context(at, seeds(tag)))
    return d.state, d.events
