"""The Game protocol: everything the service needs from one game, as one registry entry.

The application, the API, the workers and the spec know games only through these entries
(service/games/registry.py): nothing outside a game's package branches on a game's name or type.
"""
from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from service.games.kernel.codes import DomainCode
from service.games.kernel.commands import CommandUpcaster, Recorded
from service.games.kernel.events import Upcaster
from service.games.kernel.model import Context, Event
from service.games.kernel.presentation import Presentation
from service.games.kernel.spec import GameSpec
from service.games.kernel.table import Decided
from service.games.kernel.views import Due, SeatView

Policy = Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class ActionSpec:
    """One action of a seat on the wire (``{"type": name, ...}``) and the command it becomes."""

    command: type
    fields: frozenset[str] = frozenset()  # the body fields it takes besides ``type``
    required: frozenset[str] = frozenset()
    race_tolerant: bool = False  # taken without a version precondition (racing is its point)


@dataclass(frozen=True)
class Game:
    """One game: its rules (decide/evolve), views, options, events, bots and playout core."""

    name: str  # the package, and the game part of an event schema key
    variants: tuple[str, ...]  # the presets it serves (GET /v1/variants)
    state_type: type
    decide: Callable[[Any, Any, Context], Decided]
    evolve: Callable[[Any, Event], Any]
    legal_actions: Callable[[Any, int, int], list[dict[str, Any]]]
    public_view: Callable[[Any, int, bool], dict[str, Any]]  # (state, now, with the round's record)
    private_view: Callable[[Any, int, int], dict[str, Any]]
    seat_view: Callable[[Any, int, int], SeatView]
    pending_work: Callable[[Any], tuple[Due, ...]]
    actions: Mapping[str, ActionSpec]
    event_types: Mapping[str, int]
    preset_defaults: Callable[[str], dict[str, Any]]
    resolve_options: Callable[[str, Mapping[str, Any] | None, int], tuple[dict[str, Any], list[dict[str, Any]]]]
    catalogue: Callable[[], list[dict[str, Any]]]
    bots: Mapping[str, Policy]  # strength -> choose(SeatView, rng, ...); "easy" plays absent seats
    playout: ModuleType  # the mutable, event-free core for simulations (bots, benchmarks)
    searching: frozenset[str] = frozenset()  # strengths that take a clock and a time budget
    card_pattern: str | None = None  # a hand card id in an action's ``card`` (regex, for the API schema)
    suits: tuple[str, ...] = ()  # the suits a ``called_suit`` may name
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=lambda: MappingProxyType({}))
    spec: GameSpec | None = None  # its table, actions and events for openapi.yaml (kernel/spec.py)
    presentation: Presentation | None = None
    """Its card faces, suits and words for clients (kernel/presentation.py, docs/clients.md)."""
    commands: Mapping[str, Recorded] = field(default_factory=lambda: MappingProxyType({}))
    """Its seat commands by wire name, with their versions (DESIGN rule 11; kernel/commands.py): the
    name a history records, never the class name. Every action's command must be listed."""
    command_upcasters: Mapping[tuple[str, int], CommandUpcaster] = field(default_factory=lambda: MappingProxyType({}))
    """(wire name, version) -> the upcaster lifting a recorded command's fields to version + 1."""
    codes: type[DomainCode] = DomainCode  # its own refusal codes (<game>/codes.py); the base has none
    cards_in_play: Callable[[Any], Counter[str] | None] | None = None
    """Every card of the live round, as a multiset (hands, stock, discard, decks, tableaux), or None
    while no round is live: the conformance suite checks it stays constant during a round
    (tests/conformance, docs/testing.md)."""
    resample: Callable[[Any, int | None, Any], Any] | None = None
    """OpenSpiel's ResampleFromInfostate: ``(state, viewer, rng: random.Random)`` -> a state this
    viewer (a seat, or None for a spectator, who sees no hand) cannot tell from ``state``: every card
    hidden from it (the stock, other seats' hands, their sealed passes, a chance deck) dealt again at
    random among the places hidden from it, each keeping its size, and fresh secret seeds. The
    redaction oracle (tests/conformance/redaction.py) fails for a game without one."""
    verifier: ModuleType | None = None
    """Its independent verifier module: standard library and service/verifier/primitives only, the
    presets it checks (``VARIANTS``) and what its shuffles un-shuffle to (``Shuffles``; docs/audit.md).
    Default: ``verifier.py`` in the game's package (``service.games.<name>.verifier``), which
    `meow verify` finds by file without the registry (service/verifier/games.py)."""

    def __post_init__(self) -> None:
        if self.verifier is None:
            object.__setattr__(self, "verifier", own_verifier(self.name))


def own_verifier(name: str) -> ModuleType | None:
    """The default ``Game.verifier``: ``verifier.py`` in the game's package, if it has one."""
    module = f"service.games.{name}.verifier"
    if importlib.util.find_spec(f"service.games.{name}") and importlib.util.find_spec(module):
        return importlib.import_module(module)
    return None
