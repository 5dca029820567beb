"""Frozen state of a Crazy Eights match: the table, and the one hand (round) it plays."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from service.games.kernel.state import SCORING, ScoreEntry, Seat, TableState, rep, round_of

PLAY = "play"  # someone's turn
OVER = "over"  # scored: the match has ended

__all__ = ["OVER", "PLAY", "SCORING", "EightsMatch", "Hand", "ScoreEntry", "Seat", "cards_in_play", "rep", "round_of"]


@dataclass(frozen=True)
class Hand:
    """The hand in play. Field names follow OpenSpiel's state where they mirror it."""

    seats: tuple[int, ...]  # the seats dealt in, in seat order (clockwise)
    hands: Mapping[int, tuple[str, ...]]
    stock: tuple[str, ...]  # index 0 is the top (server-private)
    discard: tuple[str, ...]  # the last is the top card
    suit: str  # the suit to follow: the top card's, or the one an eight named
    current: int  # the seat whose turn it is
    direction: int  # +1 clockwise (seat order), -1 after an odd number of aces
    turn_id: int
    turn_seq: int
    turn_at: int
    deadline: int | None
    drawn: int = 0  # cards drawn this turn before a play (num_draws_before_play)
    owed: int = 0  # cards the current seat owes from twos (num_draws_from_twos_left)
    passes: int = 0  # consecutive passes with an empty stock (num_passes)
    plays: int = 0  # cards played this hand (num_plays, against max_turns)
    phase: str = PLAY
    phase_seq: int = 0
    phase_at: int = 0
    end_reason: str | None = None
    winner: int | None = None


@dataclass(frozen=True)
class EightsMatch(TableState[Hand]):
    """A whole Crazy Eights match (one hand; ``intermission_deadline`` stays None): the table
    (``TableState``, its ``rnd`` the hand in play) and nothing else; a fold of its events."""


def cards_in_play(m: EightsMatch) -> Counter[str] | None:
    """Every card of the hand in play (stock, discard, hands) from its deal until it is scored;
    None before the deal and once scored (the conformance suite checks it is constant)."""
    rnd = m.rnd
    if rnd is None or rnd.phase not in (PLAY, SCORING):
        return None
    out = Counter(rnd.stock)
    out.update(rnd.discard)
    for hand in rnd.hands.values():
        out.update(hand)
    return out
