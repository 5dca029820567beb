"""The final standings of a match (§2.8 step 3), for a game that ranks seats by one key: equal
keys share a rank (1, 1, 3), each seat a row of MatchEnded's ``standings``."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def shared_ranks(ordered: Sequence[int], key: Callable[[int], Any]) -> list[tuple[int, int]]:
    """(seat, rank) for seats already in order: a seat whose ``key`` equals the one before shares
    its rank, any other ranks at its position (standard competition ranking)."""
    out: list[tuple[int, int]] = []
    rank, prev = 0, None
    for i, s in enumerate(ordered):
        k = key(s)
        if i == 0 or k != prev:
            rank, prev = i + 1, k
        out.append((s, rank))
    return out


def standing_row(m: Any, s: int, rank: int, **extra: Any) -> dict[str, Any]:
    """One seat's standing: who, its rank and total, the game's ``extra`` facts, and whether a bot
    took its human's place (K-15)."""
    seat = m.seats[s]
    return {"seat": s, "name": seat.name, "kind": seat.kind, "rank": rank, "total": seat.total, **extra,
            "replaced": s in m.replaced}
