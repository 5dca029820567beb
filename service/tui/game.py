"""A game as its catalogue entry describes it (GET /v1/variants, docs/clients.md): its cards' faces,
its suits, the marks on its view's fields and actions, its words and the event that ends a match.
`meow play` knows no game: everything it says about one comes from here."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)(?::([A-Za-z0-9_]+))?\}")
ROW = {"show": "row", "kind": ""}  # a field the marks do not know: a row (forward compatible)
DASH = "—"


def words(name: str) -> str:
    return name.replace("_", " ")


def _at(thing: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(thing, dict):
            return None
        thing = thing.get(part)
    return thing


@dataclass(frozen=True)
class Face:
    """What a card shows: a label (rank or value), a suit id or an icon, a colour hint, its name's words."""
    label: str
    suit: str | None = None
    symbol: str | None = None
    colour: str | None = None
    name: str | None = None


@dataclass
class Game:
    """One catalogue entry, read for a view (seat names and options come from ``view``)."""
    entry: dict = field(default_factory=dict)
    lang: str = "en"
    view: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        all_words = self.entry.get("words") or {}
        self.words: dict[str, str] = all_words.get(self.lang) or all_words.get("en") or {}
        self.faces = {c["id"]: c for c in self.entry.get("cards") or [] if isinstance(c, dict) and "id" in c}
        self.suits = {s["id"]: s for s in self.entry.get("suits") or [] if isinstance(s, dict) and "id" in s}
        marks = self.entry.get("marks") or {}  # docs/clients.md: the marks of the view's fields, `own` for `you`'s
        self.marks: dict = {**marks, "you": marks.get("own") or {}}
        self.end_event: str | None = self.entry.get("end_event")

    # ---- words ---------------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return isinstance(self.words.get(key), str)

    def tell(self, key: str, thing: dict | None = None, otherwise: str | None = None,
             read_as: dict[str, str] | None = None) -> str:
        """The words of ``key`` about ``thing`` (an event's data, an action, a note)."""
        text = self.words.get(key)
        if not isinstance(text, str):
            return otherwise if otherwise is not None else words(key.rsplit(".", 1)[-1])

        return PLACEHOLDER.sub(lambda m: self._filled(m.group(1), m.group(2), thing or {}, read_as or {}), text)

    def _filled(self, path: str, kind: str | None, thing: dict, read_as: dict[str, str]) -> str:
        """One placeholder: ``{path}`` or ``{path:kind}`` (a placeholder with no kind: ``read_as``)."""
        value = _at(self.view.get("options"), path[8:]) if path.startswith("options.") else _at(thing, path)
        return DASH if value is None else self.read(value, kind or read_as.get(path, ""))

    def read(self, value: Any, kind: str = "") -> str:
        """A value by its kind: a seat's name, a card or suit by its face, a word, or as it is."""
        if value is None:
            return DASH
        if kind == "seat":
            return self.seat_name(value)
        if kind in ("seats", "order"):
            return ", ".join(self.seat_name(s) for s in (value if isinstance(value, list) else [value]))
        if kind in ("card", "cards"):  # in words: its spoken name
            return ", ".join(self.card_name(str(c)) for c in (value if isinstance(value, list) else [value]))
        if kind == "suit":
            return self.suit_spoken(str(value))
        if isinstance(value, bool) or kind == "bool":
            key = "yes" if value else "no"
            return self.words[key] if self.has(key) else key
        if kind and kind not in ("int", "text", "ms", "object") and self.has(f"{kind}.{value}"):
            return self.words[f"{kind}.{value}"]
        return str(value)

    def read_field(self, name: str, value: Any, kind: str = "") -> str:
        """A field's value: a `word` field as words["<name>.<value>"], cards by their faces, a list
        item by item."""
        if kind in ("card", "cards"):
            return " ".join(self.card_label(str(c)) for c in (value if isinstance(value, list) else [value]))
        if kind == "word" and isinstance(value, list):  # a list of words: each by its own word
            return ", ".join(self.read_field(name, v, kind) for v in value)
        if kind == "word":
            return self.words[f"{name}.{value}"] if self.has(f"{name}.{value}") else str(value)
        if isinstance(value, list) and kind not in ("seats", "order", "cards"):
            return ", ".join(self.short(v, kind) for v in value[-5:]) if len(value) <= 5 else \
                "…, " + ", ".join(self.short(v, kind) for v in value[-5:])
        if isinstance(value, dict):
            return ", ".join(f"{k}: {self.short(v, kind)}" if str(k).isdigit() else f"{words(str(k))} {self.short(v, kind)}"
                             for k, v in value.items())
        return self.read(value, kind)

    def short(self, value: Any, kind: str = "") -> str:
        if isinstance(value, dict):
            return "[" + ", ".join(f"{words(str(k))} {self.short(v)}" for k, v in value.items()) + "]"
        if isinstance(value, list):
            return " ".join(self.short(v, kind) for v in value)
        return self.read(value, kind)

    def seat_name(self, seat: Any) -> str:
        for row in self.view.get("seats") or []:
            if row.get("seat") == seat or str(row.get("seat")) == str(seat):
                return row.get("name") or f"seat {seat}"
        return f"seat {seat}"

    def field_label(self, name: str) -> str:
        return self.tell(f"field.{name}", {}, words(name))

    def quiet(self, event_type: str) -> bool:
        """Whether the game's words leave this event out of a log (an empty description)."""
        return self.words.get(f"event.{event_type}") == ""

    # ---- cards and suits -----------------------------------------------------------------
    def face(self, card: str) -> Face:
        """The face of a card id: its own, else its id's with the last ``:part`` dropped, ..."""
        key = card
        while True:
            f = self.faces.get(key)
            if f is not None:
                rest = " ".join(card[len(key) + 1:].split(":")) if len(card) > len(key) else ""
                label = f.get("label")
                return Face(str(label) if label is not None else rest, f.get("suit"), f.get("symbol"),
                            f.get("colour"), f.get("name"))
            if ":" not in key:
                return Face(card)
            key = key.rsplit(":", 1)[0]

    def card_label(self, card: str) -> str:
        """A card by its face: label, suit symbol and suit id (it reads without colour), an icon and its
        label, or the id."""
        f = self.face(card)
        if f.suit:
            return f"{f.label}{self.suit_label(f.suit)}"
        return f"{f.symbol} {f.label}".strip() if f.symbol else f.label

    def card_name(self, card: str) -> str:
        f = self.face(card)
        if not f.name or not self.has(f.name):
            return self.card_label(card)
        label = self.words.get(f"label.{f.label}", f.label)
        return self.tell(f.name, {"label": label, "suit": self.suit_name(f.suit) if f.suit else ""})

    def is_red(self, card: str) -> bool:
        f = self.face(card)
        return (f.colour or (self.suits.get(f.suit or "", {}).get("colour"))) == "red"

    def suit_label(self, suit: str) -> str:
        symbol = (self.suits.get(suit) or {}).get("symbol") or ""
        return f"{symbol}{suit}"

    def suit_name(self, suit: str) -> str:
        return self.words.get(f"suit.{suit}", suit)

    def suit_spoken(self, suit: str) -> str:
        name = self.suit_name(suit)
        return self.suit_label(suit) + (f" ({name})" if name != suit else "")

    # ---- marks ---------------------------------------------------------------------------
    def mark(self, part: str, name: str) -> dict:
        return (self.marks.get(part) or {}).get(name) or ROW

    def action_mark(self, action_type: str, name: str) -> dict:
        return ((self.marks.get("actions") or {}).get(action_type) or {}).get(name) or {"show": "arg", "kind": ""}

    def card_of(self, action: dict) -> str | None:
        """The hand card an action plays: the field its marks call the card."""
        for k, v in action.items():
            if k != "type" and isinstance(v, str) and self.action_mark(action.get("type", ""), k).get("show") == "card":
                return v
        return None

    def fields(self, part: str, obj: Any, marks: dict | None = None) -> list[tuple[str, Any, dict]]:
        """(name, value, mark) of every field of a part of the view; a group's own properties follow it."""
        out: list[tuple[str, Any, dict]] = []
        for k, v in (obj or {}).items() if isinstance(obj, dict) else ():
            mark = (marks.get(k) or ROW) if marks is not None else self.mark(part, k)
            inner = mark.get("properties")
            if mark.get("show") == "group" and isinstance(v, dict):
                out += self.fields(part, v, inner if isinstance(inner, dict) else {})
            else:
                out.append((k, v, mark))
        return out
