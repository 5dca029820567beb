"""The game registry: one entry per game (service/games/<game>/game.py), looked up by variant,
by state or by name. Adding a game is adding its package and one line to ``GAMES``."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from service.games.crazy_eights.game import GAME as CRAZY_EIGHTS
from service.games.kernel.codes import DomainCode, KernelCode
from service.games.kernel.commands import KERNEL, TABLE_COMMANDS, TABLE_UPCASTERS, CommandUpcaster, Recorded
from service.games.kernel.events import Upcaster
from service.games.kernel.game import ActionSpec, Game
from service.games.kernel.model import Event, RuleViolation
from service.games.kernel.presentation import catalogue_part
from service.games.sakapuss.game import GAME as SAKAPUSS
from service.games.shedding.game import GAME as SHEDDING

GAMES: tuple[Game, ...] = (SHEDDING, SAKAPUSS, CRAZY_EIGHTS)
BY_NAME: Mapping[str, Game] = MappingProxyType({g.name: g for g in GAMES})
BY_VARIANT: Mapping[str, Game] = MappingProxyType({v: g for g in GAMES for v in g.variants})
BY_STATE: Mapping[type, Game] = MappingProxyType({g.state_type: g for g in GAMES})
assert len(BY_VARIANT) == sum(len(g.variants) for g in GAMES), "two games serve one variant"
assert KERNEL not in BY_NAME, f"a game may not be named {KERNEL!r}: it keys the table commands' upcasters"
CODES: tuple[type[DomainCode], ...] = (KernelCode, *(g.codes for g in GAMES if g.codes is not DomainCode))
"""The rules' refusal codes: the kernel's and every game's own (service/api/codes.py maps each)."""
SUITS: tuple[str, ...] = tuple(dict.fromkeys(s for g in GAMES for s in g.suits))
"""Every suit a ``called_suit`` may name, in any game."""


def card_pattern(games: Iterable[Game]) -> str:
    """One anchored regex matching a card id of any of these games (an action's ``card``)."""
    found = list(dict.fromkeys(g.card_pattern for g in games if g.card_pattern))
    if len(found) == 1:
        return f"^{found[0]}$"
    return "^(" + "|".join(f"(?:{p})" for p in found) + ")$" if found else "^$"


CARD_PATTERN = card_pattern(GAMES)


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


def collect_commands(games: Iterable[Game]) -> tuple[dict[str, Recorded], dict[type, str]]:
    """Every recorded command by wire name (the kernel's table commands and every game's), and each
    class's one wire name (DESIGN rule 11). Fails on one name for two classes or versions, one class
    under two names, an action whose command has no name, or a field the record form reserves."""
    games = tuple(games)
    by_name: dict[str, Recorded] = {}
    for source, table in ((KERNEL, TABLE_COMMANDS), *((g.name, g.commands) for g in games)):
        for name, rec in table.items():
            seen = by_name.setdefault(name, rec)
            if seen != rec:
                raise ValueError(f"command wire name {name!r} means two things: {seen} and {rec} ({source})")
            if not isinstance(rec.version, int) or rec.version < 1:
                raise ValueError(f"command {name!r} has version {rec.version!r}: versions start at 1")
            if {"type", "v"} & {f.name for f in dataclasses.fields(rec.command)}:
                raise ValueError(f"command {name!r} has a field named 'type' or 'v' (the record form's own)")
    names: dict[type, str] = {}
    for name, rec in by_name.items():
        if names.setdefault(rec.command, name) != name:
            raise ValueError(f"{rec.command.__qualname__} is recorded under two names: {names[rec.command]!r}, {name!r}")
    for g in games:
        for action, spec in g.actions.items():
            if spec.command not in names:
                raise ValueError(f"{g.name}: the command of action {action!r} has no wire name (Game.commands)")
    return by_name, names


_RECORDED, _NAMES = collect_commands(GAMES)
RECORDED_COMMANDS: Mapping[str, Recorded] = MappingProxyType(_RECORDED)
"""Wire name -> (class, current version) of every command a history may record."""
COMMAND_NAMES: Mapping[type, str] = MappingProxyType(_NAMES)
"""Command class -> its one wire name (to_record's lookup)."""


def for_variant(variant: str | None) -> Game:
    """The game of a variant name; ``unknown_variant`` for any other name, or none."""
    game = BY_VARIANT.get(variant) if variant is not None else None
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
    """GET /v1/variants: every game's presets, in registry order, each with what a client needs to
    draw and tell its game (its cards, suits, view marks and words: docs/clients.md)."""
    return [{**entry, **catalogue_part(g.presentation, g.spec)} for g in GAMES for entry in g.catalogue()]


def event_versions(game: str) -> Mapping[str, int]:
    return BY_NAME[game].event_types


def upcasters() -> dict[tuple[str, str, int], Upcaster]:
    """Every game's upcasters, keyed (game, type, version)."""
    return {(g.name, t, v): fn for g in GAMES for (t, v), fn in g.upcasters.items()}


def command_upcasters() -> dict[tuple[str, str, int], CommandUpcaster]:
    """Every recorded command's upcasters, keyed (game, name, version); the table commands' under KERNEL."""
    out = {(KERNEL, n, v): fn for (n, v), fn in TABLE_UPCASTERS.items()}
    out.update({(g.name, n, v): fn for g in GAMES for (n, v), fn in g.command_upcasters.items()})
    return out


def preset_defaults(variant: str) -> dict[str, Any]:
    """§8.4: the full default option set of any game's preset."""
    return for_variant(variant).preset_defaults(variant)


def resolve_options(variant: str, overrides: Mapping[str, Any] | None,
                    max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5 for any game's preset: (resolved, warnings) or OptionError."""
    return for_variant(variant).resolve_options(variant, overrides, max_players)
