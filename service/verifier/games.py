"""How the driver finds a game's verifier module without the registry: by file.

Every game package may hold ``verifier.py`` (service/games/<game>/verifier.py): standard library
and service/verifier/primitives only, declaring the presets it checks (``VARIANTS``) and the cards
its shuffles must un-shuffle to (``Shuffles``; docs/audit.md). The driver globs those files beside
its own package and imports each by its module name; importing one runs nothing but the game
package's docstring-only ``__init__`` and primitives, never the engine or the registry. A history
names its preset in ``MatchCreated.data.variant``: the module whose ``VARIANTS`` holds it checks it.
The registry exposes the same modules as ``Game.verifier`` (tests/test_game_verifiers.py holds the
two together)."""
from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
PACKAGE = "service.games"  # GAMES_DIR's module name
MODULE = "verifier"  # the file name of a game's verifier module, without ``.py``


class Shuffles(Protocol):
    """What a game's verifier module provides as ``Shuffles(options)`` for one history."""

    def expected(self, what: str) -> list[Any] | None:
        """The items the shuffle ``what`` must un-shuffle to now, in their documented order;
        None when the game documents none (the driver checks the commitment and notes it)."""

    def see(self, event: dict[str, Any]) -> None:
        """Follow one event of the record (called for every event, after its own shuffle check)."""


@cache
def modules() -> tuple[ModuleType, ...]:
    """Every game's verifier module, found by file (service/games/*/verifier.py), by path order."""
    return tuple(importlib.import_module(f"{PACKAGE}.{path.parent.name}.{MODULE}")
                 for path in sorted(GAMES_DIR.glob(f"*/{MODULE}.py")))


@cache
def by_variant() -> dict[str, ModuleType]:
    out: dict[str, ModuleType] = {}
    for module in modules():
        for variant in module.VARIANTS:
            if variant in out:
                raise ValueError(f"variant {variant!r} is checked by {out[variant].__name__} and {module.__name__}")
            out[variant] = module
    return out


def for_variant(variant: Any) -> ModuleType | None:
    """The verifier module that checks histories of ``variant``, or None."""
    return by_variant().get(variant) if isinstance(variant, str) else None
