"""§8.5 validation helpers: per-option type/range checks (rules 1-2 cross checks)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.option_catalogue import BOOLS, option_item
from service.games.kernel.options import OptionSpec, check_basic, check_delays, is_int
from service.games.kernel.table import BOT_STRENGTHS
from service.games.shedding.cards import RANKS

UNSUPPORTED: dict[str, Any] = {}
"""Values valid in RULES §8 that this engine does not implement yet (rejected explicitly); none
since the challenge mode (§3.8.4, kernel/catch.py)."""


def check_value(spec: OptionSpec, v: Any, resolved: Mapping[str, Any] | None = None) -> str | None:
    """§8 types: None when ``v`` is a valid value of ``spec``, else a reason (the card types here,
    the basic ones in the kernel)."""
    t = spec.type
    if spec.name in UNSUPPORTED and v == UNSUPPORTED[spec.name]:
        return "not supported yet"
    if t == "rank":
        return None if isinstance(v, str) and v in RANKS else "must be a rank"
    if t == "ranks":
        return _check_ranks(v)
    if t == "points":
        return _check_points(v, spec)
    if t == "delays":
        return check_delays(v, spec, BOT_STRENGTHS)
    return check_basic(spec, v, resolved)


def _check_ranks(v: Any) -> str | None:
    if not isinstance(v, list) or not v or any(not isinstance(r, str) or r not in RANKS for r in v):
        return "must be a non-empty list of ranks"
    return None if len(set(v)) == len(v) else "ranks must be distinct"


def _check_points(v: Any, spec: OptionSpec) -> str | None:
    if not isinstance(v, dict) or set(v) != set(RANKS) & set(v) or not v:
        return "must map ranks to integers"
    if any(not is_int(p) or not spec.lo <= p <= spec.hi for p in v.values()):
        return f"every value must be an integer in [{spec.lo}, {spec.hi}]"
    return None


EFFECTS = (("wild_rank", "jack_wild"), ("draw_rank", "seven_draw_penalty"),
           ("skip_rank", "eight_skips"), ("reverse_rank", "nine_reverses"),
           ("extra_card_rank", "ace_plays_again"), ("lock_rank", "queen_only_king_same_suit"))


def cross_checks(r: Mapping[str, Any], explicit: set[str]) -> list[dict[str, Any]]:
    """§8.5 rules 1 and 2 (and card points for every deck rank), naming the explicit options.

    A conflict is always caused by an explicit value (every preset is valid); if none of the
    options involved is explicit, the request's max_players is the one named."""
    errors: list[dict[str, Any]] = []
    missing = [rk for rk in r["deck_ranks"] if rk not in r["card_points"]]
    if missing:
        _name(errors, ("card_points", "deck_ranks"), explicit, f"no card_points for ranks {missing}")
    deck = len(r["deck_ranks"]) * 4 * r["deck_copies"]
    if r["max_players"] * r["hand_size"] + 4 > deck:
        _name(errors, ("max_players", "hand_size", "deck_ranks", "deck_copies"), explicit,
              f"rule 1: {r['max_players']} x {r['hand_size']} + 4 cards exceed the deck of {deck}")
    seen: dict[str, list[str]] = {}
    for rank_opt, flag in EFFECTS:
        if r[flag]:
            seen.setdefault(r[rank_opt], []).extend([rank_opt, flag])
    for rank, names in seen.items():
        if len(names) > 2:
            _name(errors, tuple(names), explicit, f"rule 2: rank {rank} carries two enabled effects")
    return errors


def _name(errors: list[dict[str, Any]], involved: tuple[str, ...], explicit: set[str], detail: str) -> None:
    named = [n for n in involved if n in explicit] or ["max_players"]
    for name in named:
        if not any(e["option"] == name for e in errors):
            errors.append({"option": name, "detail": detail})


def catalog_option(spec: OptionSpec, default: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """GET /v1/variants: one option's type, default and accepted range (kernel/option_catalogue.py;
    a rank or a list of ranks ranges over the ranks, a boolean over the values this engine supports)."""
    bools = [v for v in BOOLS if UNSUPPORTED.get(spec.name) is not v]
    return option_item(spec, default, defaults["max_players"], bools=bools, ranges=_RANKED)


_RANKED = {"rank": RANKS, "ranks": RANKS}
