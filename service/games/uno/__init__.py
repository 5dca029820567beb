"""UNO, the rules of RLCard 1.2's ``uno`` (rlcard/games/uno: round.py, dealer.py, judger.py) as a
meow game: 2-4 players, the 108-card deck, seven cards each, colours, numbers, skip, reverse,
draw two, wild and wild draw four. One hand is one match. docs/games/uno.md is its rule book and
says where RLCard's own code decides a rule that printed rule books decide otherwise.

It builds on the kernel and on the shedding games' seat commands ``Play`` and ``Draw``
(``shedding.commands``), so that ``play`` and ``draw`` mean one thing on the wire for every game;
a wild's colour travels in ``called_suit`` (one of R, G, B, Y).
"""

BUILDS_ON = {"shedding": frozenset({"commands", "spec", "game"})}
"""The other games' modules this one may import (tests/unit/rules/test_purity.py reads it)."""
