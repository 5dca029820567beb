"""Crazy Eights, the rules of OpenSpiel's ``crazy_eights`` (open_spiel 1.6.15, crazy_eights.cc) as
a meow game: 2-5 players, one 52-card deck, eights wild, draws up to ``max_draw_cards``, optional
special cards (Q skips, A reverses, 2 makes the next player draw two, stackable). One hand is one
match. docs/games/crazy-eights.md is its rule book and names where it differs from Mau-Mau.

It builds on the kernel and on two parts of the shedding games: their card ids
(``shedding.cards``) and their seat commands ``Play``, ``Draw`` and ``Pass`` (``shedding.commands``),
so that ``play``, ``draw`` and ``pass`` mean one thing on the wire for every game.
"""

BUILDS_ON = {"shedding": frozenset({"cards", "commands", "spec", "game", "faces", "words"})}
"""The other games' modules this one may import (tests/unit/rules/test_purity.py reads it)."""
