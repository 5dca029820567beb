"""The Sakapuss rules engine (RULES §6): the same public functions as the shedding engine."""
from __future__ import annotations

from service.games.sakapuss.decide import decide
from service.games.sakapuss.evolve import evolve, replay
from service.games.sakapuss.state import SakapussMatch
from service.games.sakapuss.views import legal_actions, pending_work, private_view, public_view, seat_view

VARIANT = "sakapuss"

__all__ = ["VARIANT", "SakapussMatch", "decide", "evolve", "replay", "legal_actions",
           "public_view", "private_view", "seat_view", "pending_work"]
