"""The independent verifier's Crazy Eights part: what each shuffle of a Crazy Eights history must
un-shuffle to, followed from the record alone (docs/audit.md, docs/randomness.md).

Standard library and service/verifier/primitives only: it imports nothing of the engine, the
kernel or another game, so an auditor can read it beside the rule book and trust it on its own.
The driver (service/verifier/check.py) finds it by file and picks it by ``VARIANTS``."""
from __future__ import annotations

from service.verifier.primitives import DiscardPile, french_deck

VARIANTS = frozenset({"crazy-eights"})
"""The presets whose histories this module checks (``MatchCreated.data.variant``)."""

TO_DISCARD = ("StarterTurned", "CardPlayed")
"""The events that put their ``card`` on the discard pile."""


class Shuffles:
    """The cards of one Crazy Eights match: one full 52-card deck (the game has no deck options)
    and the discard pile (the starter, every played card; a turned-up eight sent back into the
    stock by ``StarterReturned`` leaves it), followed event by event. The ``stock`` shuffle after a
    returned eight is not re-derived here: its commitment is checked and the engine's replay checks
    its items."""

    def __init__(self, options: dict) -> None:
        self.discard = DiscardPile()

    def expected(self, what: str) -> list[str] | None:
        """The items, in their documented order, that the shuffle ``what`` must un-shuffle to."""
        if what == "deck":
            return french_deck()
        if what == "discard":
            return self.discard.under_top()
        return None

    def see(self, event: dict) -> None:
        t, d = event["type"], event.get("data", {})
        if t == "RoundStarted":
            self.discard = DiscardPile()
        elif t in TO_DISCARD:
            self.discard.put(d["card"])
        elif t == "StarterReturned":
            self.discard.take(d["card"])
        elif t == "ShuffleCommitted" and d.get("what") == "discard":
            self.discard.reshuffled()
