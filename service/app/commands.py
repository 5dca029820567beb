"""Commands as recorded data: every append keeps the command that produced it (for `verify`)."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from service.games import registry
from service.games.kernel import model

# Stored command names come from this registry, never from import paths.
# The kernel's table commands and every game's seat commands (each game lists its own).
COMMANDS: dict[str, type] = {
    cls.__name__: cls
    for cls in (*vars(model).values(), *registry.COMMANDS)
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls not in (model.Event, model.Context)
}
assert len(set(COMMANDS.values())) == len(COMMANDS), "two commands share a recorded name"


def to_record(cmd: Any) -> dict[str, Any]:
    name = type(cmd).__name__
    if COMMANDS.get(name) is not type(cmd):
        raise ValueError(f"unregistered command {name}")
    return {"type": name, **{f.name: getattr(cmd, f.name) for f in dataclasses.fields(cmd)}}


def from_record(record: Mapping[str, Any]) -> Any:
    body = dict(record)
    cls = COMMANDS[body.pop("type")]
    return cls(**body)
