"""`meow verify`: an independent check of a game history (its own hash, chain and shuffle code).

The generic driver (check.py: chain, commitments, permutations; primitives.py: the documented
algorithms; games.py: each game's verifier module, found by file; read.py: the file, a truncated
or malformed one named with its line; report.py: the text and ``--json`` reports) knows no game;
each game's cards are its own ``service/games/<game>/verifier.py``. replay.py, the engine's replay
(diff.py names the first field that differs), is the one part that runs the service's code
(`--independent` skips it). docs/audit.md: how to audit a game."""
