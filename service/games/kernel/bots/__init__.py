"""The bots every game may use without writing its own."""
