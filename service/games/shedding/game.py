"""The shedding games (Prší and Mau-Mau, RULES §3-§5) as one registry entry."""
from __future__ import annotations

from types import MappingProxyType

from service.games.kernel.catch import CHALLENGE, CHALLENGE_ACTION, catching
from service.games.kernel.game import ActionSpec, Game, Presets
from service.games.kernel.presentation import Presentation
from service.games.shedding import playout
from service.games.shedding.actions import default_action, legal_actions
from service.games.shedding.bots import easy, hard, medium
from service.games.shedding.commands import COMMANDS, RACE_TOLERANT, AcceptSkip, Announce, Draw, Pass, Play, TakePenalty
from service.games.shedding.faces import FACES, SUIT_FACES
from service.games.shedding.fold import evolve
from service.games.shedding.options import PRESET_BASE, preset_defaults, resolve_options, variants_catalog
from service.games.shedding.resample import resample
from service.games.shedding.rulebook import decide
from service.games.shedding.spec import SPEC
from service.games.shedding.state import Match, cards_in_play
from service.games.shedding.views import pending_work, private_view, public_view, seat_view
from service.games.shedding.words import WORDS

EVENT_TYPES = {
    "SeatWaiting": 1, "SeatActivated": 1, "HandsRevealed": 1, "SeatEliminated": 1,
    "StarterTurned": 1, "StarterCovered": 1, "TurnStarted": 1, "CardPlayed": 1, "SuitCalled": 1,
    "CardDrawn": 1, "StockReshuffled": 1, "DrawShortfall": 1, "PenaltyTaken": 1,
    "SkipAccepted": 1, "TurnSkipped": 1, "DirectionReversed": 1, "TurnPassed": 1,
    "AnnouncementMade": 1, "AnnouncementArmed": 1, "AnnouncementMissed": 1, "ChallengeMade": 1,
}

_FLAG = frozenset({"announce"})
ACTIONS = MappingProxyType({
    "play": ActionSpec(Play, frozenset({"card", "called_suit", "announce"}), frozenset({"card"})),
    "draw": ActionSpec(Draw, _FLAG),
    "pass": ActionSpec(Pass, _FLAG),
    "take_penalty": ActionSpec(TakePenalty, _FLAG),
    "accept_skip": ActionSpec(AcceptSkip, _FLAG),
    "announce": ActionSpec(Announce, frozenset(), frozenset(), "announce" in RACE_TOLERANT),
    CHALLENGE: CHALLENGE_ACTION,  # §3.8.4 challenge mode: the kernel's catch (kernel/catch.py)
})

GAME = Game(
    name="shedding",
    state_type=Match,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    public_view=public_view,
    private_view=private_view,
    bot_view=seat_view,  # with the round's record
    pending_work=pending_work,
    default_action=default_action,
    actions=ACTIONS,
    commands=COMMANDS,
    event_types=EVENT_TYPES,
    options=Presets(tuple(PRESET_BASE), preset_defaults, resolve_options, variants_catalog),
    # every strength catches an uncalled last card once its grace is over (§3.8.4, kernel/catch.py)
    bots=MappingProxyType({"easy": catching(easy.choose), "medium": catching(medium.choose),
                           "hard": catching(hard.choose)}),
    searching=frozenset({"hard"}),
    playout=playout,
    card_pattern=r"(10|[2-9JQKA])[CDHS](:[0-9])?",
    suits=("C", "D", "H", "S"),
    spec=SPEC,
    presentation=Presentation(FACES, SUIT_FACES, WORDS),
    cards_in_play=cards_in_play,
    resample=resample,
)
