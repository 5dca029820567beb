"""A seat's actions in the shedding games (RULES §3.4), as commands for decide."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from service.games.kernel.catch import COMMANDS as CATCH_COMMANDS, Challenge
from service.games.kernel.commands import Recorded


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
                            "accept_skip": AcceptSkip, "announce": Announce, "challenge": Challenge}
"""The wire name of each action (API.md ``{"type": ...}``) and its command."""
RACE_TOLERANT = frozenset({"announce", "challenge"})
"""Actions taken without a version precondition: racing the table is their point (§3.8)."""
COMMANDS: Mapping[str, Recorded] = MappingProxyType({
    "Play": Recorded(Play), "Draw": Recorded(Draw), "Pass": Recorded(Pass),
    "TakePenalty": Recorded(TakePenalty), "AcceptSkip": Recorded(AcceptSkip), "Announce": Recorded(Announce),
    **CATCH_COMMANDS,  # challenge{target} (§3.8.4), the kernel's call-and-catch command
})
"""Each command's recorded wire name and version (DESIGN rule 11): histories store these names, so
a class may be renamed freely; a changed field set is a new version with an upcaster."""
