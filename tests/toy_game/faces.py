"""High card's cards as a client shows them (docs/clients.md): hc01 (lowest) .. hc12 (highest)."""
from __future__ import annotations

from service.games.kernel.presentation import Face

FACES: tuple[Face, ...] = tuple(Face(f"hc{n:02d}", str(n), "card.high", symbol="\u2605", colour=f"tone-{n % 6}")
                                for n in range(1, 13))
