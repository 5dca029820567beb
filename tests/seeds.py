"""The suite's seed (docs/testing.md): MEOW_TEST_SEED, "0" unless set, and each test's own seed
derived from it and the test's node id, so a fresh clone runs the same seeds every time, every
xdist worker derives the same ones, and ``MEOW_TEST_SEED=<n>`` explores others."""
from __future__ import annotations

import hashlib
import os

SEED_ENV = "MEOW_TEST_SEED"


def suite_seed() -> str:
    return os.environ.get(SEED_ENV, "0")


def seed_for(node_id: str) -> int:
    """A test's seed: the first 8 bytes of sha256("<suite seed>/<node id>"); the node id without the
    ``@<group>`` that xdist's loadgroup scheduling adds, so a test draws the same on any worker count."""
    node_id = plain_id(node_id)
    return int.from_bytes(hashlib.sha256(f"{suite_seed()}/{node_id}".encode()).digest()[:8], "big")


def plain_id(node_id: str) -> str:
    """``node_id`` without xdist's ``@<group>`` suffix (what ``pytest '<id>'`` takes)."""
    return node_id.split("@", 1)[0] if "@tests/" in node_id or node_id.endswith(("@browser", "@redis-cluster")) else node_id


def current_test_seed() -> int | None:
    """The running test's seed (pytest's PYTEST_CURRENT_TEST names it), None outside a test."""
    current = os.environ.get("PYTEST_CURRENT_TEST")
    return seed_for(current.rsplit(" ", 1)[0]) if current else None


def rerun_hint(node_id: str) -> str:
    return (f"{SEED_ENV}={suite_seed()} (this test's seed {seed_for(node_id)}); "
            f"rerun: {SEED_ENV}={suite_seed()} python -m pytest '{plain_id(node_id)}'")
