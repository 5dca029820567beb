"""Sakapuss (RULES §6) as one registry entry."""
from __future__ import annotations

from types import MappingProxyType

from service.games.kernel.game import ActionSpec, Game
from service.games.kernel.presentation import Presentation
from service.games.sakapuss import options, playout
from service.games.sakapuss.bots import easy, hard, medium
from service.games.sakapuss.codes import SakapussCode
from service.games.sakapuss.commands import COMMANDS, RACE_TOLERANT, PassCard, Slap
from service.games.sakapuss.decide import decide
from service.games.sakapuss.evolve import evolve
from service.games.sakapuss.faces import FACES
from service.games.sakapuss.resample import resample
from service.games.sakapuss.spec import SPEC
from service.games.sakapuss.state import SakapussMatch, cards_in_play
from service.games.sakapuss.views import legal_actions, pending_work, private_view, public_view
from service.games.sakapuss.words import WORDS

EVENT_TYPES = {
    "PassSubmitted": 1, "PassesResolved": 1, "SlapMade": 1, "RaceResolved": 1,
    "ChanceCardDrawn": 1, "ChanceDeckEmpty": 1,
}
ACTIONS = MappingProxyType({
    "pass_card": ActionSpec(PassCard, frozenset({"kind", "step", "card"}), frozenset({"kind", "step"}),
                            "pass_card" in RACE_TOLERANT),
    "slap": ActionSpec(Slap, frozenset({"seen_step"}), frozenset({"seen_step"}), "slap" in RACE_TOLERANT),
})

GAME = Game(
    name="sakapuss",
    state_type=SakapussMatch,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    public_view=public_view,
    private_view=private_view,
    pending_work=pending_work,
    actions=ACTIONS,
    commands=COMMANDS,
    event_types=EVENT_TYPES,
    options=options,
    spec=SPEC,
    presentation=Presentation(FACES, (), WORDS),
    card_pattern=r"cat:k[0-9]",
    bots=MappingProxyType({"easy": easy.choose, "medium": medium.choose, "hard": hard.choose}),
    playout=playout,
    codes=SakapussCode,
    cards_in_play=cards_in_play,
    resample=resample,
)
