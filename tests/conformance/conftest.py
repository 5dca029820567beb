"""The conformance suite's fixtures: ``plant``, which serves a game with one part broken (the
planted-violation tests: test_engine_planted.py, test_client_data.py)."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from service.games import engine, registry


@pytest.fixture
def plant(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``plant(game, **parts)``: the registry and the engine serve ``game`` with ``parts`` replaced."""
    def swap(game: Any, **parts: Any) -> Any:
        broken = dataclasses.replace(game, **parts)
        by_state = {t: (broken if g is game else g) for t, g in registry.BY_STATE.items()}
        by_variant = {v: (broken if g is game else g) for v, g in registry.BY_VARIANT.items()}
        monkeypatch.setattr(registry, "BY_STATE", MappingProxyType(by_state))
        monkeypatch.setattr(registry, "BY_VARIANT", MappingProxyType(by_variant))
        monkeypatch.setattr(engine, "BY_STATE", MappingProxyType(by_state))
        return broken
    return swap
