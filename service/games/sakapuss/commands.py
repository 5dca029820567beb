"""A seat's actions in Sakapuss (RULES §6.4), as commands for decide."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from service.games.kernel.commands import Recorded


@dataclass(frozen=True, slots=True)
class PassCard:
    """Sakapuss §6.4(1): a sealed pass of one cat ``kind`` in pass step ``step``."""

    seat: int
    kind: str
    step: int


@dataclass(frozen=True, slots=True)
class Slap:
    """Sakapuss §6.4(3): a slap; ``seen_step`` is the last resolved step the client had seen."""

    seat: int
    seen_step: int


ACTIONS: dict[str, type] = {"pass_card": PassCard, "slap": Slap}
"""The wire name of each action (API.md ``{"type": ...}``) and its command."""
RACE_TOLERANT = frozenset({"slap", "pass_card"})
"""Actions taken without a version precondition: simultaneous by nature (§6.4)."""
COMMANDS: Mapping[str, Recorded] = MappingProxyType({"PassCard": Recorded(PassCard), "Slap": Recorded(Slap)})
"""Each command's recorded wire name and version (DESIGN rule 11): histories store these names, so
a class may be renamed freely; a changed field set is a new version with an upcaster."""
