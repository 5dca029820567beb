"""GET /v1/variants for every game: one option's entry (its type, default, accepted range, enum,
parent switch) and one preset's entry (its options, player range and bot strengths)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.games.kernel.options import OptionSpec, copy

BOOLS = (False, True)


def option_item(spec: OptionSpec, default: Any, max_players: int, *, bools: Sequence[bool] | None = BOOLS,
                enum_range: bool = True, ranges: Mapping[str, Sequence[Any]] | None = None) -> dict[str, Any]:
    """One option of a preset: ``range`` is ``[min, max]`` where the spec bounds it (``bot_seats`` up
    to the preset's seats but one; for ``points`` and ``delays`` the bounds of each value), ``[1, 40]``
    for a string's length, else the accepted values: ``bools`` (None: not listed), an enum's values
    (with ``enum_range``; always as ``enum``), a game type's from ``ranges``, ``[None]`` for null."""
    t = spec.type
    item: dict[str, Any] = {"name": spec.name, "type": t, "default": default}
    if spec.lo is not None:
        item["range"] = [spec.lo, max_players - 1 if spec.name == "bot_seats" else spec.hi]
    elif t == "string":
        item["range"] = [1, 40]
    elif t == "bool":
        if bools is not None:
            item["range"] = list(bools)
    elif t == "enum":
        if enum_range:
            item["range"] = list(spec.values)
        item["enum"] = list(spec.values)
    elif ranges is not None and t in ranges:
        item["range"] = list(ranges[t])
    elif t == "null":
        item["range"] = [None]
    if t == "int_or_null":
        item["nullable"] = True
    if spec.parent:  # §8.5 rules 3-5: dropped while the parent is off
        item["parent"] = {"option": spec.parent[0], "value": spec.parent[1]}
    return item


def preset_entry(name: str, game: str, defaults: Mapping[str, Any], options: list[dict[str, Any]],
                 strengths: Sequence[str]) -> dict[str, Any]:
    """One preset of the catalogue: its options and player range, the game it is, its bots."""
    return {"name": name, "game": game, "min_players": defaults["min_players"],
            "max_players": defaults["max_players"], "options": options, "bot_strengths": list(strengths)}


def one_preset_entry(variant: str, specs: Sequence[OptionSpec], strengths: Sequence[str],
                     **item: Any) -> dict[str, Any]:
    """The entry of a game with one preset (its name is the game's): every spec at its default;
    ``item`` as ``option_item`` takes it (which values it lists)."""
    d = {s.name: copy(s.classic) for s in specs}
    options = [option_item(s, copy(d[s.name]), d["max_players"], **item) for s in specs]
    return preset_entry(variant, variant, d, options, strengths)
