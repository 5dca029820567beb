"""§8.2 + §8.3 options of the ``sakapuss`` preset: specs, defaults, resolution, §8.5 rule 6."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from service.games.kernel.options import OptionSpec, check_basic as check_value, copy as _copy, resolve_specs, within
from service.games.kernel.table import BOT_STRENGTHS

VARIANT = "sakapuss"
PARASITES = {"lice": [1, 1, 2, 2, 3, 3], "fleas": [1, 1, 2, 2, 3, 3], "ticks": [1, 1, 2, 2, 3, 3]}
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,19}$")


def _s(name: str, typ: str, default: Any, **kw: Any) -> OptionSpec:
    return OptionSpec(name, typ, default, default, **kw)


SPECS: tuple[OptionSpec, ...] = (
    # §8.2
    _s("min_players", "int", 3, lo=3, hi=5),
    _s("max_players", "int", 5, lo=3, hi=5),
    _s("cat_kinds_total", "int", 5, lo=3, hi=5),
    _s("cats_per_kind", "int", 4, lo=4, hi=4),
    _s("kinds_selection", "enum", "random_fixed_per_match",
       values=("random_fixed_per_match", "random_per_round")),
    _s("parasite_kinds", "names", ["lice", "fleas", "ticks"]),
    _s("parasite_cards", "parasites", PARASITES, lo=1, hi=10),
    _s("insecticides_per_kind", "int", 2, lo=0, hi=4),
    _s("shower_cards", "int", 1, lo=0, hi=2),
    _s("rounds", "int", 10, lo=1, hi=30),
    _s("pass_direction", "enum", "left", values=("left", "right")),
    _s("pass_timeout_s", "int", 15, lo=5, hi=120),
    _s("auto_pass_policy", "enum", "random", values=("random",)),
    _s("allow_slap_before_first_pass", "bool", True),
    _s("slap_window_ms", "int", 3000, lo=1000, hi=10000),
    _s("slap_grace_steps", "int", 1, lo=0, hi=1),
    _s("last_slapper_draws", "int", 1, lo=0, hi=5),
    _s("false_slap_draws", "int", 2, lo=0, hi=5),
    _s("false_slap_mode", "enum", "void_race_continue",
       values=("void_race_continue", "both_penalties_end_round")),
    _s("non_slappers_policy", "enum", "all_draw", values=("all_draw", "one_random")),
    _s("max_pass_steps_per_round", "int", 200, lo=20, hi=1000),
    _s("tie_break", "enum", "shared", values=("shared", "fewer_parasite_cards")),
    _s("leaver_policy", "enum", "replace_with_bot", values=("replace_with_bot",)),
    _s("bot_min_reaction_ms", "int", 350, lo=350, hi=5000),
    # §8.3 (those that apply: no turn timeout, no bot_delay_ms)
    _s("bot_seats", "int", 0, lo=0, hi=4),
    _s("bot_strength", "enum", "medium", values=BOT_STRENGTHS),
    _s("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    _s("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    _s("absent_removal_s", "int", 300, lo=60, hi=3600),
    _s("round_intermission_s", "int", 5, lo=0, hi=60),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def defaults() -> dict[str, Any]:
    """§8.4: the full default option set of the ``sakapuss`` preset."""
    return {s.name: _copy(s.classic) for s in SPECS}


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


def catalog_entry(strengths: tuple[str, ...] = BOT_STRENGTHS) -> dict[str, Any]:
    """GET /v1/variants: the ``sakapuss`` preset with its option schema and player range."""
    d = defaults()
    options = []
    for s in SPECS:
        item: dict[str, Any] = {"name": s.name, "type": s.type, "default": _copy(d[s.name])}
        if s.lo is not None:
            item["range"] = [s.lo, s.hi]
        if s.values and s.type == "enum":
            item["enum"] = list(s.values)
        if s.parent:  # §8.5 rules 3-5: dropped while the parent is off
            item["parent"] = {"option": s.parent[0], "value": s.parent[1]}
        options.append(item)
    return {"name": VARIANT, "game": VARIANT, "min_players": d["min_players"],
            "max_players": d["max_players"], "options": options, "bot_strengths": list(strengths)}
