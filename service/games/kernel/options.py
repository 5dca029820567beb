"""Option machinery every game shares (§8): typed specs, the basic type checks, refusals."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.games.kernel import text
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import RuleViolation


@dataclass(frozen=True)
class OptionSpec:
    """One option of §8: its type, range or enum, parent dependency and per-preset defaults."""

    name: str
    type: str  # bool | int | int_or_null | enum | rank | ranks | points | string | float | delays
    classic: Any
    prsi: Any
    lo: float | None = None
    hi: float | None = None
    values: tuple[str, ...] = ()
    parent: tuple[str, Any] | None = None  # (option, value that enables this one)


def copy(value: Any) -> Any:
    """A deep copy of an option value (dicts and lists)."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value


class OptionError(RuleViolation):
    """``invalid_option`` naming every bad explicit option (§8.5)."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        names = ", ".join(e["option"] for e in errors)
        super().__init__(KernelCode.INVALID_OPTION, f"invalid options: {names}", errors=errors)
        self.errors = errors


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def within(v: float, lo: float | None, hi: float | None) -> bool:
    """Whether ``v`` lies in [lo, hi]: every numeric option's spec names both bounds."""
    assert lo is not None and hi is not None, "a numeric option's spec names lo and hi"
    return lo <= v <= hi


def check_basic(spec: OptionSpec, v: Any, resolved: Mapping[str, Any] | None = None) -> str | None:
    """§8 basic types (bool, int, float, enum, string, null, int_or_null): None when ``v`` is a
    valid value of ``spec``, else a reason; "unknown type" for a type a game checks itself."""
    t = spec.type
    if t == "bool":
        return None if isinstance(v, bool) else "must be a boolean"
    if t == "int":
        hi = spec.hi
        if spec.name == "bot_seats" and resolved is not None:
            hi = resolved["max_players"] - 1
        if not is_int(v):
            return "must be an integer"
        return None if within(v, spec.lo, hi) else f"must be in [{spec.lo}, {hi}]"
    if t == "float":
        if not (isinstance(v, (int, float)) and not isinstance(v, bool)):
            return "must be a number"
        return None if within(v, spec.lo, spec.hi) else f"must be in [{spec.lo}, {spec.hi}]"
    if t == "enum":
        return None if v in spec.values else f"must be one of {list(spec.values)}"
    if t == "string":  # shown to every player, like a name (kernel/text.py); stored clean (clean_strings)
        return text.problem(text.clean(v), 40, "this option") if isinstance(v, str) else "must be a string of 1-40 chars"
    if t == "null":
        return None if v is None else "only null is supported"
    if t == "int_or_null":
        if v is None:
            return None
        if not is_int(v):
            return "must be an integer or null"
        return None if within(v, spec.lo, spec.hi) else f"must be in [{spec.lo}, {spec.hi}] or null"
    return "unknown type"


def check_delays(v: Any, spec: OptionSpec, strengths: Sequence[str]) -> str | None:
    """§8.3 ``bot_delay_ms``: each of the game's bot ``strengths`` mapped to ``[min, max]`` ms within the spec."""
    if not isinstance(v, dict):
        return "must map strength to [min, max]"
    for key, pair in v.items():
        if key not in strengths:
            return f"unknown strength {key!r}"
        if (not isinstance(pair, list) or len(pair) != 2 or not all(is_int(x) for x in pair)
                or not spec.lo <= pair[0] <= pair[1] <= spec.hi):
            return f"{key}: must be [min, max] with {spec.lo} <= min <= max <= {spec.hi}"
    return None


def parent_on(spec: OptionSpec, specs: Mapping[str, OptionSpec], resolved: Mapping[str, Any]) -> bool:
    """§8.5 rules 3-5: whether an option applies (its parent, and the parent's own parent, enable it)."""
    if spec.parent is None:
        return True
    parent = specs[spec.parent[0]]
    return parent_on(parent, specs, resolved) and resolved.get(spec.parent[0]) == spec.parent[1]


def drop_switched_off(resolved: dict[str, Any], defaults: Mapping[str, Any], specs: Mapping[str, OptionSpec],
                      explicit: set[str]) -> tuple[set[str], list[dict[str, Any]]]:
    """§8.5 rules 3-5: an explicit option whose parent switch is off is dropped, never rejected and never
    stored as given: the table keeps the preset's default and ``warnings`` names it (whatever was sent,
    of any type or size, goes no further than this request). Judged on the values as given, so a
    child of a dropped child is dropped too; returns (the dropped names, their warnings)."""
    off = {n for n in explicit if n in specs and n != "max_players" and not parent_on(specs[n], specs, resolved)}
    warnings = []
    for name in sorted(off, key=list(specs).index):
        parent, value = specs[name].parent or ("", None)
        resolved[name] = copy(defaults[name])
        warnings.append({"option": name, "detail": f"ignored: it applies only when {parent} is "
                                                   f"{json_text(value)}; the default is kept"})
    return off, warnings


def json_text(value: Any) -> str:
    """A parent's enabling value as JSON reads it (true, "draw_then_continue")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def clean_strings(resolved: dict[str, Any], specs: Mapping[str, OptionSpec], explicit: set[str]) -> None:
    """An explicit text option is stored as names are: NFC-normalised and trimmed (kernel/text.py)."""
    for name in explicit:
        spec = specs.get(name)
        if spec is not None and spec.type == "string" and isinstance(resolved.get(name), str):
            resolved[name] = text.clean(resolved[name])


Check = Callable[[OptionSpec, Any, Mapping[str, Any]], "str | None"]
Cross = Callable[[Mapping[str, Any], set[str]], list[dict[str, Any]]]


def resolve_specs(resolved: dict[str, Any], specs: Mapping[str, OptionSpec], overrides: Mapping[str, Any] | None,
                  max_players: int, check: Check, cross: Cross) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """§8.5 for a game with one preset: its defaults (``resolved``) + overrides, an option whose
    parent is off dropped (``drop_switched_off``), each other explicit option checked, then the
    cross-option rules (naming the explicit options); OptionError lists every problem."""
    overrides = dict(overrides or {})
    defaults = {k: copy(v) for k, v in resolved.items()}
    errors: list[dict[str, Any]] = []
    for name, value in overrides.items():
        if name not in specs:
            errors.append({"option": name, "detail": "unknown option"})
        else:
            resolved[name] = copy(value)
    resolved["max_players"] = max_players
    dropped, warnings = drop_switched_off(resolved, defaults, specs, set(overrides))
    bad = check(specs["max_players"], max_players, resolved)
    if bad:
        errors.append({"option": "max_players", "detail": bad})
    for name in overrides:
        spec = specs.get(name)
        if spec is None or name == "max_players" or name in dropped:
            continue
        detail = check(spec, resolved[name], resolved)
        if detail:
            errors.append({"option": name, "detail": detail})
    if not errors:
        errors.extend(cross(resolved, (set(overrides) - dropped) | {"max_players"}))
    if errors:
        raise OptionError(errors)
    clean_strings(resolved, specs, set(overrides) - dropped)
    return resolved, warnings
