"""Both clients (the web table, service/web/static, and `meow play`, service/tui) hold no game
knowledge: they draw every game from what the API serves (the view, the legal actions, the variants
catalogue's cards and words, the spec's field marks). A client file may not name a game or a
variant, a card (an id, a rank or value, a suit, a pattern that recognises card ids), an event
type, an action type or a game's field. Every forbidden set comes from the registry and the spec,
never from a list written here; the names the API documents for every game (the kernel's: status,
seats, turn, hand, legal_actions, version, ...) are allowed, derived from the spec's components
that no game contributes."""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from service.games import registry
from tests.client_scan import READERS, TOKEN, Said, folded

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = (ROOT / "service" / "web" / "static", ROOT / "service" / "tui")
NOT_CARDS = ("xyz", "abc:def", "hello world", "e9", "Zz")  # a pattern matching these is not about cards


def client_files() -> list[Path]:
    return sorted(p for d in CLIENTS for p in d.rglob("*") if p.is_file() and p.suffix in READERS)


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").split("_"))


def _props(schema: Any, out: set[str]) -> set[str]:
    """Every property name declared anywhere inside a JSON Schema (refs not followed)."""
    if isinstance(schema, dict):
        for k, v in (schema.get("properties") or {}).items():
            out.add(k)
            _props(v, out)
        for key in ("items", "additionalProperties"):
            _props(schema.get(key), out)
        for key in ("anyOf", "oneOf", "allOf"):
            for x in schema.get(key) or ():
                _props(x, out)
    return out


@cache
def spec_components() -> dict[str, Any]:
    """openapi.yaml's schemas (the committed spec: tests/test_architecture.py keeps it current)."""
    import yaml

    text = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["components"]["schemas"]


def _game_components() -> set[str]:
    """The components a game's GameSpec, options or events contribute (service/api/components.py)."""
    from service.games.kernel.spec import TABLE_EVENTS

    games = {_camel(g.name) for g in registry.GAMES}
    game_events = {t for g in registry.GAMES for t in g.event_types} - set(TABLE_EVENTS)
    actions = {f"{_camel(a)}{part}" for a in registry.ACTIONS for part in ("Action", "Request")}
    unions = {"Table", "Turn", "Record", "Options", "LegalAction"}  # oneOf the games' own
    # the view and the create body per game: the common fields, pointing at the game's own parts
    common = {f"{g}{part}" for g in games for part in ("GameView", "CreateGame")}
    return {name for name in spec_components() if name not in common
            and (name in unions | actions or any(name.startswith(p) for p in games | game_events))}


def _marks(schema: Any, out: set[str]) -> set[str]:
    """The vocabulary of the spec's display marks (``x-meow-*`` values: card, suit, row, seat, ...)."""
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k.startswith("x-meow") and isinstance(v, str):
                out.add(v)
            _marks(v, out)
    elif isinstance(schema, list):
        for v in schema:
            _marks(v, out)
    return out


@cache
def kernel_names() -> frozenset[str]:
    """The names the API documents for every game: every property of a component no game
    contributes; of Seat and You (the common fields plus every game's extras) the required ones;
    and the vocabulary of the display marks every game's fields carry."""
    schemas = spec_components()
    out: set[str] = _marks(schemas, set())
    for name, schema in schemas.items():
        if name in _game_components():
            continue
        if name in ("Seat", "You"):
            out |= set(schema.get("required") or ())
        else:
            _props(schema, out)
    return frozenset(out)


@cache
def game_fields() -> frozenset[str]:
    """Every field of a game's view (table, turn, record, seat and `you` extras) and actions."""
    out: set[str] = set()
    for g in registry.GAMES:
        s = g.spec
        if s is None:
            continue
        for part in (s.table, s.turn, s.record, *s.seat.values(), *s.you.values(), *s.actions.values()):
            _props(part, out)
        out |= set(s.seat) | set(s.you)
    return frozenset(out - kernel_names())


@cache
def game_names() -> frozenset[str]:
    names = {g.name for g in registry.GAMES} | set(registry.BY_VARIANT)
    names |= {e["game"] for e in registry.variants_catalog()}
    return frozenset(names)


@cache
def event_types() -> frozenset[str]:
    return frozenset(t for g in registry.GAMES for t in g.event_types)


@cache
def action_types() -> frozenset[str]:
    return frozenset(registry.ACTIONS)


def _catalogue_cards() -> Iterable[dict[str, Any]]:
    for entry in registry.variants_catalog():
        yield from entry["cards"]


@cache
def card_data() -> tuple[frozenset[str], frozenset[str]]:
    """(card words: every card id of the catalogue, each part of an id, each label (a rank or value)
    and suit a card shows, every suit a game names; the symbols of the cards and suits), from the
    catalogue, the games' suits and the rank options' ranges."""
    words: set[str] = set()
    symbols: set[str] = set()
    for g in registry.GAMES:
        words |= set(g.suits)
    for entry in registry.variants_catalog():
        for opt in entry["options"]:
            if opt["type"] in ("rank", "ranks"):
                words |= {str(r) for r in opt["range"]}
        for suit in entry["suits"]:
            words.add(suit["id"])
            symbols.add(suit["symbol"])
    for card in _catalogue_cards():
        cid = str(card["id"])
        words |= {cid, *(p for p in cid.split(":") if p and not p.isdigit())}
        words |= {card[k] for k in ("label", "suit") if isinstance(card.get(k), str)}  # a colour is only a hint
        if card.get("symbol"):
            symbols.add(card["symbol"])
    return frozenset(w for w in words if w), frozenset(s for s in symbols if s)


@cache
def card_ids() -> tuple[str, ...]:
    return tuple(str(c["id"]) for c in _catalogue_cards())


def _recognises_cards(pattern: str) -> bool:
    try:
        rx = re.compile(pattern)
    except (re.error, RecursionError):
        return False
    ids = card_ids()
    return any(rx.fullmatch(i) for i in ids) and not any(rx.fullmatch(x) for x in NOT_CARDS)


def _name_rx(name: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in re.split(r"[-_ ]", folded(name)) if p]
    return re.compile(r"(?<![a-z0-9])" + r"[-_ ]?".join(parts) + r"(?![a-z0-9])")


def findings(said: Said) -> list[str]:
    """What a file says that only a game could tell it."""
    out: list[str] = []
    prose = folded(said.prose)
    out += [f"names the game or variant {n!r}" for n in sorted(game_names()) if _name_rx(n).search(prose)]
    tokens = set(TOKEN.findall(said.prose))
    out += [f"names the event type {t!r}" for t in sorted(event_types() & tokens)]
    whole = set(said.strings)
    used = said.names | whole
    out += [f"names the action type {a!r}" for a in sorted(action_types() & used)]
    in_strings = {t for s in said.strings for t in TOKEN.findall(s)}
    fields = game_fields()
    compound = {t for t in in_strings | said.keys if "_" in t}  # pass_log in "you-pass_log", a key pending_draw
    out += [f"names the game field {f!r}" for f in sorted(fields & (used | compound))]
    texts = [folded(s) for s in said.strings]
    for f in sorted(x for x in fields if "_" in x):
        words = re.compile(r"(?<![a-z0-9])" + re.escape(f.replace("_", " ")) + r"(?![a-z0-9])")
        if any(words.search(s) for s in texts):
            out.append(f"says the game field {f!r} in words")
    cards, symbols = card_data()
    out += [f"holds the card datum {c!r}" for c in sorted(cards & (used | said.keys))]
    out += [f"holds the suit symbol {s!r}" for s in sorted(symbols) if s in said.prose
            or f"\\u{ord(s):04x}" in said.prose.lower() or f"\\u{{{ord(s):x}}}" in said.prose.lower()]
    out += [f"recognises card ids with {p!r}" for p in said.patterns if _recognises_cards(p)]
    return out


def scan(path: Path, text: str | None = None) -> list[str]:
    return findings(READERS[path.suffix](path.read_text(encoding="utf-8") if text is None else text))


@pytest.mark.parametrize("path", client_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_client_file_holds_game_knowledge(path: Path) -> None:
    found = scan(path)
    assert not found, f"{path.relative_to(ROOT)} knows a game: {found}"


def test_the_forbidden_sets_come_from_the_registry_and_leave_the_kernel_alone() -> None:
    assert game_names() >= {g.name for g in registry.GAMES} and event_types() and action_types()
    assert game_fields() and not game_fields() & kernel_names()
    for common in ("status", "seats", "turn", "hand", "legal_actions", "version", "hand_count", "score"):
        assert common in kernel_names(), common
    assert len(card_ids()) >= 52 and card_data()[0] >= {s for g in registry.GAMES for s in g.suits}
    assert len(card_data()[1]) >= 5  # the suits' symbols and the suitless cards' icons


def _one(pool: Iterable[str], pick: Any = min) -> str:
    return pick(sorted(pool))


@pytest.mark.parametrize("suffix, template", [
    (".js", 'export const x = (v) => v.table.{field};'),
    (".js", 'const k = "{action}";'),
    (".js", '// ends at {event}\nexport const y = 1;'),
    (".js", 'export const G = "{game}";'),
    (".js", 'const SUITS = {{ {suit}: 1 }};'),
    (".js", 'const P = /^(10|[2-9JQKA])([{suits}])(?::\\d+)?$/;'),
    (".py", 'x = view["table"].get("{field}")'),
    (".py", 'y = "{card}"'),
    (".py", 'import re\nZ = re.compile(r"^(10|[2-9JQKA])([{suits}])$")'),
    (".json", '{{"event.{event}": "something"}}'),
    (".json", '{{"rank.{card}": "something"}}'),
    (".js", 'export const logo = "{symbol} meow";'),
    (".css", '.card.suit-{suit} {{ color: red; }}'),
])
def test_the_guard_catches_a_planted_violation(suffix: str, template: str) -> None:
    cards = card_data()[0]
    suits = "".join(sorted({s for g in registry.GAMES for s in g.suits}))
    text = template.format(field=_one(f for f in game_fields() if "_" in f), action=_one(action_types()),
                           event=_one(event_types()), game=_one(game_names()), suit=_one(set(suits)),
                           suits=suits, card=_one(c for c in cards if c not in suits), symbol=_one(card_data()[1]))
    assert findings(READERS[suffix](text)), text
