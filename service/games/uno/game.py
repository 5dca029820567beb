"""UNO (RLCard 1.2's rules and the published rules, docs/games/uno.md) as one registry entry."""
from __future__ import annotations

from types import MappingProxyType

from service.games.kernel import catch
from service.games.kernel.game import Game, Presets
from service.games.kernel.presentation import Presentation
from service.games.shedding.game import ACTIONS as SHEDDING_ACTIONS, GAME as SHEDDING
from service.games.uno import options, playout
from service.games.uno.actions import default_action
from service.games.uno.bots import easy, medium
from service.games.uno.cards import CARD_PATTERN, COLORS
from service.games.uno.decide import decide
from service.games.uno.evolve import evolve
from service.games.uno.faces import FACES, SUIT_FACES
from service.games.uno.resample import resample
from service.games.uno.spec import SPEC
from service.games.uno.state import UnoMatch, cards_in_play
from service.games.uno.views import legal_actions, pending_work, private_view, public_view
from service.games.uno.words import WORDS

EVENT_TYPES = {
    "StarterTurned": 1, "StarterReturned": 1, "TurnStarted": 1, "CardPlayed": 1, "CardDrawn": 1,
    "CardKept": 1, "DrawShortfall": 1, "StockReshuffled": 1, "TurnSkipped": 1, "DirectionReversed": 1, "HandsRevealed": 1,
    catch.CHALLENGE_MADE: 1,
}
ACTIONS = MappingProxyType({**{t: SHEDDING_ACTIONS[t] for t in ("play", "draw", "pass")},
                            catch.CHALLENGE: catch.CHALLENGE_ACTION})
"""The shedding games' play, draw and pass (keep a drawn card, ``drawn_card`` play_or_keep): the
same wire shape and commands (a play's ``announce`` is
the UNO call, with ``uno_call``; a wild's colour is its ``called_suit``), and the kernel's catch."""
_BORROWED = {a.command for a in ACTIONS.values()}
COMMANDS = MappingProxyType({**{n: r for n, r in SHEDDING.commands.items() if r.command in _BORROWED},
                             **catch.COMMANDS})
"""The borrowed commands keep the shedding games' wire names and versions, and their upcasters."""
COMMAND_UPCASTERS = MappingProxyType({k: fn for k, fn in SHEDDING.command_upcasters.items() if k[0] in COMMANDS})

GAME = Game(
    name="uno",
    state_type=UnoMatch,
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
    options=Presets(options.VARIANTS, options.defaults, options.resolve, options.catalogue),
    spec=SPEC,
    bots=MappingProxyType({"easy": catch.catching(easy.choose), "medium": catch.catching(medium.choose)}),
    playout=playout,
    card_pattern=CARD_PATTERN,
    suits=COLORS,
    cards_in_play=cards_in_play,
    resample=resample,
    presentation=Presentation(FACES, SUIT_FACES, WORDS),
)
