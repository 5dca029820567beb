"""§8.2 + §8.3 options of the ``sakapuss`` preset: specs, defaults, resolution, §8.5 rule 6."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from service.games.kernel.one_preset import defaults_of, option
from service.games.kernel.option_catalogue import one_preset_entry
from service.games.kernel.options import OptionSpec, check_basic as check_value, resolve_specs, within
from service.games.kernel.table import BOT_STRENGTHS

VARIANT = "sakapuss"
PARASITES = {"lice": [1, 1, 2, 2, 3, 3], "fleas": [1, 1, 2, 2, 3, 3], "ticks": [1, 1, 2, 2, 3, 3]}
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,19}$")


SPECS: tuple[OptionSpec, ...] = (
    # §8.2
    option("min_players", "int", 3, lo=3, hi=5),
    option("max_players", "int", 5, lo=3, hi=5),
    option("cat_kinds_total", "int", 5, lo=3, hi=5),
    option("cats_per_kind", "int", 4, lo=4, hi=4),
    option("kinds_selection", "enum", "random_fixed_per_match",
       values=("random_fixed_per_match", "random_per_round")),
    option("parasite_kinds", "names", ["lice", "fleas", "ticks"]),
    option("parasite_cards", "parasites", PARASITES, lo=1, hi=10),
    option("insecticides_per_kind", "int", 2, lo=0, hi=4),
    option("shower_cards", "int", 1, lo=0, hi=2),
    option("rounds", "int", 10, lo=1, hi=30),
    option("pass_direction", "enum", "left", values=("left", "right")),
    option("pass_timeout_s", "int", 15, lo=5, hi=120),
    option("auto_pass_policy", "enum", "random", values=("random",)),
    option("allow_slap_before_first_pass", "bool", True),
    option("slap_window_ms", "int", 3000, lo=1000, hi=10000),
    option("slap_grace_steps", "int", 1, lo=0, hi=1),
    option("last_slapper_draws", "int", 1, lo=0, hi=5),
    option("false_slap_draws", "int", 2, lo=0, hi=5),
    option("false_slap_mode", "enum", "void_race_continue",
       values=("void_race_continue", "both_penalties_end_round")),
    option("non_slappers_policy", "enum", "all_draw", values=("all_draw", "one_random")),
    option("max_pass_steps_per_round", "int", 200, lo=20, hi=1000),
    option("tie_break", "enum", "shared", values=("shared", "fewer_parasite_cards")),
    option("leaver_policy", "enum", "replace_with_bot", values=("replace_with_bot",)),
    option("bot_min_reaction_ms", "int", 350, lo=350, hi=5000),
    # §8.3 (those that apply: no turn timeout, no bot_delay_ms)
    option("bot_seats", "int", 0, lo=0, hi=4),
    option("bot_strength", "enum", "medium", values=BOT_STRENGTHS),
    option("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    option("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    option("absent_removal_s", "int", 300, lo=60, hi=3600),
    option("round_intermission_s", "int", 5, lo=0, hi=60),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def defaults() -> dict[str, Any]:
    """§8.4: the full default option set of the ``sakapuss`` preset."""
    return defaults_of(SPECS)


def _check(spec: OptionSpec, v: Any, resolved: Mapping[str, Any]) -> str | None:
    if spec.type == "names":
        if (not isinstance(v, list) or not 1 <= len(v) <= 6
                or any(not isinstance(x, str) or not _NAME.match(x) for x in v)):
            return "must be a list of 1-6 lower-case names"
        return None if len(set(v)) == len(v) else "names must be distinct"
    if spec.type == "parasites":
        if not isinstance(v, dict) or any(not isinstance(k, str) for k in v):
            return "must map parasite kinds to lists of integers"
        for k, nums in v.items():
            if (not isinstance(nums, list) or len(nums) > 26
                    or any(isinstance(n, bool) or not isinstance(n, int) or not within(n, spec.lo, spec.hi)
                           for n in nums)):
                return f"{k}: must be a list of at most 26 integers in [{spec.lo}, {spec.hi}]"
        return None
    return check_value(spec, v, resolved)


def _cross(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    """§8.5 rule 6 (plus kinds/cards agreement), naming the explicitly supplied options."""
    problems: list[tuple[tuple[str, ...], str]] = []
    if not r["min_players"] <= r["max_players"] <= r["cat_kinds_total"]:
        problems.append((("min_players", "max_players", "cat_kinds_total"),
                         "rule 6: min_players <= max_players <= cat_kinds_total"))
    if set(r["parasite_cards"]) != set(r["parasite_kinds"]):
        problems.append((("parasite_cards", "parasite_kinds"),
                         "parasite_cards must name exactly the parasite_kinds"))
    elif chance_deck_size(r) < 1:
        problems.append((("parasite_cards", "parasite_kinds", "insecticides_per_kind", "shower_cards"),
                         "rule 6: the chance deck must hold at least one card"))
    errors: list[dict[str, Any]] = []
    for names, detail in problems:
        named = [n for n in names if n in explicit] or list(names)
        errors.extend({"option": n, "detail": detail} for n in named)
    return errors


def chance_deck_size(r: Mapping[str, Any]) -> int:
    kinds = r["parasite_kinds"]
    return (sum(len(r["parasite_cards"].get(k, [])) for k in kinds)
            + len(kinds) * r["insecticides_per_kind"] + r["shower_cards"])


def resolve(overrides: Mapping[str, Any] | None,
            max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; (resolved, warnings) or OptionError (invalid_option)."""
    return resolve_specs(defaults(), SPEC_BY_NAME, overrides, max_players, _check, _cross)


def catalog_entry(strengths: Sequence[str] = BOT_STRENGTHS) -> dict[str, Any]:
    """GET /v1/variants: the ``sakapuss`` preset with its option schema and player range (its
    booleans and enums list no ``range``)."""
    return one_preset_entry(VARIANT, SPECS, strengths, bools=None, enum_range=False)
