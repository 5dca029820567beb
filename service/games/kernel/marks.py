"""Display marks on a game's data for generic clients (docs/clients.md): on each property of a
game's table, turn, seat and ``you`` extras and actions (its spec.py), as the ``x-meow-<mark>``
extensions of openapi.yaml, and in GET /v1/variants (kernel/presentation.py ``view_marks``)."""
from __future__ import annotations

from typing import Any

Json = dict[str, Any]

MARKS = ("show", "kind", "scope")
"""The display marks on a property of a game's table, turn, seat, ``you`` or action, as the
``x-meow-<mark>`` extensions of openapi.yaml (docs/clients.md: what a generic client reads)."""
SHOWS = frozenset({"top", "row", "seat", "note", "group", "timer", "none", "card", "arg"})
"""How a generic client draws a field (``card``/``arg``: an action's hand card / its other choices)."""
KINDS = frozenset({"card", "cards", "suit", "seat", "seats", "order", "int", "bool", "text", "ms",
                   "object", "table", "word"})
"""How a field's value reads."""
SCOPES = frozenset({"public", "seat", "private"})
"""Who sees it: every viewer, each seat's own row (per seat), or the token's own seat only."""
_KIND_OF_TYPE = {"integer": "int", "boolean": "bool", "string": "text", "number": "int", "object": "object",
                 "array": "text"}


def shown(schema: Json, show: str, kind: str | None = None, scope: str = "public") -> Json:
    """``schema`` marked for a generic client: how it is drawn (``show``), how its value reads
    (``kind``; by default from its JSON type) and who sees it (``scope``)."""
    kind = kind or _KIND_OF_TYPE.get(str(schema.get("type")), "text")
    if show not in SHOWS or kind not in KINDS or scope not in SCOPES:
        raise ValueError(f"unknown mark: show={show!r}, kind={kind!r}, scope={scope!r}")
    return {**schema, "x-meow-show": show, "x-meow-kind": kind, "x-meow-scope": scope}
