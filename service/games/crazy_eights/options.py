"""The ``crazy-eights`` preset's options: OpenSpiel's parameters by their names, and the table's
timing and bot options (§8.3) that apply."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.options import OptionSpec, check_basic, copy as _copy, is_int, resolve_specs

VARIANT = "crazy-eights"
BOT_STRENGTHS: tuple[str, ...] = ("easy", "medium")
"""The strengths this game has bots for (no searching bot yet)."""


def _s(name: str, typ: str, default: Any, **kw: Any) -> OptionSpec:
    return OptionSpec(name, typ, default, default, **kw)


SPECS: tuple[OptionSpec, ...] = (
    _s("min_players", "int", 2, lo=2, hi=5),
    _s("max_players", "int", 5, lo=2, hi=5),
    # OpenSpiel's parameters, with its defaults (``players`` is the table's seat count)
    _s("max_draw_cards", "int", 5, lo=1, hi=52),
    _s("max_turns", "int", 100, lo=1, hi=10000),
    _s("reshuffle", "bool", False),
    _s("use_special_cards", "bool", False),
    # §8.3 table, timing and bots
    _s("bot_seats", "int", 0, lo=0, hi=4),
    _s("bot_strength", "enum", "easy", values=BOT_STRENGTHS),
    _s("bot_delay_ms", "delays", {"easy": [800, 1600], "medium": [600, 1400]}, lo=0, hi=60000),
    _s("turn_timeout_s", "int_or_null", 45, lo=10, hi=600),
    _s("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    _s("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    _s("absent_removal_s", "int", 300, lo=60, hi=3600),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def _check(spec: OptionSpec, v: Any, resolved: Mapping[str, Any]) -> str | None:
    if spec.type != "delays":
        return check_basic(spec, v, resolved)
    if not isinstance(v, dict):
        return "must map strength to [min, max]"
    for key, pair in v.items():
        if key not in BOT_STRENGTHS:
            return f"unknown strength {key!r}"
        if (not isinstance(pair, list) or len(pair) != 2 or not all(is_int(x) for x in pair)
                or not spec.lo <= pair[0] <= pair[1] <= spec.hi):
            return f"{key}: must be [min, max] with {spec.lo} <= min <= max <= {spec.hi}"
    return None


def _cross(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    if r["min_players"] <= r["max_players"]:
        return []
    return [{"option": n, "detail": "min_players <= max_players"} for n in ("min_players", "max_players")
            if n in explicit]


def defaults() -> dict[str, Any]:
    return {s.name: _copy(s.classic) for s in SPECS}


def resolve(overrides: Mapping[str, Any] | None,
            max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; (resolved, warnings) or OptionError (invalid_option)."""
    return resolve_specs(defaults(), SPEC_BY_NAME, overrides, max_players, _check, _cross)


def catalog_entry() -> dict[str, Any]:
    """GET /v1/variants: the preset with its option schema and player range."""
    d = defaults()
    options = []
    for s in SPECS:
        item: dict[str, Any] = {"name": s.name, "type": s.type, "default": _copy(d[s.name])}
        if s.lo is not None:
            item["range"] = [s.lo, d["max_players"] - 1 if s.name == "bot_seats" else s.hi]
        elif s.type == "bool":
            item["range"] = [False, True]
        if s.type == "enum":
            item["range"] = list(s.values)
            item["enum"] = list(s.values)
        if s.type == "int_or_null":
            item["nullable"] = True
        if s.parent:  # §8.5 rules 3-5: dropped while the parent is off
            item["parent"] = {"option": s.parent[0], "value": s.parent[1]}
        options.append(item)
    return {"name": VARIANT, "game": VARIANT, "min_players": d["min_players"],
            "max_players": d["max_players"], "options": options, "bot_strengths": list(BOT_STRENGTHS)}
