"""Crazy Eights' cards as a client shows them: the shedding games' faces and suits (its card ids
are theirs, copy 0 only)."""
from __future__ import annotations

from service.games.shedding.faces import FACES, SUIT_FACES

__all__ = ["FACES", "SUIT_FACES"]
