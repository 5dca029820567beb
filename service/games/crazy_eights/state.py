"""Frozen state of a Crazy Eights match: the table, and the one hand (round) it plays."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.games.kernel.state import ScoreEntry, Seat, rep

PLAY = "play"  # someone's turn
SCORING = "scoring"  # the hand is over, the scoring job is due (§2.8 step 1)
OVER = "over"  # scored: the match has ended

__all__ = ["OVER", "PLAY", "SCORING", "EightsMatch", "Hand", "ScoreEntry", "Seat", "cards_in_play", "rep"]


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
class EightsMatch:
    """A whole Crazy Eights match (one hand); a fold of its events. The fields every game shares
    (id, variant, status, version, seats, options, round_no, rnd, ...) are what the app reads."""

    id: str
    variant: str
    name: str | None
    options: Mapping[str, Any]
    max_players: int
    status: str  # open | running | finished
    version: int
    seats: tuple[Seat, ...]
    round_no: int
    dealer: int | None
    rnd: Hand | None
    scores: tuple[ScoreEntry, ...]
    standings: tuple[Mapping[str, Any], ...]
    match_seed: str  # server-private until SeedsRevealed
    match_seed_commitment: str
    shuffle_seeds: tuple[tuple[int, str], ...]
    intermission_deadline: int | None = None  # one hand: never an intermission
    end_reason: str | None = None
    seeds_revealed: bool = False
    created_at: int = 0
    replaced: tuple[int, ...] = ()  # seats whose human left and a bot took over

    def active_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.state == "active")


def round_of(m: EightsMatch) -> Hand:
    """``m.rnd`` where a hand must be under way: every in-hand event, action, turn view and timer
    follows a deal, and a hand stays in ``rnd`` from its deal until the next one."""
    rnd = m.rnd
    assert rnd is not None, "no hand has been dealt"
    return rnd


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
