"""What a generic client reads (docs/clients.md), for every registered game, and each check failing
on a planted violation: legal actions name the hand card they play (``card``, an id in the hand),
every card a game deals has a face, every event, action, shown field, suit, card and end reason has
words in en, cs and ru, every option a preset lists (GET /v1/variants) has a label, a help text and
words for its enum values in en, cs and ru, every field of the view carries its display marks.

The playouts (test_engine_playouts.py, through drive.py) run the card and face checks on every move
and deal; the static ones run here over the registry. A new game is covered with no edit here.
"""
from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from service.games import registry
from service.games.kernel import presentation
from service.games.kernel.presentation import Presentation, merged_words
from service.games.kernel.spec import GameSpec
from tests.conformance import client_checks as client
from tests.conformance.test_engine_planted import drive as drive_matches

GAMES = {g.name: g for g in registry.GAMES}


def drive(game) -> None:
    """A few matches of humans only (each human move is checked), to the first broken check."""
    drive_matches(game, strengths=(None,))


CHECKS = {
    "every event, action, argument, shown field, suit and card has words in every language": client.words_problems,
    "every placeholder of an event names a field of its data": client.placeholder_problems,
    "every option of every preset has a label, a help text and words for its values": client.option_words_problems,
    "every field of the view and the actions is marked": client.marks_problems,
    "every suit has a face": client.suits_problems,
}


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS.values()])
@pytest.mark.parametrize("name", GAMES)
def test_the_game_data_a_client_reads_is_complete(name, check):
    assert CHECKS[check](GAMES[name]) == [], check


@pytest.mark.parametrize("name", GAMES)
def test_every_catalogue_entry_of_the_game_carries_its_client_data(name):
    game = GAMES[name]
    entries = [e for e in registry.variants_catalog() if e["name"] in game.variants]
    assert len(entries) == len(game.variants)
    for e in entries:
        assert {f["id"] for f in e["cards"]} == {f.id for f in game.presentation.cards}
        assert set(e["words"]) == {"en", "cs", "ru"} and e["end_event"] and e["marks"]["table"]


# ---------------------------------------------------------------- planted violations


def _without(words, key):
    return MappingProxyType({lang: MappingProxyType({k: v for k, v in w.items() if k != key})
                             for lang, w in words.items()})


@pytest.mark.parametrize("name", GAMES)
def test_an_event_with_no_words_is_caught(name):
    game = GAMES[name]
    own = sorted(set(game.event_types) - {"MatchCreated", "ShuffleCommitted", "SeedsRevealed"})
    key = next(f"event.{t}" for t in own if f"event.{t}" in game.presentation.words["cs"])
    broken = dataclasses.replace(game, presentation=dataclasses.replace(
        game.presentation, words=MappingProxyType({**game.presentation.words,
                                                   "cs": _without(game.presentation.words, key)["cs"]})))
    assert f"cs: no words for {key}" in client.words_problems(broken)


def _plant_missing_word(monkeypatch, game, lang: str, key: str):
    """The game with ``key`` gone from its words in ``lang``, and from the kernel's shared words."""
    words = {la: ({k: v for k, v in w.items() if k != key} if la == lang else w)
             for la, w in merged_words(game.presentation.words).items()}
    monkeypatch.setattr(presentation, "KERNEL_WORDS", {lang: {}})
    return dataclasses.replace(game, presentation=dataclasses.replace(game.presentation, words=words))


@pytest.mark.parametrize("part", ["label", "help", "value"])
@pytest.mark.parametrize("name", GAMES)
def test_an_option_with_no_words_is_caught(name, part, monkeypatch):
    """A preset's option (the catalogue's last, a kernel one, or an enum's value) with a word missing
    in one language."""
    game = GAMES[name]
    options = [o for entry in game.catalogue() for o in entry["options"]]
    option = next(o for o in options if o.get("enum")) if part == "value" else options[-1]
    key = f"option.{option['name']}" + {"label": "", "help": ".help", "value": f".{(option.get('enum') or [''])[-1]}"}[part]
    assert client.option_words_problems(game) == []
    for lang in ("en", "cs", "ru"):
        with monkeypatch.context() as m:
            assert client.option_words_problems(_plant_missing_word(m, game, lang, key)) == [f"{lang}: no words for {key}"]


@pytest.mark.parametrize("name", GAMES)
def test_a_placeholder_naming_no_field_is_caught(name):
    game = GAMES[name]
    t = next(t for t in sorted(game.event_types) if f"event.{t}" in game.presentation.words["ru"])
    words = {**game.presentation.words, "ru": {**game.presentation.words["ru"], f"event.{t}": "{no_such_field}"}}
    broken = dataclasses.replace(game, presentation=dataclasses.replace(game.presentation, words=words))
    assert client.placeholder_problems(broken) == [f"ru: event.{t} names {{no_such_field}}, not a field of its data"]


@pytest.mark.parametrize("name", GAMES)
def test_a_field_with_no_mark_is_caught(name):
    game = GAMES[name]
    props = dict(game.spec.table["properties"])
    field = next(iter(props))
    props[field] = {k: v for k, v in props[field].items() if not k.startswith("x-meow-")}
    spec = dataclasses.replace(game.spec, table={**game.spec.table, "properties": props})
    assert isinstance(spec, GameSpec)
    assert f"table.{field}: no x-meow-show" in client.marks_problems(dataclasses.replace(game, spec=spec))


@pytest.mark.parametrize("name", GAMES)
def test_a_suit_with_no_face_is_caught(name):
    game = GAMES[name]
    broken = dataclasses.replace(game, suits=(*game.suits, "Z"))
    assert client.suits_problems(broken) == ["suit 'Z' has no face (symbol, colour)"]


@pytest.mark.parametrize("name", GAMES)
def test_a_dealt_card_with_no_face_is_caught(name, plant):
    game = GAMES[name]
    cards = game.presentation.cards
    plant(game, presentation=dataclasses.replace(game.presentation, cards=cards[:len(cards) // 2]))
    with pytest.raises(AssertionError, match="no face"):
        drive(game)


def _uncarded(action):
    return {k: v for k, v in action.items() if k != "card"}


def _elsewhere(action):
    return {**action, "card": "no-such-card"} if "card" in action else action


MISNAMED = {"names none in `card`": _uncarded, "not in the hand": _elsewhere}
"""Legal actions that name their hand card wrongly (no ``card``; a card not held), by the message."""


@pytest.mark.parametrize("message", MISNAMED)
@pytest.mark.parametrize("name", GAMES)
def test_a_legal_action_misnaming_its_hand_card_is_caught(name, message, plant):
    game = GAMES[name]
    real, wrong = game.legal_actions, MISNAMED[message]
    plant(game, legal_actions=lambda state, seat, now: [wrong(a) for a in real(state, seat, now)])
    with pytest.raises(AssertionError, match=message):
        drive(game)


@pytest.mark.parametrize("name", GAMES)
def test_an_end_reason_with_no_words_is_caught(name, plant):
    game = GAMES[name]
    words = game.presentation.words
    stripped = MappingProxyType({lang: MappingProxyType({k: v for k, v in w.items() if not k.startswith("end.")})
                                 for lang, w in words.items()})
    plant(game, presentation=Presentation(game.presentation.cards, game.presentation.suits, stripped))
    with pytest.raises(AssertionError, match=r"has no words end\."):
        drive(game)
