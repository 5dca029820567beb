"""The independent verifier's toy part: its one shuffle is the whole 12-card deck at each deal.

Standard library only (docs/audit.md "Auditing one game"): nothing of the engine or the kernel."""
from __future__ import annotations

VARIANTS = frozenset({"toy"})
DECK = [f"hc{n:02}" for n in range(1, 13)]


class Shuffles:
    """Nothing to follow: every deal shuffles the same fresh deck."""

    def __init__(self, options: dict) -> None:
        pass

    def expected(self, what: str) -> list[str] | None:
        return list(DECK) if what == "deck" else None

    def see(self, event: dict) -> None:
        pass
