"""What a generic client needs to draw and tell a game (docs/clients.md), as plain data.

A game ships its card faces and suits (``<game>/faces.py``), its words in every language of
``LANGS`` (``<game>/words.py``) and the display marks of its view's fields (``x-meow-*`` on the
properties of its spec, kernel/marks.py ``shown``); ``catalogue_part`` turns them into the part of
its GET /v1/variants entries that lets a client (service/web, service/tui) name no game.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any

from service.games.kernel.events import END_OF_MATCH
from service.games.kernel.marks import MARKS
from service.games.kernel.spec import GameSpec
from service.games.kernel.words import WORDS as KERNEL_WORDS, Words

LANGS: tuple[str, ...] = ("en", "cs", "ru")
"""The languages every game's words come in (each with the same keys)."""
COLOURS = frozenset({"red", "black", *(f"tone-{i}" for i in range(6))})
"""The colour hints a face or a suit may carry (a client maps them to its palette)."""


@dataclass(frozen=True)
class Face:
    """What a client shows for a card id (or, by docs/clients.md's lookup, every id that extends it
    with ``:<part>``s): ``label`` (None: the id's parts after ``id``), a ``suit`` id or a
    ``symbol``, a colour hint and ``name``, the words key of its spoken name."""

    id: str
    label: str | None
    name: str
    suit: str | None = None
    symbol: str | None = None
    colour: str = "black"


@dataclass(frozen=True)
class SuitFace:
    """A suit as a client shows it: its symbol and a colour hint (its name: words ``suit.<id>``)."""

    id: str
    symbol: str
    colour: str


@dataclass(frozen=True)
class Presentation:
    """A game's part of what a client draws: faces of every card it may deal, its suits, its words."""

    cards: tuple[Face, ...]
    suits: tuple[SuitFace, ...] = ()
    words: Words = field(default_factory=lambda: MappingProxyType({}))


def face_of(faces: Mapping[str, Face], card: str) -> Face | None:
    """docs/clients.md: the face of ``card``: its own, or that of the id with its last ``:part``
    dropped, again and again (``7H:1`` -> ``7H``; ``par:lice:2:b`` -> ``par:lice:2``)."""
    key = card
    while True:
        if key in faces:
            return faces[key]
        if ":" not in key:
            return None
        key = key.rsplit(":", 1)[0]


def merged_words(words: Words) -> dict[str, dict[str, str]]:
    """The kernel's shared words with the game's over them, per language."""
    return {lang: {**KERNEL_WORDS.get(lang, {}), **words.get(lang, {})} for lang in LANGS}


def marks(schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """``{field: {"show", "kind", "scope"}}`` of an object schema's properties (a ``group`` with the
    marks of its own properties), read from their ``x-meow-*`` extensions."""
    out: dict[str, Any] = {}
    for name, prop in ((schema or {}).get("properties") or {}).items():
        mark = {key: prop[f"x-meow-{key}"] for key in MARKS if f"x-meow-{key}" in prop}
        if mark.get("show") == "group":
            mark["properties"] = marks(prop)
        elif mark.get("kind") == "table" and any("x-meow-show" in p for p in
                                                 ((prop.get("items") or {}).get("properties") or {}).values()):
            mark["properties"] = marks(prop["items"])  # the columns of a list of objects, each with its mark
        out[name] = mark
    return out


def view_marks(spec: GameSpec | None) -> dict[str, Any]:
    """The marks of the game's table, turn, seat extras, ``you`` extras (``own``) and legal actions."""
    if spec is None:
        return {"table": {}, "turn": {}, "seat": {}, "own": {}, "actions": {}}
    return {"table": marks(spec.table), "turn": marks(spec.turn),
            "seat": marks({"properties": dict(spec.seat)}), "own": marks({"properties": dict(spec.you)}),
            "actions": {t: {k: v for k, v in marks(a).items() if k != "type"} for t, a in spec.actions.items()}}


def catalogue_part(presentation: Presentation | None, spec: GameSpec | None) -> dict[str, Any]:
    """The fields a game adds to each of its GET /v1/variants entries (docs/clients.md)."""
    p = presentation or Presentation(cards=())
    return {"cards": [asdict(f) for f in p.cards], "suits": [asdict(s) for s in p.suits],
            "marks": view_marks(spec), "end_event": END_OF_MATCH, "words": merged_words(p.words)}


def placeholders(text: str) -> Iterable[str]:
    """The ``{path}`` / ``{path:kind}`` placeholders of a words entry, as written."""
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth, start = 1, i + 1
        elif ch == "}" and depth:
            depth = 0
            yield text[start:i]
