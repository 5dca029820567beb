"""UNO bots: ``choose(view: SeatView, rng) -> action`` (easy, medium)."""
