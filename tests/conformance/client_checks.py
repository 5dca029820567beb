"""What a generic client reads about a game (docs/clients.md), checked for any registered game:
legal actions name their hand card in ``card``, every card dealt has a face, every event, action,
shown field, suit and card has words in every language, every option of every preset has a label and
a help text (and its enum values words) in every language, every field of the view carries its marks.

Each check takes a game's registry entry and plain data and raises AssertionError (or returns the
problems found), naming no game: the drive (tests/conformance/drive.py) runs the first two on every
playout; tests/conformance/test_client_data.py runs the rest over the registry.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from service.games.kernel.game import Game
from service.games.kernel.presentation import LANGS, Presentation, face_of, merged_words, placeholders, view_marks
from tests.conformance.engine_checks import card_field

SHOWN = frozenset({"top", "row", "seat", "note"})
"""The marks whose field a client labels with ``field.<name>``."""
END_EVENTS = frozenset({"RoundEnded", "MatchEnded"})
"""The events whose ``reason`` a client tells with ``end.<reason>`` (docs/clients.md: Words)."""


def carded_types(game: Game) -> frozenset[str]:
    """The action types whose spec declares a ``card`` (the hand card each one plays)."""
    actions = game.spec.actions if game.spec is not None else {}
    return frozenset(t for t, a in actions.items() if "card" in (a.get("properties") or {}))


def assert_actions_name_hand_cards(game: Game, actions: Iterable[Mapping[str, Any]], hand: Iterable[str]) -> None:
    """Every legal action that plays a hand card names it in ``card``, an id found in the hand."""
    held = list(hand)
    carded = carded_types(game)
    for action in actions:
        card = action.get("card")
        if card is not None:
            if card not in held:
                raise AssertionError(f"the legal action {dict(action)} names the card {card!r}, not in the hand {held}")
        elif action.get("type") in carded or card_field(action, held) is not None:
            raise AssertionError(f"the legal action {dict(action)} plays a hand card but names none in `card`")


def assert_faces(game: Game, cards: Iterable[str]) -> None:
    """Every card of the round has a face in the game's catalogue entries."""
    faces = {f.id: f for f in (game.presentation or Presentation(cards=())).cards}
    missing = sorted({c for c in cards if face_of(faces, c) is None})
    if missing:
        raise AssertionError(f"cards with no face in the catalogue ({game.name}/faces.py): {missing[:5]}")


def assert_end_words(game: Game, event_type: str, data: Mapping[str, Any]) -> None:
    """A round's or match's end reason has words in every language."""
    reason = data.get("reason")
    if event_type not in END_EVENTS or not isinstance(reason, str):
        return
    words = merged_words(game.presentation.words if game.presentation else {})
    missing = [lang for lang in LANGS if f"end.{reason}" not in words[lang]]
    if missing:
        raise AssertionError(f"{event_type}'s reason {reason!r} has no words end.{reason} in {missing}")


def _labelled(marks: Mapping[str, Any]) -> Iterable[str]:
    for name, mark in marks.items():
        if mark.get("show") in SHOWN:
            yield f"field.{name}"
        yield from _labelled(mark.get("properties") or {})


def needed_words(game: Game) -> set[str]:
    """The words keys the game's data calls for: its events, actions and their shown arguments,
    its shown fields, card names, labels of suits, and what points mean."""
    marks = view_marks(game.spec)
    keys = {f"event.{t}" for t in game.event_types} | {f"action.{t}" for t in game.actions} | {"points"}
    for part in ("table", "turn", "seat", "own"):
        keys.update(_labelled(marks[part]))
    for fields in marks["actions"].values():
        keys.update(f"arg.{f}.true" if m.get("kind") == "bool" else f"arg.{f}"
                    for f, m in fields.items() if m.get("show") == "arg")
    p = game.presentation or Presentation(cards=())
    keys.update(f.name for f in p.cards)
    keys.update(f"suit.{s}" for s in {*game.suits, *(s.id for s in p.suits)})
    return keys


def words_problems(game: Game) -> list[str]:
    """What the game's words lack: a needed key in some language, or a key one language has and
    another has not."""
    words = merged_words(game.presentation.words if game.presentation else {})
    problems = [f"{lang}: no words for {k}" for lang in LANGS for k in sorted(needed_words(game) - set(words[lang]))]
    every = set().union(*(set(words[lang]) for lang in LANGS))
    problems += [f"{lang}: no words for {k} (another language has it)" for lang in LANGS
                 for k in sorted(every - set(words[lang]))]
    return problems


def option_words_needed(game: Game) -> list[str]:
    """The words keys a create form needs for the options any preset of the game lists in GET
    /v1/variants: ``option.<name>``, ``option.<name>.help`` and, for an enum, ``option.<name>.<value>``."""
    keys: dict[str, None] = {}
    for entry in game.catalogue():
        for option in entry["options"]:
            name = option["name"]
            keys.update(dict.fromkeys([f"option.{name}", f"option.{name}.help",
                                       *(f"option.{name}.{v}" for v in option.get("enum") or ())]))
    return list(keys)


def option_words_problems(game: Game) -> list[str]:
    """The option words (docs/clients.md: Words) the game's words lack, or leave empty, in some language."""
    words = merged_words(game.presentation.words if game.presentation else {})
    return [f"{lang}: no words for {k}" for lang in LANGS for k in option_words_needed(game)
            if not words[lang].get(k, "").strip()]


def placeholder_problems(game: Game) -> list[str]:
    """Event words whose placeholders name no field of the event's data (nor its seat, nor an
    option): ``{path}`` or ``{path:kind}`` (docs/clients.md: Words)."""
    words = merged_words(game.presentation.words if game.presentation else {})
    events = game.spec.events if game.spec is not None else {}
    problems = []
    for lang in LANGS:
        for t in game.event_types:
            fields = {"seat", *((events.get(t) or {}).get("properties") or {})}
            for ph in placeholders(words[lang].get(f"event.{t}", "")):
                path = ph.split(":", 1)[0]
                if path not in fields and not path.startswith("options."):
                    problems.append(f"{lang}: event.{t} names {{{ph}}}, not a field of its data")
    return problems


def marks_problems(game: Game) -> list[str]:
    """The fields of the game's table, turn, seat and ``you`` extras and actions with no display mark."""
    problems = []
    marks = view_marks(game.spec)
    for part in ("table", "turn", "seat", "own"):
        problems += [f"{part}.{n}: no x-meow-show" for n, m in marks[part].items() if "show" not in m]
    for t, fields in marks["actions"].items():
        problems += [f"action {t}.{n}: no x-meow-show" for n, m in fields.items() if "show" not in m]
    return problems


def suits_problems(game: Game) -> list[str]:
    """The suits a ``called_suit`` may name or a face carries with no suit face."""
    p = game.presentation or Presentation(cards=())
    known = {s.id for s in p.suits}
    named = {*game.suits, *(f.suit for f in p.cards if f.suit is not None)}
    return [f"suit {s!r} has no face (symbol, colour)" for s in sorted(named - known)]
