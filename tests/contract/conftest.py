"""The ``store`` fixture: every test of the contract classes runs once per backend (backends.py)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.contract.backends import BACKENDS, OPEN


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    with OPEN[request.param](request.getfixturevalue) as opened:
        yield opened
