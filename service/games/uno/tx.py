"""The UNO emitter: the kernel's, folding with this game's handlers."""
from __future__ import annotations

from service.games.kernel.tx import Tx as KernelTx, choice, shuffle  # noqa: F401  (re-exported for the game modules)
from service.games.uno.evolve import HANDLERS

AUTO_MARKED = frozenset({"CardPlayed", "CardDrawn", "ChallengeMade"})
"""A seat's own actions: without ``auto`` they clear its timeouts and absence (§2.7)."""


class Tx(KernelTx):
    """One decide call of UNO."""

    __slots__ = ()
    HANDLERS = HANDLERS
    AUTO_MARKED = AUTO_MARKED
