"""The games: one package per game beside a shared kernel, and the registry that names them.

    kernel/    events, commands, seats and table mechanics, randomness, options, fold, emitter,
               views' common parts, the Game protocol
    shedding/  Prší and Mau-Mau (every shedding preset)
    sakapuss/  Sakapuss
    registry   one entry per game; engine: the service's entry points, looked up by the registry

Each game has two implementations of its rules. The event engine (decide/evolve) is the
authority: every move of the service goes through it and is recorded. The playout core
(``<game>/playout.py``) plays the same rules on mutable state, without events, views or clocks,
for the places that only need to *play* many games: the hard bots' rollouts and the engine
benchmark. Differential playouts (tests/unit/sim) check them move for move against each other.
"""
