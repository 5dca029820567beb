"""Sakapuss (RULES §6) as one registry entry."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from service.games.kernel.events import with_table_events
from service.games.kernel.game import ActionSpec, Game
from service.games.kernel.presentation import Presentation
from service.games.kernel.table import BOT_STRENGTHS
from service.games.sakapuss import playout
from service.games.sakapuss.bots import easy, hard, medium
from service.games.sakapuss.codes import SakapussCode
from service.games.sakapuss.commands import COMMANDS, RACE_TOLERANT, PassCard, Slap
from service.games.sakapuss.decide import decide
from service.games.sakapuss.evolve import evolve
from service.games.sakapuss.faces import FACES
from service.games.sakapuss.options import VARIANT, catalog_entry, defaults, resolve
from service.games.sakapuss.resample import resample
from service.games.sakapuss.spec import SPEC
from service.games.sakapuss.state import SakapussMatch, cards_in_play
from service.games.sakapuss.views import legal_actions, pending_work, private_view, public_view, seat_view
from service.games.sakapuss.words import WORDS

EVENT_TYPES = with_table_events({
    "PassSubmitted": 1, "PassesResolved": 1, "SlapMade": 1, "RaceResolved": 1,
    "ChanceCardDrawn": 1, "ChanceDeckEmpty": 1,
})
ACTIONS = MappingProxyType({
    "pass_card": ActionSpec(PassCard, frozenset({"kind", "step", "card"}), frozenset({"kind", "step"}),
                            "pass_card" in RACE_TOLERANT),
    "slap": ActionSpec(Slap, frozenset({"seen_step"}), frozenset({"seen_step"}), "slap" in RACE_TOLERANT),
})


def _defaults(variant: str) -> dict[str, Any]:
    return defaults()


def _resolve(variant: str, overrides: Mapping[str, Any] | None,
             max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return resolve(overrides, max_players)


def _catalogue() -> list[dict[str, Any]]:
    return [catalog_entry(list(BOT_STRENGTHS))]


GAME = Game(
    name="sakapuss",
    variants=(VARIANT,),
    state_type=SakapussMatch,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    public_view=public_view,
    private_view=private_view,
    seat_view=seat_view,
    pending_work=pending_work,
    actions=ACTIONS,
    commands=COMMANDS,
    event_types=MappingProxyType(EVENT_TYPES),
    preset_defaults=_defaults,
    resolve_options=_resolve,
    catalogue=_catalogue,
    bots=MappingProxyType({"easy": easy.choose, "medium": medium.choose, "hard": hard.choose}),
    playout=playout,
    card_pattern=r"cat:k[0-9]",
    spec=SPEC,
    presentation=Presentation(FACES, (), WORDS),
    codes=SakapussCode,
    cards_in_play=cards_in_play,
    resample=resample,
)
