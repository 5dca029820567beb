"""High card: the throwaway toy game that shows what adding a game takes (docs/adding-a-game.md).

Each round deals ``hand_size`` cards of twelve (hc01 .. hc12) to every seat; in turn each seat lays
one card, and the highest card of a trick wins it (and leads the next). A round is over when the
hands are empty; a trick is a point; after ``rounds`` rounds the most points win.

It lives under tests/ and is registered only by tests/test_adding_a_game.py, in a copy of the
repository where it is moved to service/games/toy/ and named by one registry line: its modules
import each other relatively so that the same files serve there. It uses every default of the
Game entry it can (the seat view, the recorded commands, the uniform random ``easy`` bot).
"""
