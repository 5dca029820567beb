"""Frozen state of an UNO match: the table, and the one hand (round) it plays."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from service.games.kernel.catch import CallWindow
from service.games.kernel.state import SCORING, ScoreEntry, Seat, TableState, rep, round_of

PLAY = "play"  # someone's turn
OVER = "over"  # scored: the match has ended

__all__ = ["OVER", "PLAY", "SCORING", "Hand", "ScoreEntry", "Seat", "UnoMatch", "cards_in_play", "rep", "round_of"]


@dataclass(frozen=True)
class Hand:
    """The hand in play. ``target`` is RLCard's ``round.target``: the card to match, which stays
    the target after a reshuffle has put it back into the stock (RLCard reshuffles every played
    card, the target's too); ``color`` the colour in play (a wild's chosen colour)."""

    seats: tuple[int, ...]  # the seats dealt in, in seat order (RLCard's players 0..n-1)
    hands: Mapping[int, tuple[str, ...]]
    stock: tuple[str, ...]  # index 0 is the top (server-private)
    discard: tuple[str, ...]  # RLCard's played_cards: every card played since the last reshuffle
    target: str  # the card id to match ("" before the starter)
    color: str  # the colour in play
    current: int  # the seat whose turn it is
    direction: int  # +1 seat order, -1 after an odd number of reverses
    turn_id: int
    turn_seq: int
    turn_at: int
    deadline: int | None
    phase: str = PLAY
    phase_seq: int = 0
    phase_at: int = 0
    end_reason: str | None = None
    winner: int | None = None
    window: CallWindow | None = None  # with ``uno_call``: a seat's last-card window (kernel/catch.py)
    drawn: str | None = None  # ``drawn_card`` play_or_keep: the card the seat to move just drew, to play or keep


@dataclass(frozen=True)
class UnoMatch(TableState[Hand]):
    """A whole UNO match: the table (``TableState``, its ``rnd`` the hand in play) and nothing else;
    a fold of its events. One hand without ``target_points`` (RLCard's), else hand after hand
    (``intermission_deadline`` between them) until a seat reaches the target."""


def cards_in_play(m: UnoMatch) -> Counter[str] | None:
    """Every card of the hand in play (stock, discard, hands: all 108) from its deal until it is
    scored; None before the deal and once scored."""
    rnd = m.rnd
    if rnd is None or rnd.phase not in (PLAY, SCORING) or not rnd.target:
        return None
    out = Counter(rnd.stock)
    out.update(rnd.discard)
    for hand in rnd.hands.values():
        out.update(hand)
    return out
