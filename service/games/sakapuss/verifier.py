"""The independent verifier's Sakapuss part: what each shuffle of a Sakapuss history must
un-shuffle to, followed from the record alone (docs/audit.md, docs/randomness.md).

Standard library and service/verifier/primitives only: it imports nothing of the engine, the
kernel or another game, so an auditor can read it beside the rule book and trust it on its own.
The driver (service/verifier/check.py) finds it by file and picks it by ``VARIANTS``."""
from __future__ import annotations

from string import ascii_lowercase

VARIANTS = frozenset({"sakapuss"})
"""The presets whose histories this module checks (``MatchCreated.data.variant``)."""


def chance_deck(options: dict) -> list[str]:
    """The chance deck in its documented order: parasites, insecticides, shower(s)."""
    cards: list[str] = []
    for kind in options["parasite_kinds"]:
        copies: dict[int, int] = {}
        for n in options["parasite_cards"][kind]:
            cards.append(f"par:{kind}:{n}:{ascii_lowercase[copies.get(n, 0)]}")
            copies[n] = copies.get(n, 0) + 1
    for kind in options["parasite_kinds"]:
        cards += [f"ins:{kind}:{ascii_lowercase[i]}" for i in range(options["insecticides_per_kind"])]
    showers = options["shower_cards"]
    cards += ["shower"] if showers == 1 else [f"shower:{ascii_lowercase[i]}" for i in range(showers)]
    return cards


class Shuffles:
    """The cards of one Sakapuss match: the chance deck its options name (round 1) and each
    round's cats, ``cats_per_kind`` of every kind ``RoundStarted`` puts in play."""

    def __init__(self, options: dict) -> None:
        self.options = options
        self.kinds: list[str] = []

    def expected(self, what: str) -> list[str] | None:
        """The items, in their documented order, that the shuffle ``what`` must un-shuffle to."""
        if what == "chance_deck":
            return chance_deck(self.options)
        if what == "cats":
            return [f"cat:{k}" for k in self.kinds for _ in range(int(self.options["cats_per_kind"]))]
        return None

    def see(self, event: dict) -> None:
        if event["type"] == "RoundStarted":
            self.kinds = list(event.get("data", {}).get("kinds", []))
