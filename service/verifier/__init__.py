"""`meow verify`: an independent check of a game history (its own hash, chain and shuffle code)."""
