"""The option plumbing of a game with one preset (Sakapuss, Crazy Eights; §8): its specs, whose
one default serves every preset column, and its defaults (§8.4); kernel/options.py resolves them
(``resolve_specs``, §8.5) and kernel/option_catalogue.py lists them (GET /v1/variants)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.games.kernel.options import OptionSpec, copy


def option(name: str, typ: str, default: Any, **kw: Any) -> OptionSpec:
    """An option of a one-preset game: ``default`` in every preset column."""
    return OptionSpec(name, typ, default, default, **kw)


def defaults_of(specs: Sequence[OptionSpec]) -> dict[str, Any]:
    """§8.4: the full default option set (fresh copies: the caller may change them)."""
    return {s.name: copy(s.classic) for s in specs}

