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
    """The cards of one Crazy Eights match, followed event by event: one full 52-card deck (the
    game has no deck options); the discard pile (the starter, every played card; a turned-up eight
    sent back by ``StarterReturned`` leaves it); and the stock, top first (each shuffle's recorded
    order, less the dealt hands, the turned starters and the drawn cards, plus a returned eight at
    the bottom), which is what the ``stock`` shuffle after a returned eight shuffles."""

    def __init__(self, options: dict) -> None:
        self.discard = DiscardPile()
        self.stock: list[str] = []

    def expected(self, what: str) -> list[str] | None:
        """The items, in their documented order, that the shuffle ``what`` must un-shuffle to."""
        if what == "deck":
            return french_deck()
        if what == "discard":
            return self.discard.under_top()
        if what == "stock":
            return list(self.stock)
        return None

    def see(self, event: dict) -> None:
        t, d = event["type"], event.get("data", {})
        if t == "RoundStarted":
            self.discard, self.stock = DiscardPile(), []
        elif t == "ShuffleCommitted":
            self.stock = list(event.get("secret", {}).get("order", []))  # checked against its seed first
            if d.get("what") == "discard":
                self.discard.reshuffled()
        elif t == "CardsDealt":
            del self.stock[:sum(d["hand_sizes"].values())]
        elif t == "CardDrawn":
            del self.stock[:d["count"]]
        if t in TO_DISCARD:
            self.discard.put(d["card"])
            if t == "StarterTurned":
                del self.stock[:1]
        elif t == "StarterReturned":
            self.discard.take(d["card"])
            self.stock.append(d["card"])
