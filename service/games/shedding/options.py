"""§8 configuration options: typed specs, presets, resolution and validation (§8.5)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.model import RuleViolation
from service.games.kernel.option_catalogue import preset_entry
from service.games.kernel.options import OptionError, OptionSpec, clean_strings, copy as _copy, drop_switched_off
from service.games.kernel.table import BOT_STRENGTHS  # re-exported
from service.games.shedding.cards import RANKS
from service.games.shedding.option_checks import catalog_option, check_value, cross_checks

FACE = {r: int(r) for r in RANKS if r.isdigit()}
PRSI_POINTS = {**FACE, "J": 20, "Q": 10, "K": 10, "A": 11}
CLASSIC_POINTS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
CLASSIC_RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
DELAYS = {"easy": [1200, 2500], "medium": [900, 1800], "hard": [700, 1600]}


def _s(name: str, typ: str, classic: Any, prsi: Any = "same", **kw: Any) -> OptionSpec:
    return OptionSpec(name, typ, classic, classic if prsi == "same" else prsi, **kw)


_SEVEN = ("seven_draw_penalty", True)
_JACK = ("jack_wild", True)
_ACE = ("ace_plays_again", True)
SPECS: tuple[OptionSpec, ...] = (
    # §8.1.1 deck, players, deal
    _s("deck_ranks", "ranks", CLASSIC_RANKS, list(RANKS)),
    _s("deck_copies", "int", 1, 2, lo=1, hi=2),
    _s("card_points", "points", CLASSIC_POINTS, PRSI_POINTS, lo=1, hi=100),
    _s("min_players", "int", 2, lo=2, hi=2),
    _s("max_players", "int", 5, lo=2, hi=5),
    _s("hand_size", "int", 5, 7, lo=4, hi=7),
    _s("first_dealer", "enum", "random", values=("random", "creator")),
    _s("dealer_rotation", "enum", "clockwise", values=("clockwise", "loser_deals", "winner_deals")),
    _s("starter_special_policy", "enum", "ignore", "cover", values=("ignore", "cover", "apply")),
    # §8.1.2 drawing and the stock
    _s("play_after_draw", "enum", "drawn_card_only", "none", values=("none", "drawn_card_only", "any")),
    _s("must_play_drawn_if_legal", "bool", False),
    _s("voluntary_draw_mode", "enum", "draw_then_continue", "ends_like_forced",
       values=("ends_like_forced", "disabled", "draw_then_continue")),
    _s("max_draws_per_turn", "int", 1, lo=1, hi=5, parent=("voluntary_draw_mode", "draw_then_continue")),
    _s("reshuffle_discard", "bool", True),
    _s("blocked_round_rule", "enum", "lowest_hand_wins", values=("lowest_hand_wins", "all_score")),
    _s("max_turns_per_round", "int", 500, lo=50, hi=5000),
    # §8.1.3 effect ranks
    _s("wild_rank", "rank", "J"),
    _s("draw_rank", "rank", "7"),
    _s("skip_rank", "rank", "8"),
    _s("reverse_rank", "rank", "9"),
    _s("extra_card_rank", "rank", "A"),
    _s("lock_rank", "rank", "Q"),
    _s("lock_target_rank", "rank", "K"),
    # §8.1.4 jacks
    _s("jack_wild", "bool", True),
    _s("jack_requires_no_match", "bool", True, False, parent=_JACK),
    _s("jack_on_jack_allowed", "bool", True, parent=_JACK),
    _s("jack_calls_suit_on_match", "bool", False, True, parent=_JACK),
    _s("jack_ends_round_doubles", "bool", False),
    _s("jack_end_multiplier", "int", 2, lo=2, hi=4, parent=("jack_ends_round_doubles", True)),
    # §8.1.5 sevens
    _s("seven_draw_penalty", "bool", False, True),
    _s("seven_draw_count", "int", 1, 2, lo=1, hi=4, parent=_SEVEN),
    _s("seven_stacking", "enum", "transfer", "accumulate", values=("transfer", "accumulate"), parent=_SEVEN),
    _s("seven_answerable", "bool", True, parent=_SEVEN),
    _s("final_seven_penalty", "bool", True, parent=_SEVEN),
    _s("final_seven_amount", "enum", "fixed", values=("fixed", "accumulated"), parent=_SEVEN),
    # §8.1.6 eights, nines, aces, queens
    _s("eight_skips", "bool", False, True),
    _s("skip_counterable", "bool", False, parent=("eight_skips", True)),
    _s("nine_reverses", "bool", False, True),
    _s("reverse_two_player_mode", "enum", "no_effect", values=("no_effect", "acts_as_skip"),
       parent=("nine_reverses", True)),
    _s("ace_plays_again", "bool", False, True),
    _s("ace_followup_optional", "bool", False, parent=_ACE),  # §5.5.7 [SEED-C]: declining draws one
    _s("ace_last_card_wins", "bool", True, parent=_ACE),
    _s("queen_only_king_same_suit", "bool", False),
    _s("queen_lock_allows_jack", "bool", False, parent=("queen_only_king_same_suit", True)),
    # §8.1.7 last-card announcement
    _s("announce_required", "bool", True),
    _s("announce_word", "string", "мяу-мяу", "Mau"),
    _s("announce_mode", "enum", "flag_or_window", values=("flag_or_window", "flag_only", "auto")),
    _s("announce_penalty_cards", "int", 2, lo=0, hi=5),
    _s("announce_penalty_requires_challenge", "bool", False),
    _s("false_challenge_penalty_cards", "int", 0, lo=0, hi=5,
       parent=("announce_penalty_requires_challenge", True)),
    _s("early_announce_penalty_cards", "int", 0, lo=0, hi=5),  # §3.8.5
    _s("announce_grace_ms", "int", 1500, lo=0, hi=5000),
    # §8.1.8 scoring and match end
    _s("match_end_mode", "enum", "limit_reached", "elimination",
       values=("limit_reached", "elimination", "single_round")),
    _s("penalty_limit", "int", 100, 200, lo=50, hi=1000),
    _s("penalty_limit_comparison", "enum", "gte", "gt", values=("gte", "gt")),
    _s("tie_break", "enum", "shared", values=("shared", "last_round_score")),
    # §8.1.9 joining and leaving
    _s("allow_join_between_rounds", "bool", False, True),
    _s("joiner_initial_score", "enum", "worst_active", values=("worst_active", "zero", "average_active")),
    _s("leaver_policy", "enum", "strike", values=("strike", "replace_with_bot")),
    # §8.3 table, timing and bots
    _s("bot_seats", "int", 0, lo=0, hi=4),
    _s("bot_strength", "enum", "medium", values=BOT_STRENGTHS),
    _s("bot_delay_ms", "delays", DELAYS, lo=0, hi=60000),
    _s("easy_bot_forget_announce_p", "float", 0.0, lo=0.0, hi=0.5),
    _s("hard_bot_budget_ms", "int", 800, lo=50, hi=10000),
    _s("hard_bot_iterations", "int", 2000, lo=10, hi=100000),
    _s("turn_timeout_s", "int_or_null", 45, lo=10, hi=600),
    _s("max_consecutive_timeouts", "int", 3, lo=1, hi=10),
    _s("absent_policy", "enum", "default_actions", values=("default_actions", "bot_autopilot")),
    _s("absent_removal_s", "int", 300, lo=60, hi=3600),
    _s("round_intermission_s", "int", 3, lo=0, hi=60),
)
SPEC_BY_NAME: dict[str, OptionSpec] = {s.name: s for s in SPECS}

_CLASSIC_FULL = {"jack_ends_round_doubles": True, "queen_only_king_same_suit": True,
                 "seven_draw_penalty": True, "eight_skips": True}
_TRADITIONAL = {"deck_ranks": CLASSIC_RANKS, "deck_copies": 1, "hand_size": 4,
                "card_points": CLASSIC_POINTS, "wild_rank": "Q", "eight_skips": True,
                "skip_rank": "A", "skip_counterable": True, "nine_reverses": False,
                "ace_plays_again": False, "match_end_mode": "single_round"}
PRESET_BASE: dict[str, tuple[str, dict[str, Any], str]] = {
    # name: (column of §8.1, overrides on that column, game); one engine serves them all
    "mau-mau-classic": ("classic", {}, "mau-mau"),
    "mau-mau-classic-full": ("classic", _CLASSIC_FULL, "mau-mau"),
    "prsi": ("prsi", {}, "prsi"),
    "prsi-traditional": ("prsi", _TRADITIONAL, "prsi"),
}
"""The shedding presets of §8.4 (sakapuss has its own option set)."""
PRESET_RANGES: dict[str, dict[str, tuple[int, int]]] = {
    "mau-mau-classic": {"hand_size": (5, 7)},  # §4.3 / §4.5.10: 5, 6 or 7 [SEED-A]
    "mau-mau-classic-full": {"hand_size": (5, 7)},
}
"""Per-preset narrower ranges of an option (§8.1.1: "classic allows 5, 6, 7")."""


def preset_defaults(variant: str) -> dict[str, Any]:
    """§8.4: the full default option set of a preset."""
    if variant not in PRESET_BASE:
        raise RuleViolation(KernelCode.UNKNOWN_VARIANT, f"unknown variant {variant!r}", variant=variant)
    column, extra, _game = PRESET_BASE[variant]
    out = {s.name: _copy(s.classic if column == "classic" else s.prsi) for s in SPECS}
    out.update({k: _copy(v) for k, v in extra.items()})
    return out


PRESETS: dict[str, dict[str, Any]] = {name: preset_defaults(name) for name in PRESET_BASE}




def spec_for(variant: str, name: str) -> OptionSpec:
    """The option's spec with the preset's own range, if it narrows one (PRESET_RANGES)."""
    spec = SPEC_BY_NAME[name]
    rng = PRESET_RANGES.get(variant, {}).get(name)
    return replace(spec, lo=rng[0], hi=rng[1]) if rng else spec


def resolve_options(variant: str, overrides: Mapping[str, Any] | None,
                    max_players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5: preset + overrides, validated; returns (resolved, warnings) or raises OptionError.

    Only explicit values are judged: every bad one is named in one invalid_option (type and range errors
    and the cross checks of rules 1-2 together); inherited values are never rejected; an option
    whose parent is off is dropped, never rejected: the preset's default is kept and a warning names
    it (rules 3-5, ``drop_switched_off``); rule 7 is a warning.
    """
    defaults = preset_defaults(variant)
    resolved = dict(defaults)
    overrides = dict(overrides or {})
    errors: list[dict[str, Any]] = []
    for name, value in overrides.items():
        if name not in SPEC_BY_NAME:
            errors.append({"option": name, "detail": "unknown option"})
            continue
        resolved[name] = _copy(value)
    explicit = {n for n in overrides if n in SPEC_BY_NAME}
    if max_players != defaults["max_players"]:
        explicit.add("max_players")  # given as the request's top-level max_players
    resolved["max_players"] = max_players
    dropped, dropped_warnings = drop_switched_off(resolved, defaults, SPEC_BY_NAME, explicit)
    explicit -= dropped
    bad: set[str] = set()
    for name in sorted(explicit, key=list(SPEC_BY_NAME).index):
        detail = check_value(spec_for(variant, name), resolved[name], resolved)
        if detail:
            errors.append({"option": name, "detail": detail})
            bad.add(name)
    safe = {**resolved, **{n: defaults[n] for n in bad}}
    errors.extend(cross_checks(safe, explicit - bad))
    if errors:
        raise OptionError(errors)
    clean_strings(resolved, SPEC_BY_NAME, explicit)
    return resolved, dropped_warnings + _warnings(resolved)


def _warnings(resolved: Mapping[str, Any]) -> list[dict[str, Any]]:
    """§8.5 rule 7: a penalty limit that the first round can trivially reach.

    [DECISION] Not given under match_end_mode = single_round, where no limit is used."""
    if resolved["match_end_mode"] == "single_round":
        return []
    points = resolved["card_points"]
    worst = max(points[r] for r in resolved["deck_ranks"]) * resolved["hand_size"]
    if resolved["penalty_limit"] < worst:
        return [{"option": "penalty_limit",
                 "detail": f"below the largest card value x hand size ({worst})"}]
    return []


def variants_catalog() -> list[dict[str, Any]]:
    """GET /v1/variants: each preset with every option's type, default and range."""
    out = []
    for name, (_col, _extra, game) in PRESET_BASE.items():
        defaults = PRESETS[name]
        options = [catalog_option(spec_for(name, s.name), defaults[s.name], defaults) for s in SPECS]
        out.append(preset_entry(name, game, defaults, options, BOT_STRENGTHS))
    return out
