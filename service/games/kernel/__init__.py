"""The kernel every game is built on: events and commands, seats and table mechanics, randomness,
options, the fold and the emitter, views' common parts, and the Game protocol."""
