"""UNO's two presets as option sets (§8): ``uno-rlcard`` follows RLCard 1.2 (its only rule option
is the player count) and ``uno`` the published rules people play by; docs/games/uno.md lists every
difference. A spec's ``classic`` column is ``uno-rlcard``'s default, its ``prsi`` column ``uno``'s.

Histories recorded before an option existed lack it: the rules read it with RLCard's default
(``rule_of``), so they replay as played."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from service.games.kernel.option_catalogue import option_item, preset_entry
from service.games.kernel.options import OptionSpec, check_basic, check_delays, copy, resolve_specs

RLCARD, PUBLISHED = "uno-rlcard", "uno"
VARIANTS: tuple[str, ...] = (RLCARD, PUBLISHED)
VARIANT = RLCARD  # the first preset (RLCard's)
BOT_STRENGTHS: tuple[str, ...] = ("easy", "medium")
"""The strengths this game has bots for (no searching bot yet)."""

PLAY_AT_ONCE, PLAY_OR_KEEP = "play_at_once", "play_or_keep"
ONLY_WITHOUT_PLAYABLE, ONLY_WITHOUT_COLOUR = "only_without_playable", "only_without_colour"
SINGLE_ROUND, TARGET_POINTS = "single_round", "target_points"
PRINTED_FROM = 4
"""The rules version (kernel/table.py RULES_VERSION) from which the ``uno`` preset plays the printed
rules where RLCard's differ: a +2/+4 that goes out still makes the next player draw, and a reshuffle
keeps the top card on the table. Older ``uno`` histories replay as they were played."""
SEATS = {RLCARD: 4, PUBLISHED: 10}
"""The most seats of each preset: RLCard's game plays 2-4, the printed game 2-10."""


def printed(variant: str, rules_version: int) -> bool:
    """Whether a table plays the printed rules of the going-out penalty and the reshuffle."""
    return variant == PUBLISHED and rules_version >= PRINTED_FROM


def _o(name: str, typ: str, rlcard: Any, published: Any = "same", **kw: Any) -> OptionSpec:
    return OptionSpec(name, typ, rlcard, rlcard if published == "same" else published, **kw)


SPECS: tuple[OptionSpec, ...] = (
    _o("min_players", "int", 2, lo=2, hi=4),  # RLCard's game_num_players, checked here for 2-4
    _o("max_players", "int", 4, lo=2, hi=4),
    _o("cards_dealt", "int", 7, lo=1, hi=7),  # RLCard deals 7 (game.py); fewer make shorter hands
    # the rules that differ (docs/games/uno.md): RLCard's, then the published
    _o("drawn_card", "enum", PLAY_AT_ONCE, PLAY_OR_KEEP, values=(PLAY_AT_ONCE, PLAY_OR_KEEP)),
    _o("wild_draw_4", "enum", ONLY_WITHOUT_PLAYABLE, ONLY_WITHOUT_COLOUR,
       values=(ONLY_WITHOUT_PLAYABLE, ONLY_WITHOUT_COLOUR)),
    _o("uno_call", "bool", False, True),  # "UNO" called on the next-to-last card, caught for two (call.py)
    _o("match_end_mode", "enum", SINGLE_ROUND, TARGET_POINTS, values=(SINGLE_ROUND, TARGET_POINTS)),
    _o("target_points", "int", 500, lo=50, hi=2000),  # with match_end_mode target_points
    _o("round_intermission_s", "int", 3, lo=0, hi=60),  # between hands (match_end_mode target_points)
    # §8.3 table, timing and bots
    _o("bot_seats", "int", 0, lo=0, hi=3),
    _o("bot_strength", "enum", "easy", values=BOT_STRENGTHS),
    _o("bot_delay_ms", "delays", {"easy": [800, 1600], "medium": [600, 1400]}, lo=0, hi=60000),
    _o("turn_timeout_s", "int_or_null", 45, lo=10, hi=600),
    _o("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    _o("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    _o("absent_removal_s", "int", 300, lo=60, hi=3600),
)
SPEC_BY_NAME = {s.name: s for s in SPECS}


def specs(variant: str) -> tuple[OptionSpec, ...]:
    """A preset's specs: the seat ranges are the preset's (``SEATS``: ``bot_seats`` up to its seats but one)."""
    most = SEATS.get(variant, 4)
    hi = {"min_players": most, "max_players": most, "bot_seats": most - 1}
    return tuple(replace(s, hi=hi[s.name]) if s.name in hi else s for s in SPECS)


def to_target(options: Mapping[str, Any]) -> int | None:
    """The points that end the match (hand after hand), or None: one hand with RLCard's payoffs."""
    return int(options["target_points"]) if rule_of(options, "match_end_mode") == TARGET_POINTS else None


def rule_of(options: Mapping[str, Any], name: str) -> Any:
    """A rule option of a table: its value, or RLCard's when the history predates the option."""
    return options.get(name, SPEC_BY_NAME[name].classic)


def _check(spec: OptionSpec, v: Any, resolved: Mapping[str, Any]) -> str | None:
    return check_delays(v, spec, BOT_STRENGTHS) if spec.type == "delays" else check_basic(spec, v, resolved)


def _cross(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    if r["min_players"] <= r["max_players"]:
        return []
    return [{"option": n, "detail": "min_players <= max_players"} for n in ("min_players", "max_players")
            if n in explicit]


def defaults(variant: str = RLCARD) -> dict[str, Any]:
    """§8.4: the full default option set of a preset (fresh copies)."""
    published = variant == PUBLISHED
    return {s.name: copy(s.prsi if published else s.classic) for s in SPECS}


def resolve(variant: str, overrides: Mapping[str, Any] | None,
            max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; (resolved, warnings) or OptionError (invalid_option)."""
    return resolve_specs(defaults(variant), {s.name: s for s in specs(variant)}, overrides, max_players, _check, _cross)


def catalogue() -> list[dict[str, Any]]:
    """GET /v1/variants: each preset with its option schema and player range."""
    out = []
    for v in VARIANTS:
        d = defaults(v)
        options = [option_item(s, copy(d[s.name]), SEATS[v]) for s in specs(v)]
        # the player range is the preset's (2-4, the printed 2-10), whatever its default table's seats
        out.append(preset_entry(v, v, {**d, "max_players": SEATS[v]}, options, BOT_STRENGTHS))
    return out
