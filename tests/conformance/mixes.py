"""Seeded random option mixes for every registered variant, derived from its catalogue entry alone.

A mix starts from the preset's defaults, moves every ranged integer option to a value drawn near
the low end of its declared range (the "small table": the fewest rounds, the lowest limit, the
shortest turn cap the catalogue allows, so that random play ends), then changes a few options to
random values within their declared ranges. resolve_options has the last word: a refused mix is
redrawn, and every refusal is counted (a generator refused most of the time tests little).

Nothing here names a game, a variant or an option: a new game's catalogue entry is enough.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from service.games import registry
from service.games.kernel.options import OptionError

MAX_TRIES = 200


@dataclass(frozen=True)
class Mix:
    """One table to play: a variant, its explicit overrides, the seats to take and the draw's seed."""

    variant: str
    overrides: dict[str, Any]
    options: dict[str, Any]  # resolved
    players: int
    max_players: int
    seed: int
    refusals: int = 0  # how many drawn mixes resolve_options refused before this one

    @property
    def id(self) -> str:
        """The pytest id: enough to rebuild the mix (``mix_for(variant, players, index, seed)``)."""
        return f"{self.variant}-{self.players}p-s{self.seed}"


@dataclass
class Refusals:
    """How often resolve_options refused a drawn mix, per variant."""

    drawn: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)

    def rate(self, variant: str) -> float:
        return self.refused.get(variant, 0) / max(1, self.drawn.get(variant, 0))


REFUSALS = Refusals()


def catalogue() -> dict[str, dict[str, Any]]:
    """GET /v1/variants by variant name."""
    return {e["name"]: e for e in registry.variants_catalog()}


def variants() -> list[str]:
    return list(catalogue())


def seat_counts(variant: str) -> list[int]:
    """Every seat count the preset admits (its catalogue entry's min_players..max_players)."""
    e = catalogue()[variant]
    return list(range(int(e["min_players"]), int(e["max_players"]) + 1))


def _ranged(opt: dict[str, Any]) -> tuple[float, float] | None:
    r = opt.get("range")
    if isinstance(r, list) and len(r) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                   for x in r):
        return r[0], r[1]
    return None


def low_int(rng: random.Random, lo: int, hi: int, power: float = 3.0) -> int:
    """An integer in [lo, hi], most often near lo (u**power): small tables, now and then a big one."""
    return lo + int((hi - lo + 1) * rng.random() ** power) if hi > lo else lo


def _choices(opt: dict[str, Any]) -> list[Any]:
    if "enum" in opt:
        return list(opt["enum"])
    if opt["type"] == "bool":
        r = opt.get("range")
        return list(r) if isinstance(r, list) and r else [False, True]
    return list(opt.get("range") or [])


def random_value(rng: random.Random, opt: dict[str, Any], current: dict[str, Any]) -> Any:
    """A random value of ``opt`` within its declared range, enum or shape (``current``: the mix so far,
    for the types whose keys follow another option: points per deck rank, parasites per name)."""
    t, default = opt["type"], opt["default"]
    rr = _ranged(opt)
    if t in ("bool", "enum", "rank"):
        return rng.choice(_choices(opt) or [default])
    if t == "int" and rr:
        return low_int(rng, int(rr[0]), int(rr[1]))
    if t == "int_or_null":
        if opt.get("nullable") and rng.random() < 0.2:
            return None
        return low_int(rng, int(rr[0]), int(rr[1])) if rr else default
    if t == "float" and rr:
        return round(rr[0] + (rr[1] - rr[0]) * rng.random(), 3)
    if t == "string":
        return f"mix{rng.randrange(1000)}"
    if t == "ranks":
        pool = list(opt.get("range") or default)
        extra = [r for r in pool if r not in default]
        keep = sorted(set(default) | set(rng.sample(extra, rng.randint(0, len(extra)))), key=pool.index)
        return keep if rng.random() < 0.7 else sorted(rng.sample(pool, rng.randint(1, len(pool))), key=pool.index)
    if t == "points" and rr:
        ranks = next((v for k, v in current.items() if _type_of(k) == "ranks"), list(default))
        return {r: low_int(rng, int(rr[0]), int(rr[1]), 1.5) for r in ranks}
    if t == "delays" and rr:
        out = {}
        for strength in default:
            a, b = sorted(low_int(rng, int(rr[0]), int(rr[1]), 6.0) for _ in range(2))
            out[strength] = [a, b]
        return out
    if t == "names":
        return sorted(rng.sample(list(default), rng.randint(1, len(default))), key=list(default).index)
    if t == "parasites" and rr:
        names = next((v for k, v in current.items() if _type_of(k) == "names"), list(default))
        return {n: [low_int(rng, int(rr[0]), int(rr[1]), 1.0) for _ in range(rng.randint(1, 6))] for n in names}
    return default


_TYPES: dict[str, str] = {}


def _type_of(name: str) -> str:
    return _TYPES.get(name, "")


def _options(variant: str) -> list[dict[str, Any]]:
    opts = catalogue()[variant]["options"]
    _TYPES.update({o["name"]: o["type"] for o in opts})
    return opts


def small_table(rng: random.Random, variant: str, players: int, max_players: int) -> dict[str, Any]:
    """Every ranged integer option at the low end of its range, or (one time in two) between it
    and its default, most often near the low end: a short match by the catalogue's own bounds (few rounds, a low limit, a
    small turn cap), with no option named.
    An option whose low value the preset refuses for this table (resolve_options names it) keeps
    its default."""
    out: dict[str, Any] = {}
    for opt in _options(variant):
        rr = _ranged(opt)
        if opt["type"] == "int" and rr and opt["name"] != "max_players":
            lo, hi = int(rr[0]), min(int(rr[1]), int(opt["default"]))
            out[opt["name"]] = low_int(rng, lo, hi, 3.0) if hi > lo and rng.random() < 0.5 else lo
    for _ in range(len(out) + 1):
        try:
            registry.resolve_options(variant, out, max_players)
            return out
        except OptionError as exc:
            named = {e["option"] for e in exc.errors} & set(out)
            if not named:
                raise AssertionError(f"{variant}: the preset's own defaults are refused: {exc.errors}") from exc
            for name in named:
                del out[name]
    raise AssertionError(f"{variant}: no small table for {players} seats")


def draw_changes(rng: random.Random, variant: str, base: dict[str, Any], changes: int) -> dict[str, Any]:
    """A candidate: the small table with ``changes`` options set to random values in their ranges."""
    opts = [o for o in _options(variant) if o["name"] != "max_players"]
    overrides = dict(base)
    for opt in rng.sample(opts, min(changes, len(opts))):
        overrides[opt["name"]] = random_value(rng, opt, overrides)
        parent = opt.get("parent")
        if parent:  # a child option matters only under its parent's enabling value
            overrides[parent["option"]] = parent["value"]
    return overrides


def mix_for(variant: str, players: int, seed: int, changes: int | None = None) -> Mix:
    """The seeded mix ``seed`` of ``variant`` for ``players`` seats (seed 0: the small table alone)."""
    rng = random.Random(f"mix/{variant}/{players}/{seed}")
    n_changes = (0 if seed == 0 else rng.randint(1, 5)) if changes is None else changes
    max_players = rng.randint(players, int(catalogue()[variant]["max_players"]))
    base = small_table(rng, variant, players, max_players)
    refused = 0
    for _ in range(MAX_TRIES):
        overrides = draw_changes(rng, variant, base, n_changes)
        REFUSALS.drawn[variant] = REFUSALS.drawn.get(variant, 0) + 1
        try:
            resolved, _ = registry.resolve_options(variant, overrides, max_players)
        except OptionError:
            refused += 1
            REFUSALS.refused[variant] = REFUSALS.refused.get(variant, 0) + 1
            continue
        if int(resolved.get("min_players", players)) > players:
            continue  # valid, but not a table for this seat count
        return Mix(variant, overrides, resolved, players, max_players, seed, refused)
    raise AssertionError(f"no valid option mix of {variant} for {players} seats in {MAX_TRIES} draws "
                         f"(seed {seed}): the mix generator or the catalogue's ranges are wrong")


def with_options(mix: Mix, **extra: Any) -> Mix:
    """``mix`` with more explicit options (resolve_options must accept them)."""
    overrides = {**mix.overrides, **extra}
    resolved, _ = registry.resolve_options(mix.variant, overrides, mix.max_players)
    return Mix(mix.variant, overrides, resolved, mix.players, mix.max_players, mix.seed, mix.refusals)


def mixes(seeds: range, players_per_variant: int | None = None) -> Iterator[Mix]:
    """Every variant x every seat count (or the first few) x the given mix seeds."""
    for variant in variants():
        counts = seat_counts(variant)
        if players_per_variant is not None:
            counts = counts[:players_per_variant]
        for players in counts:
            for seed in seeds:
                yield mix_for(variant, players, seed)
