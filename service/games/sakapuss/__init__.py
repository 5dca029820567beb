"""Sakapuss (RULES §6): simultaneous cat passing, slap races, parasites. Its registry entry is
``game.GAME``; decide in decide.py, evolve in evolve.py, views in views.py, the playout core in
playout.py, bots in bots/."""
