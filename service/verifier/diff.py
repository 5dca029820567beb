"""Where two records first differ: the path of the first differing field and both values.
Standard library only (the replay compares a recorded event with the one the rules produce)."""
from __future__ import annotations

from typing import Any


class Absent:
    """The value of a field that one side does not hold (shown as ``absent``; null in JSON)."""

    def __repr__(self) -> str:
        return "absent"


ABSENT = Absent()


def first_difference(expected: Any, found: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """``(path, expected, found)`` of the first field (keys in sorted order, list items in order)
    where ``found`` differs from ``expected``; None when they are equal. A path reads like
    ``data.card`` or ``private.2.hand[3]``; a field one side lacks shows as ``ABSENT``."""
    if expected == found and type(expected) is type(found):
        return None
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in expected or key not in found:
                return sub, expected.get(key, ABSENT), found.get(key, ABSENT)
            got = first_difference(expected[key], found[key], sub)
            if got is not None:
                return got
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for k in range(max(len(expected), len(found))):
            if k >= len(expected) or k >= len(found):
                return (f"{path}[{k}]", expected[k] if k < len(expected) else ABSENT,
                        found[k] if k < len(found) else ABSENT)
            got = first_difference(expected[k], found[k], f"{path}[{k}]")
            if got is not None:
                return got
        return None
    return path, expected, found
