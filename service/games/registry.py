"""The game registry: one entry per game (service/games/<game>/game.py), looked up by variant,
by state or by name. Adding a game is adding its package and one line to ``GAMES``."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from service.games.kernel.codes import DomainCode, KernelCode
from service.games.kernel.events import Upcaster
from service.games.kernel.game import ActionSpec, Game
from service.games.kernel.model import Event, RuleViolation
from service.games.crazy_eights.game import GAME as CRAZY_EIGHTS
from service.games.sakapuss.game import GAME as SAKAPUSS
from service.games.shedding.game import GAME as SHEDDING

GAMES: tuple[Game, ...] = (SHEDDING, SAKAPUSS, CRAZY_EIGHTS)
BY_NAME: Mapping[str, Game] = MappingProxyType({g.name: g for g in GAMES})
BY_VARIANT: Mapping[str, Game] = MappingProxyType({v: g for g in GAMES for v in g.variants})
BY_STATE: Mapping[type, Game] = MappingProxyType({g.state_type: g for g in GAMES})
assert len(BY_VARIANT) == sum(len(g.variants) for g in GAMES), "two games serve one variant"
CODES: tuple[type[DomainCode], ...] = (KernelCode, *(g.codes for g in GAMES if g.codes is not DomainCode))
"""The rules' refusal codes: the kernel's and every game's own (service/api/codes.py maps each)."""


def _merged_actions() -> dict[str, ActionSpec]:
    out: dict[str, ActionSpec] = {}
    for g in GAMES:
        for name, spec in g.actions.items():
            if name in out and out[name] != spec:
                raise ValueError(f"action {name!r} means two things")
            out[name] = spec
    return out


ACTIONS: Mapping[str, ActionSpec] = MappingProxyType(_merged_actions())
"""Every action type of every game (the API accepts these; a game's decide refuses another's)."""
SEAT_ACTIONS: Mapping[str, type] = MappingProxyType({n: a.command for n, a in ACTIONS.items()})
RACE_TOLERANT = frozenset(n for n, a in ACTIONS.items() if a.race_tolerant)
COMMANDS: tuple[type, ...] = tuple(a.command for a in ACTIONS.values())
"""The seat commands of every game (the table commands are the kernel's, kernel/model.py)."""


def for_variant(variant: str) -> Game:
    game = BY_VARIANT.get(variant)
    if game is None:
        raise RuleViolation(KernelCode.UNKNOWN_VARIANT, f"unknown variant {variant!r}", variant=variant)
    return game


def of(state: Any) -> Game:
    """The game a state belongs to (by its type: one dict lookup on the hot path)."""
    return BY_STATE[type(state)]


def of_created(event: Event) -> Game:
    """The game of a stream, from its MatchCreated."""
    return for_variant(event.data.get("variant"))


def variants_catalog() -> list[dict[str, Any]]:
    """GET /v1/variants: every game's presets, in registry order."""
    return [entry for g in GAMES for entry in g.catalogue()]


def event_versions(game: str) -> Mapping[str, int]:
    return BY_NAME[game].event_types


def upcasters() -> dict[tuple[str, str, int], Upcaster]:
    """Every game's upcasters, keyed (game, type, version)."""
    return {(g.name, t, v): fn for g in GAMES for (t, v), fn in g.upcasters.items()}


def preset_defaults(variant: str) -> dict[str, Any]:
    """§8.4: the full default option set of any game's preset."""
    return for_variant(variant).preset_defaults(variant)


def resolve_options(variant: str, overrides: Mapping[str, Any] | None,
                    max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5 for any game's preset: (resolved, warnings) or OptionError."""
    return for_variant(variant).resolve_options(variant, overrides, max_players)
