"""The shedding games (Prší, Mau-Mau: RULES §3-§5), one engine for every preset. Its registry entry
is ``game.GAME``; decide in rulebook.py (seat actions in decide.py), evolve in fold.py, views in
views.py, the playout core in playout.py, bots in bots/."""
