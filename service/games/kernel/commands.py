"""Commands as recorded (DESIGN rule 11): each command class's wire name and schema version.

Every append records the command that produced it, and `verify` decides it again from that record,
so a command is stored under an explicit name from a table, never its Python class name: renaming a
class changes nothing stored. The kernel lists its table commands here; each game lists its seat
commands in its package (``COMMANDS``, on ``Game.commands``); the registry collects them all and
refuses, at import, one wire name for two classes or one class under two names. A command whose
fields change gets the next version and an upcaster keyed (game, name, version), the table
commands' under ``KERNEL`` (service/app/commands.py decodes with them; docs/audit.md).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from service.games.kernel.model import (
    Autopilot,
    CreateMatch,
    DealRound,
    FireTimer,
    JoinSeat,
    LeaveSeat,
    ScoreRound,
    StartMatch,
)

KERNEL = "kernel"
"""The game part of an upcaster key for the table commands (no game may take this name)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """One command class as recorded: the class its record decodes to and its current version."""

    command: type
    version: int = 1


CommandUpcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Rewrites the fields of one recorded command of (game, name, version v) into those of v + 1
(the record's ``type`` and ``v`` are not among them: the decoder keeps count)."""

TABLE_COMMANDS: Mapping[str, Recorded] = MappingProxyType({
    "CreateMatch": Recorded(CreateMatch), "JoinSeat": Recorded(JoinSeat), "StartMatch": Recorded(StartMatch),
    "LeaveSeat": Recorded(LeaveSeat), "ScoreRound": Recorded(ScoreRound), "FireTimer": Recorded(FireTimer),
    "Autopilot": Recorded(Autopilot), "DealRound": Recorded(DealRound),
})
"""The kernel's table commands, which every game takes (kernel/table.Rulebook routes them)."""

TABLE_UPCASTERS: Mapping[tuple[str, int], CommandUpcaster] = MappingProxyType({})
"""(name, version) -> upcaster for the table commands (none yet: every one is at version 1)."""
