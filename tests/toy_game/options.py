"""The ``toy`` preset's options: the table's size and length, the turn timer and absences (§8.3)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.options import OptionSpec, check_basic, copy, resolve_specs

VARIANT = "toy"
BOT_STRENGTHS: tuple[str, ...] = ("easy",)  # the default bot (kernel/bots/uniform.py)
DECK: tuple[str, ...] = tuple(f"hc{n:02}" for n in range(1, 13))  # ids of 4+ characters: the redaction oracle looks for them


def _s(name: str, typ: str, default: Any, **kw: Any) -> OptionSpec:
    return OptionSpec(name, typ, default, default, **kw)


SPECS: tuple[OptionSpec, ...] = (
    _s("min_players", "int", 2, lo=2, hi=4),
    _s("max_players", "int", 4, lo=2, hi=4),
    _s("hand_size", "int", 3, lo=1, hi=3),
    _s("rounds", "int", 2, lo=1, hi=5),
    _s("bot_strength", "enum", "easy", values=BOT_STRENGTHS),
    _s("turn_timeout_s", "int_or_null", 30, lo=10, hi=600),
    _s("max_consecutive_timeouts", "int", 2, lo=1, hi=10),
    _s("absent_removal_s", "int", 300, lo=60, hi=3600),
    _s("round_intermission_s", "int", 3, lo=0, hi=60),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def defaults() -> dict[str, Any]:
    return {s.name: copy(s.classic) for s in SPECS}


def _cross(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    if r["min_players"] <= r["max_players"]:
        return []
    return [{"option": n, "detail": "min_players <= max_players"} for n in ("min_players", "max_players")
            if n in explicit]


def resolve(overrides: Mapping[str, Any] | None, max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; (resolved, warnings) or OptionError (invalid_option)."""
    return resolve_specs(defaults(), SPEC_BY_NAME, overrides, max_players, check_basic, _cross)


def catalog_entry() -> dict[str, Any]:
    """GET /v1/variants: the preset with its option schema and player range."""
    d = defaults()
    options = []
    for s in SPECS:
        item: dict[str, Any] = {"name": s.name, "type": s.type, "default": copy(d[s.name])}
        if s.lo is not None:
            item["range"] = [s.lo, s.hi]
        if s.type == "enum":
            item["range"] = item["enum"] = list(s.values)
        if s.type == "int_or_null":
            item["nullable"] = True
        options.append(item)
    return {"name": VARIANT, "game": VARIANT, "min_players": d["min_players"],
            "max_players": d["max_players"], "options": options, "bot_strengths": list(BOT_STRENGTHS)}
