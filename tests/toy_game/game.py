"""High card as one registry entry: only what the game alone can say; the rest are the defaults."""
from __future__ import annotations

from types import MappingProxyType

from service.games.kernel.game import ActionSpec, Game
from service.games.kernel.presentation import Presentation

from . import options
from .decide import decide
from .evolve import evolve
from .faces import FACES
from .resample import resample
from .rules import LayCard, legal_actions
from .spec import SPEC
from .state import ToyMatch, cards_in_play
from .views import pending_work, private_view, public_view
from .words import WORDS

GAME = Game(
    name="toy",
    state_type=ToyMatch,
    decide=decide,
    evolve=evolve,
    legal_actions=legal_actions,
    public_view=public_view,
    private_view=private_view,
    pending_work=pending_work,
    actions=MappingProxyType({"lay": ActionSpec(LayCard, frozenset({"card"}), frozenset({"card"}))}),
    event_types={"TurnStarted": 1, "CardLaid": 1, "TrickWon": 1},
    options=options,
    spec=SPEC,
    presentation=Presentation(FACES, (), WORDS),
    card_pattern=r"hc(0[1-9]|1[0-2])",
    cards_in_play=cards_in_play,
    resample=resample,
)
