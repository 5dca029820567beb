"""The Game entry: everything the service needs from one game, as one registry entry.

The application, the API, the workers and the spec know games only through these entries
(service/games/registry.py): nothing outside a game's package branches on a game's name or type.

Like boardgame.io's Game, an entry names only what its game alone can say (its name, state type,
rules, views, actions, events and options); everything most games share has a default filled in
here: the seat's bot view, the recorded commands, the table events, a random ``easy`` bot, no
searching strength, no refusal codes of its own, no upcasters (docs/adding-a-game.md).
"""
from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

from service.games.kernel.bots import uniform
from service.games.kernel.codes import DomainCode
from service.games.kernel.commands import CommandUpcaster, Recorded
from service.games.kernel.events import TABLE_EVENTS, Upcaster
from service.games.kernel.model import Context, Event
from service.games.kernel.presentation import Presentation
from service.games.kernel.spec import GameSpec
from service.games.kernel.table import Decided
from service.games.kernel.views import Due, SeatView

Policy = Callable[..., dict[str, Any]]
"""A bot: ``choose(SeatView, rng, ...) -> action`` (a searching strength also takes clock, budget_ms)."""
Resolved = tuple[dict[str, Any], list[dict[str, Any]]]
"""§8.5: (resolved options, warnings)."""
Decide = Callable[[Any, Any, Context], Decided]
Evolve = Callable[[Any, Event], Any]
LegalActions = Callable[[Any, int, int], list[dict[str, Any]]]
PublicView = Callable[[Any, int, bool], dict[str, Any]]  # (state, now, with the round's record)
PrivateView = Callable[[Any, int, int], dict[str, Any]]  # (state, seat, now)
BotView = Callable[[Any, int, int], SeatView]
PendingWork = Callable[[Any], tuple[Due, ...]]
CardsInPlay = Callable[[Any], "Counter[str] | None"]
Resample = Callable[[Any, "int | None", Any], Any]


@dataclass(frozen=True)
class ActionSpec:
    """One action of a seat on the wire (``{"type": name, ...}``) and the command it becomes."""

    command: type
    fields: frozenset[str] = frozenset()  # the body fields it takes besides ``type``
    required: frozenset[str] = frozenset()
    race_tolerant: bool = False  # taken without a version precondition (racing is its point)


class OnePreset(Protocol):
    """The options module of a game with one preset (as sakapuss/options.py): ``Game.options``
    takes the module itself, and the entry serves its one variant from it."""

    VARIANT: str

    def defaults(self) -> dict[str, Any]: ...

    def resolve(self, overrides: Mapping[str, Any] | None, max_players: int) -> Resolved: ...

    def catalog_entry(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Presets:
    """The presets of a game with several (as the shedding games): the variants it serves and, for
    any of them, the defaults (§8.4), the resolution (§8.5) and the catalogue (GET /v1/variants)."""

    variants: tuple[str, ...]
    defaults: Callable[[str], dict[str, Any]]
    resolve: Callable[[str, Mapping[str, Any] | None, int], Resolved]
    catalogue: Callable[[], list[dict[str, Any]]]


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_SEAT_VIEW_OWN = ("seat", "hand", "legal_actions")


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game: its rules (decide/evolve), views, options, events, bots and playout core."""

    # ---- what only the game can say
    name: str  # the package, and the game part of an event schema key
    state_type: type
    decide: Decide
    evolve: Evolve
    legal_actions: LegalActions
    public_view: PublicView
    private_view: PrivateView  # the seat token's ``you``: at least ``hand`` and ``legal_actions``
    pending_work: PendingWork
    actions: Mapping[str, ActionSpec]
    event_types: Mapping[str, int]
    """Its own event types with their versions; the table events every game writes
    (kernel/events.py ``TABLE_EVENTS``) are added here."""
    options: OnePreset | Presets
    """Its options module when it has one preset (the entry serves ``VARIANT``), or its ``Presets``."""
    spec: GameSpec | None = None  # its table, actions and events for openapi.yaml (kernel/spec.py)
    presentation: Presentation | None = None
    """Its card faces, suits and words for clients (kernel/presentation.py, docs/clients.md); the
    conformance suite fails a game whose cards, events or end reasons it does not cover."""

    # ---- what most games share: the defaults
    bots: Mapping[str, Policy] = field(default_factory=lambda: MappingProxyType({"easy": uniform.choose}))
    """strength -> choose(SeatView, rng, ...); "easy" plays absent seats (default: a random legal action)."""
    searching: frozenset[str] = frozenset()  # strengths that take a clock and a time budget
    bot_view: BotView | None = None
    """The seat's bot input when it is not the default: the public view (no record), the hand and
    legal actions of the private view, and the rest of the private view as ``own``."""
    commands: Mapping[str, Recorded] = field(default_factory=lambda: MappingProxyType({}))
    """Its seat commands by wire name, with their versions (DESIGN rule 11; kernel/commands.py): the
    name a history records, never the class name. Every action's command must be listed; left
    empty, each action's command is recorded under the action's own wire name, version 1."""
    command_upcasters: Mapping[tuple[str, int], CommandUpcaster] = field(default_factory=lambda: MappingProxyType({}))
    """(wire name, version) -> the upcaster lifting a recorded command's fields to version + 1."""
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=lambda: MappingProxyType({}))
    codes: type[DomainCode] = DomainCode  # its own refusal codes (<game>/codes.py); the base has none
    playout: ModuleType | None = None  # the mutable, event-free core for simulations (bots, benchmarks)
    card_pattern: str | None = None  # a hand card id in an action's ``card`` (regex, for the API schema)
    suits: tuple[str, ...] = ()  # the suits a ``called_suit`` may name
    cards_in_play: CardsInPlay | None = None
    """Every card of the live round, as a multiset (hands, stock, discard, decks, tableaux), or None
    while no round is live: the conformance suite checks it stays constant during a round
    (tests/conformance, docs/testing.md); it fails a game without one."""
    resample: Resample | None = None
    """OpenSpiel's ResampleFromInfostate: ``(state, viewer, rng: random.Random)`` -> a state this
    viewer (a seat, or None for a spectator, who sees no hand) cannot tell from ``state``: every card
    hidden from it (the stock, other seats' hands, their sealed passes, a chance deck) dealt again at
    random among the places hidden from it, each keeping its size, and fresh secret seeds. The
    redaction oracle (tests/conformance/redaction.py) fails for a game without one."""
    default_action: Callable[[Any, int], Mapping[str, Any] | None] | None = None
    """§2.7: ``(state, seat)`` -> the default action a timed-out seat gets now (its turn timer's), or
    None; a remote bot that fails its turn gets it at once (service/app/remote_bots.py). None: that
    seat waits for its timer (Sakapuss: the step's or race's own timeout)."""
    verifier: ModuleType | None = None
    """Its independent verifier module: standard library and service/verifier/primitives only, the
    presets it checks (``VARIANTS``) and what its shuffles un-shuffle to (``Shuffles``; docs/audit.md).
    Default: ``verifier.py`` in the game's package (``service.games.<name>.verifier``), which
    `meow verify` finds by file without the registry (service/verifier/games.py)."""

    def __post_init__(self) -> None:
        if self.verifier is None:
            object.__setattr__(self, "verifier", own_verifier(self.name))
        if "easy" not in self.bots or not self.searching <= set(self.bots):
            raise ValueError(f"{self.name}: bots need an 'easy' one (it plays absent seats), searching ones among them")
        clash = {t for t, v in self.event_types.items() if TABLE_EVENTS.get(t, v) != v}
        if clash:
            raise ValueError(f"{self.name}: table events listed with another version: {sorted(clash)}")
        object.__setattr__(self, "event_types", MappingProxyType({**TABLE_EVENTS, **self.event_types}))
        if not self.commands:
            object.__setattr__(self, "commands", MappingProxyType(
                {name: Recorded(a.command) for name, a in self.actions.items()}))

    # ---- its presets, from its options
    @cached_property
    def _presets(self) -> Presets:
        o = self.options
        if isinstance(o, Presets):
            return o
        return Presets((o.VARIANT,), lambda variant: o.defaults(),
                       lambda variant, overrides, max_players: o.resolve(overrides, max_players),
                       lambda: [o.catalog_entry()])

    @property
    def variants(self) -> tuple[str, ...]:
        """The presets it serves (GET /v1/variants)."""
        return self._presets.variants

    def preset_defaults(self, variant: str) -> dict[str, Any]:
        """§8.4: the full default option set of one of its presets."""
        return self._presets.defaults(variant)

    def resolve_options(self, variant: str, overrides: Mapping[str, Any] | None, max_players: int) -> Resolved:
        """§8.5: preset + overrides, validated: (resolved, warnings) or OptionError."""
        return self._presets.resolve(variant, overrides, max_players)

    def catalogue(self) -> list[dict[str, Any]]:
        """GET /v1/variants: its presets with their option schemas and player ranges."""
        return self._presets.catalogue()

    # ---- a bot's input
    def seat_view(self, state: Any, seat: int, now: int) -> SeatView:
        """A bot's input through the same projection as a human's (§7.1, DESIGN rule 3)."""
        if self.bot_view is not None:
            return self.bot_view(state, seat, now)
        priv = self.private_view(state, seat, now)
        return SeatView(seat=seat, now=now, public=MappingProxyType(self.public_view(state, now, False)),
                        hand=tuple(priv["hand"]),
                        legal_actions=tuple(MappingProxyType(a) for a in priv["legal_actions"]),
                        own=MappingProxyType({k: _frozen(v) for k, v in priv.items() if k not in _SEAT_VIEW_OWN}))


def own_verifier(name: str) -> ModuleType | None:
    """The default ``Game.verifier``: ``verifier.py`` in the game's package, if it has one."""
    module = f"service.games.{name}.verifier"
    if importlib.util.find_spec(f"service.games.{name}") and importlib.util.find_spec(module):
        return importlib.import_module(module)
    return None
