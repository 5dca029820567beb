"""Crazy Eights (OpenSpiel's rules, docs/games/crazy-eights.md) as one registry entry."""
from __future__ import annotations

from types import MappingProxyType

from service.games.crazy_eights import options, playout
from service.games.crazy_eights.actions import default_action
from service.games.crazy_eights.bots import easy, medium
from service.games.crazy_eights.decide import decide
from service.games.crazy_eights.evolve import evolve
from service.games.crazy_eights.faces import FACES, SUIT_FACES
from service.games.crazy_eights.resample import resample
from service.games.crazy_eights.spec import SPEC
from service.games.crazy_eights.state import EightsMatch, cards_in_play
from service.games.crazy_eights.views import legal_actions, pending_work, private_view, public_view
from service.games.crazy_eights.words import WORDS
from service.games.kernel.game import Game
from service.games.kernel.presentation import Presentation
from service.games.shedding.game import ACTIONS as SHEDDING_ACTIONS, GAME as SHEDDING

EVENT_TYPES = {
    "StarterTurned": 1, "StarterReturned": 1, "TurnStarted": 1, "CardPlayed": 1, "SuitCalled": 1,
    "CardDrawn": 1, "DrawShortfall": 1, "StockReshuffled": 1, "DrawOwed": 1, "TurnSkipped": 1,
    "DirectionReversed": 1, "TurnPassed": 1, "HandsRevealed": 1,
}
ACTIONS = MappingProxyType({t: SHEDDING_ACTIONS[t] for t in ("play", "draw", "pass")})
"""The shedding games' play, draw and pass: the same wire shape and commands (a play's ``announce``
is refused here: Crazy Eights has no announcement)."""
_BORROWED = {a.command for a in ACTIONS.values()}
COMMANDS = MappingProxyType({n: r for n, r in SHEDDING.commands.items() if r.command in _BORROWED})
"""The borrowed commands keep the shedding games' wire names and versions, and their upcasters."""
COMMAND_UPCASTERS = MappingProxyType({k: fn for k, fn in SHEDDING.command_upcasters.items() if k[0] in COMMANDS})

GAME = Game(
    name="crazy_eights",
    state_type=EightsMatch,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    public_view=public_view,
    private_view=private_view,
    pending_work=pending_work,
    default_action=default_action,
    actions=ACTIONS,
    commands=COMMANDS,
    command_upcasters=COMMAND_UPCASTERS,
    event_types=EVENT_TYPES,
    options=options,
    spec=SPEC,
    presentation=Presentation(FACES, SUIT_FACES, WORDS),
    bots=MappingProxyType({"easy": easy.choose, "medium": medium.choose}),
    playout=playout,
    card_pattern=SHEDDING.card_pattern,  # its cards are the shedding games' ids (copy 0 only)
    suits=SHEDDING.suits,
    cards_in_play=cards_in_play,
    resample=resample,
)
