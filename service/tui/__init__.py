"""`meow play`: a terminal client for meow tables, on the public HTTP API only (docs/tui.md)."""
