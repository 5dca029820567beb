"""Commands as recorded data: every append keeps the command that produced it (for `verify`).

Record form (docs/audit.md): ``{"type": wire name, "v": version, ...fields}``, the name and version
from the registry's command table (DESIGN rule 11; kernel/commands.py), never the class name. A
record without ``v`` is version 1 (every history stored before versions were recorded). An older
version is lifted field by field by the upcasters keyed (game, name, version), the table commands'
under ``KERNEL``, before it is decoded. An unknown name, a version newer than the table's, a missing
upcaster or fields that do not fit fail closed with ``UnreadableCommand``, as the event codec
refuses an event it cannot read (``CorruptEvent``).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from service.games import registry
from service.games.kernel.commands import (
    KERNEL,
    TABLE_COMMANDS,
    CommandUpcaster,
    Recorded,
)

COMMANDS: Mapping[str, Recorded] = registry.RECORDED_COMMANDS
NAMES: Mapping[type, str] = registry.COMMAND_NAMES
UPCASTERS: dict[tuple[str, str, int], CommandUpcaster] = registry.command_upcasters()
"""(game, name, version) -> upcaster; a dict, so a test may plant one."""


class UnreadableCommand(ValueError):
    """A recorded command that cannot be decoded: names its wire name, version and why."""

    def __init__(self, name: object, version: object, reason: str) -> None:
        super().__init__(f"recorded command {name!r} v{version}: {reason}")
        self.name = name
        self.version = version
        self.reason = reason


def to_record(cmd: Any) -> dict[str, Any]:
    """The stored form of a command: its wire name, its current version and its fields."""
    name = NAMES.get(type(cmd))
    if name is None:
        raise ValueError(f"unregistered command {type(cmd).__qualname__}: list it with a wire name")
    return {"type": name, "v": COMMANDS[name].version,
            **{f.name: getattr(cmd, f.name) for f in dataclasses.fields(cmd)}}


def from_record(record: Mapping[str, Any], game: str | None = None) -> Any:
    """The command a record holds, upcast to its current version. ``game`` (the stream's game) names
    the upcasters of a game's own command; only an old version needs it."""
    if not isinstance(record, Mapping):
        raise UnreadableCommand(None, None, f"not an object but {type(record).__name__}")
    body = dict(record)
    name = body.pop("type", None)
    version = body.pop("v", 1)
    entry = COMMANDS.get(name) if isinstance(name, str) else None
    if entry is None:
        raise UnreadableCommand(name, version, "unknown command")
    if type(version) is not int or version < 1:
        raise UnreadableCommand(name, version, "the version is not a positive integer")
    if version > entry.version:
        raise UnreadableCommand(name, version, f"newer than the known version {entry.version}")
    owner = KERNEL if name in TABLE_COMMANDS else game
    while version < entry.version:
        lift = UPCASTERS.get((owner, name, version)) if owner is not None else None
        if lift is None:
            raise UnreadableCommand(name, version, f"no upcaster to version {version + 1} (game {owner})")
        try:
            body = dict(lift(body))
        except Exception as exc:
            raise UnreadableCommand(name, version, f"its upcaster failed: {type(exc).__name__}: {exc}") from exc
        version += 1
    try:
        return entry.command(**body)
    except TypeError as exc:
        raise UnreadableCommand(name, version, f"its fields do not fit: {exc}") from exc
