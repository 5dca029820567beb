"""Playout cores: fast, mutable, event-free simulations of the rules for bots and benchmarks.

The event engine (``service.rules``) is the authority: every move of the service goes through
``decide``/``evolve`` and is recorded. The playout cores here implement the same rules on mutable
state, without events, views or clocks, for the places that only need to *play* many games: the
hard bots' rollouts and the engine benchmark. They are checked move for move against the event
engine by differential playouts (``tests/unit/sim``): same legal actions, same resulting state,
same random outcomes when fed the engine's recorded shuffles.
"""
