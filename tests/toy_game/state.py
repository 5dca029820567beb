"""Frozen state of a high-card match: the table and the round it plays."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from service.games.kernel.state import TableState

DEAL = "deal"  # between RoundStarted and the first turn
PLAY = "play"
SCORING = "scoring"  # the hands are empty: the scoring job is due
INTERMISSION = "intermission"
OVER = "over"  # the last round is scored


@dataclass(frozen=True)
class Round:
    seats: tuple[int, ...]  # dealt in, in seat order
    stock: tuple[str, ...]  # the undealt cards (server-private)
    hands: Mapping[int, tuple[str, ...]]
    trick: tuple[tuple[int, str], ...]  # (seat, card) laid so far in the open trick
    won: Mapping[int, tuple[str, ...]]  # the cards of the tricks each seat has won
    current: int
    turn_id: int
    turn_seq: int
    turn_at: int
    deadline: int | None
    phase: str
    phase_seq: int
    phase_at: int


@dataclass(frozen=True)
class ToyMatch(TableState):
    rnd: Round | None
    replaced: tuple[int, ...] = ()  # seats whose human left and a bot took over


def cards_in_play(m: ToyMatch) -> Counter[str] | None:
    """Every card of the dealt round (stock, hands, trick, won tricks); None outside one."""
    rnd = m.rnd
    if rnd is None or rnd.phase not in (PLAY, SCORING):
        return None
    out = Counter(rnd.stock)
    out.update(c for _, c in rnd.trick)
    for cards in (*rnd.hands.values(), *rnd.won.values()):
        out.update(cards)
    return out
