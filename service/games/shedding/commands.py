"""A seat's actions in the shedding games (RULES §3.4), as commands for decide."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: str  # exact id "7H:0" or short form "7H"
    called_suit: str | None = None
    announce: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    announce: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int
    announce: bool = False


@dataclass(frozen=True, slots=True)
class TakePenalty:
    seat: int
    announce: bool = False


@dataclass(frozen=True, slots=True)
class AcceptSkip:
    seat: int
    announce: bool = False


@dataclass(frozen=True, slots=True)
class Announce:
    seat: int


ACTIONS: dict[str, type] = {"play": Play, "draw": Draw, "pass": Pass, "take_penalty": TakePenalty,
                            "accept_skip": AcceptSkip, "announce": Announce}
"""The wire name of each action (API.md ``{"type": ...}``) and its command."""
RACE_TOLERANT = frozenset({"announce"})
"""Actions taken without a version precondition: racing the table is their point (§3.8)."""
