"""The conformance suite: every registered game, driven and checked the same way (DESIGN rule 9)."""
