"""Frozen state of a shedding match (§3.1 round state plus the table around it)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from service.games.kernel.catch import CallWindow, CatchRule
from service.games.kernel.state import (  # noqa: F401  (re-exported for the game modules)
    INTERMISSION,
    SCORING,
    ScoreEntry,
    Seat,
    TableState,
    rep,
    rep_round,
    rep_version,
    round_of,
)

PLAY = "play"
RESPOND_SEVEN = "respond_seven"
RESPOND_SKIP = "respond_skip"
AFTER_DRAW = "after_draw"
ACE_FOLLOWUP = "ace_followup"
TURN_PHASES = frozenset({PLAY, RESPOND_SEVEN, RESPOND_SKIP, AFTER_DRAW, ACE_FOLLOWUP})


Window = CallWindow
"""§3.8: an open announcement window of one seat (the kernel's call-and-catch window)."""


_AUTOMATIC = CatchRule(2, False)


@dataclass(frozen=True)
class Rules:
    """Option values the hot paths read, derived once from the resolved options."""

    wild: str | None  # rank of the wild card if jack_wild
    draw: str | None  # rank of the draw card if seven_draw_penalty
    skip: str | None
    reverse: str | None
    extra: str | None
    lock: str | None
    lock_target: str
    jack_requires_no_match: bool
    jack_on_jack: bool
    jack_calls_on_match: bool
    lock_allows_jack: bool
    seven_count: int
    seven_accumulate: bool
    seven_answerable: bool
    final_seven: bool
    final_seven_fixed: bool
    skip_counterable: bool
    reverse_acts_as_skip: bool
    ace_optional: bool
    ace_last_wins: bool
    play_after_draw: str  # none | drawn_card_only | any
    must_play_drawn: bool
    voluntary: str  # ends_like_forced | disabled | draw_then_continue
    max_draws: int
    reshuffle: bool
    max_turns: int
    announce_mode: str  # flag_or_window | flag_only | auto (auto also when not required)
    announce_penalty: int
    grace_ms: int
    points: Mapping[str, int]
    hand_size: int
    special: frozenset[str]
    copies: int = 1  # deck_copies: legal-card enumeration dedupes copies only when > 1
    starter_apply: bool = False  # starter_special_policy == apply
    early_penalty: int = 0  # early_announce_penalty_cards (§3.8.5, §8.1.7); 0 when nobody is penalised (auto)
    catch: CatchRule = _AUTOMATIC  # §3.8.4: the penalty, automatic or by challenge (kernel/catch.py)


class Before(NamedTuple):
    """The public table as a seat found it when it decided a move (a ``Move``'s ``before``)."""

    phase: str
    top: str
    called_suit: str | None
    pending_draw: int
    pending_skip: bool
    top_live: bool
    direction: int
    counts: tuple[int, ...]  # hand size per seat number
    discard_n: int  # the discard was ``played[played_n - discard_n:played_n]``
    played_n: int
    drew_on: tuple[tuple[int, str, int], ...]


class Move(NamedTuple):
    """One public entry of the round's record (``Round.moves``, the view's ``table.moves``).

    ``kind`` is a decision of ``seat`` (play, draw, take_penalty, accept_skip, pass; ``before``
    holds what the seat saw) or a public fact: ``gain`` (cards taken that were not a decision:
    a penalty, a missed announcement) and ``reshuffle`` (seat None). ``count`` is the number of
    cards taken; ``auto`` marks a move the service made for the seat (timeout, autopilot).
    """

    seat: int | None
    kind: str
    card: str | None = None
    suit: str | None = None  # the suit a wild card called
    # (shadows tuple.count, which no code calls on a Move; the field's name is the view's)
    count: int = 0  # type: ignore[assignment]
    auto: bool = False
    before: Before | None = None


CHUNK = 64
Record = tuple  # a chunked append-only record: a tuple of tuples of at most CHUNK items


def appended(rec: Record, item: Any) -> Record:
    """``rec`` with ``item`` added, sharing its full chunks: O(len / CHUNK + CHUNK) per append
    instead of O(len), so a long round's record costs little per move."""
    if rec and len(rec[-1]) < CHUNK:
        return rec[:-1] + (rec[-1] + (item,),)
    return rec + ((item,),)


def with_last(rec: Record, item: Any) -> Record:
    """``rec`` with its last item replaced."""
    return rec[:-1] + (rec[-1][:-1] + (item,),)


def record_items(rec: Record) -> list[Any]:
    return [x for chunk in rec for x in chunk]


def record_len(rec: Record) -> int:
    return (len(rec) - 1) * CHUNK + len(rec[-1]) if rec else 0


def before_of(rnd: Round) -> Before:
    """What every viewer saw of the table just before the current seat decided."""
    played = rnd.played
    return _tuple_new(Before, (rnd.phase, rnd.discard[-1], rnd.called_suit, rnd.pending_draw,
                               rnd.pending_skip, rnd.top_live, rnd.direction, tuple(map(len, rnd.hands)),
                               len(rnd.discard), (len(played) - 1) * CHUNK + len(played[-1]) if played else 0,
                               rnd.drew_on))


def decision(seat: int, kind: str, card: str | None, count: int, auto: bool, rnd: Round) -> Move:
    """The record of a seat's decision on ``rnd`` (the evolve hot path: no keyword plumbing)."""
    return _tuple_new(Move, (seat, kind, card, None, count, auto, before_of(rnd)))


_tuple_new = tuple.__new__


class TableTop(Protocol):
    """What the legality predicates (``natural``, ``calls_suit``, ``turn_draw_keys``) read of a
    round: a ``Round``, a playout sim, or a bot's recorded moment all have it."""

    @property
    def phase(self) -> str: ...
    @property
    def discard(self) -> Sequence[str]: ...
    @property
    def called_suit(self) -> str | None: ...
    @property
    def top_live(self) -> bool: ...


@dataclass(frozen=True)
class Round:
    """§3.1: the state of the round in progress (or just ended)."""

    stock: tuple[str, ...]  # index 0 is the top of the stock
    discard: tuple[str, ...]  # last element is the top card
    hands: tuple[tuple[str, ...], ...]  # indexed by seat number
    current: int
    direction: int
    phase: str
    turn_id: int
    called_suit: str | None
    top_live: bool
    pending_draw: int
    pending_skip: bool
    drawn_card: str | None
    draws_this_turn: int
    blocked_passes: int
    window: Window | None
    armed: int | None
    phase_seq: int  # seq of the event that opened the current phase
    phase_at: int
    winner: int | None = None
    end_reason: str | None = None
    end_cause: str | None = None
    last_card: str | None = None
    deadline: int | None = None  # §2.6(4)/§3.7 step 6: the turn's deadline (TurnStarted)
    turn_seq: int = 0  # seq of the TurnStarted that opened the turn
    turn_at: int = 0  # its time
    # §7.3 H4, public facts only: (seat, key, cap) where key is a suit or a rank the seat could not
    # follow when it last drew on it (a turn draw with that suit required / that rank on top, or a
    # taken seven penalty), and cap = the cards it has gained since minus the cards of that key it
    # has played since: an upper bound on such cards in its hand if it draws only when it must.
    drew_on: tuple[tuple[int, str, int], ...] = ()
    # the public record of the round (§2.4: all of it is public): every card put on the discard
    # (starter and covered starters first, then the plays) and every move in order (``Move``),
    # each a chunked record (``appended``, ``record_items``)
    played: Record = ()
    moves: Record = ()


@dataclass(frozen=True)
class Match(TableState[Round]):
    """The whole match: the table (``TableState``, its ``rnd`` the current round) and its rules;
    a fold of its events."""

    rules: Rules
    plain_options: Mapping[str, Any] | None = None  # JSON-ready copy of options, built once (views)


def cards_in_play(m: Match) -> Counter[str] | None:
    """Every card of the live round (stock, discard, hands), from its deal until it is scored;
    None before the first deal and between rounds (the conformance suite checks it is constant)."""
    rnd = m.rnd
    if rnd is None or (rnd.phase not in TURN_PHASES and rnd.phase != SCORING):
        return None
    out = Counter(rnd.stock)
    out.update(rnd.discard)
    for hand in rnd.hands:
        out.update(hand)
    return out
