"""Crazy Eights bots: ``choose(view: SeatView, rng) -> action`` (easy, medium)."""
