"""Shared vocabulary of the pure rules core: events, commands, context, rule violations.

Events are past tense (``CardPlayed``), commands imperative (``Play``). Everything here is a
frozen dataclass holding only JSON-able values, tuples and read-only mappings.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from service.games.kernel.codes import DomainCode

EMPTY: Mapping[Any, Any] = MappingProxyType({})  # read-only and empty: fits any key type


@dataclass(frozen=True, slots=True)
class Event:
    """One fact appended to a game's stream.

    ``data`` is public. ``to_seat`` maps a seat number to private fields only that seat may
    see (a drawn card, a dealt hand). ``secret`` is server-private (seeds, permutations, stock
    order): nobody sees it while the match runs; the history shows it once the match is over.
    """

    seq: int
    type: str
    at: int  # milliseconds since the Unix epoch, as passed in by the caller (time is data)
    round: int
    seat: int | None
    data: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    to_seat: Mapping[int, Mapping[str, Any]] = field(default_factory=lambda: EMPTY)
    secret: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


def seat_of(e: Event) -> int:
    """The seat of an event that a seat's move or its turn caused: such an event always names it."""
    seat = e.seat
    assert seat is not None, f"{e.type} at {e.seq} names no seat"
    return seat


@dataclass(frozen=True, slots=True)
class Context:
    """What the application hands to ``decide`` besides the command: the time and fresh seeds.

    Every shuffle consumes one seed from ``seeds`` in order. If a command needs more seeds
    than given, ``decide`` raises ``NeedMoreSeeds`` and the caller retries with more.
    """

    now: int
    seeds: tuple[bytes, ...] = ()


class NeedMoreSeeds(Exception):
    """Raised by ``decide`` when the command needs more fresh seeds than the context holds."""

    def __init__(self, needed: int) -> None:
        super().__init__(f"need at least {needed} seeds")
        self.needed = needed


class RuleViolation(Exception):
    """A refused command, named by a stable domain ``code`` (``not_your_turn``, ``game_full``).

    The code is a declared ``DomainCode`` member (kernel/codes.py; a plain string is a TypeError).
    The rules never choose a transport status: the API maps each code to one HTTP status at
    the edge (service/api/codes.py), and a test checks that every declared code has a status.
    """

    def __init__(self, code: DomainCode, detail: str, **extra: Any) -> None:
        if not isinstance(code, DomainCode):
            raise TypeError(f"{code!r} is not a declared DomainCode member (service/games/kernel/codes.py)")
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


# ---------------------------------------------------------------- commands: table level


@dataclass(frozen=True, slots=True)
class CreateMatch:
    game_id: str
    variant: str
    options: Mapping[str, Any]  # fully resolved (preset + overrides), already validated
    max_players: int
    name: str | None = None
    rules_version: int = 1  # the behaviour version (common.RULES_VERSION); 1 for old records
    # the match seed is ctx.seeds[0]


@dataclass(frozen=True, slots=True)
class JoinSeat:
    name: str
    kind: str = "human"  # "human" | "bot"
    strength: str | None = None  # bots only
    creator: bool = False  # taken with the owner token (RULES §3.2 first_dealer = creator)


@dataclass(frozen=True, slots=True)
class StartMatch:
    pass


@dataclass(frozen=True, slots=True)
class LeaveSeat:
    seat: int
    reason: str = "left"  # "left" | "absent_removed"


@dataclass(frozen=True, slots=True)
class ScoreRound:
    round: int


@dataclass(frozen=True, slots=True)
class FireTimer:
    """A due timer: ``key`` names what it guards (a turn, a pass step, a slap race, an absence).

    ``decide`` returns no events only by raising ``RuleViolation(KernelCode.NOTHING_TO_DO)`` when what
    the timer guards has already closed; a timer that fires early waits (same code).
    """

    key: str


@dataclass(frozen=True, slots=True)
class Autopilot:
    """§2.7 ``absent_policy = bot_autopilot``: the action an ``easy`` bot chose for an absent seat.

    ``action`` is an action object as listed by ``legal_actions`` (``{"type": "play", ...}``). Its
    events are marked ``auto``, so they never clear the absence as the human's own actions do.
    """

    seat: int
    action: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class DealRound:
    round: int  # the round number to deal
