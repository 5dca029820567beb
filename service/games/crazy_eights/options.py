"""The ``crazy-eights`` preset's options: OpenSpiel's parameters by their names, and the table's
timing and bot options (§8.3) that apply."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.one_preset import defaults_of, option
from service.games.kernel.option_catalogue import one_preset_entry
from service.games.kernel.options import OptionSpec, check_basic, check_delays, resolve_specs

VARIANT = "crazy-eights"
BOT_STRENGTHS: tuple[str, ...] = ("easy", "medium")
"""The strengths this game has bots for (no searching bot yet)."""


SPECS: tuple[OptionSpec, ...] = (
    option("min_players", "int", 2, lo=2, hi=5),
    option("max_players", "int", 5, lo=2, hi=5),
    # OpenSpiel's parameters, with its defaults (``players`` is the table's seat count)
    option("max_draw_cards", "int", 5, lo=1, hi=52),
    option("max_turns", "int", 100, lo=1, hi=10000),
    option("reshuffle", "bool", False),
    option("use_special_cards", "bool", False),
    # §8.3 table, timing and bots
    option("bot_seats", "int", 0, lo=0, hi=4),
    option("bot_strength", "enum", "easy", values=BOT_STRENGTHS),
    option("bot_delay_ms", "delays", {"easy": [800, 1600], "medium": [600, 1400]}, lo=0, hi=60000),
    option("turn_timeout_s", "int_or_null", 45, lo=10, hi=600),
    option("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    option("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    option("absent_removal_s", "int", 300, lo=60, hi=3600),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def _check(spec: OptionSpec, v: Any, resolved: Mapping[str, Any]) -> str | None:
    return check_delays(v, spec, BOT_STRENGTHS) if spec.type == "delays" else check_basic(spec, v, resolved)


def _cross(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    if r["min_players"] <= r["max_players"]:
        return []
    return [{"option": n, "detail": "min_players <= max_players"} for n in ("min_players", "max_players")
            if n in explicit]


def defaults() -> dict[str, Any]:
    """The full default option set of the ``crazy-eights`` preset."""
    return defaults_of(SPECS)


def resolve(overrides: Mapping[str, Any] | None,
            max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; (resolved, warnings) or OptionError (invalid_option)."""
    return resolve_specs(defaults(), SPEC_BY_NAME, overrides, max_players, _check, _cross)


def catalog_entry() -> dict[str, Any]:
    """GET /v1/variants: the preset with its option schema and player range."""
    return one_preset_entry(VARIANT, SPECS, BOT_STRENGTHS)
