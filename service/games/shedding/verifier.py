"""The independent verifier's shedding part (Prší, Mau-Mau): what each shuffle of a shedding
history must un-shuffle to, followed from the record alone (docs/audit.md, docs/randomness.md).

Standard library and service/verifier/primitives only: it imports nothing of the engine, the
kernel or another game, so an auditor can read it beside the rule book and trust it on its own.
The driver (service/verifier/check.py) finds it by file and picks it by ``VARIANTS``."""
from __future__ import annotations

from service.verifier.primitives import RANKS, DiscardPile, french_deck

VARIANTS = frozenset({"mau-mau-classic", "mau-mau-classic-full", "prsi", "prsi-traditional"})
"""The presets whose histories this module checks (``MatchCreated.data.variant``)."""

TO_DISCARD = ("StarterTurned", "StarterCovered", "CardPlayed")
"""The events that put their ``card`` on the discard pile."""


class Shuffles:
    """The cards of one shedding match: the deck its options name, the discard pile (the starter,
    covering starters, every played card) and a leaver's hand, followed event by event."""

    def __init__(self, options: dict) -> None:
        self.options = options
        self.discard = DiscardPile()
        self.left_hand: list[str] = []

    def expected(self, what: str) -> list[str] | None:
        """The items, in their documented order, that the shuffle ``what`` must un-shuffle to."""
        if what == "deck":
            return french_deck(int(self.options.get("deck_copies", 1)), self.options.get("deck_ranks", RANKS))
        if what == "discard":
            return self.discard.under_top()
        if what == "leaver_hand":
            return self.left_hand
        return None

    def see(self, event: dict) -> None:
        t, d = event["type"], event.get("data", {})
        if t == "RoundStarted":
            self.discard = DiscardPile()
        elif t in TO_DISCARD:
            self.discard.put(d["card"])
        elif t == "SeatLeft":
            self.left_hand = list(event.get("secret", {}).get("hand", []))
        elif t == "ShuffleCommitted" and d.get("what") == "discard":
            self.discard.reshuffled()
