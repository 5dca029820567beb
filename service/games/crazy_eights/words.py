# ruff: noqa: RUF001 - Russian text: Cyrillic letters that look like Latin ones are meant
"""Crazy Eights' words in English, Czech and Russian (docs/clients.md: Words): the shedding games'
words for what both games share (their cards, suits, play, draw and pass, the events both write),
and its own (its events, table fields, points, end reasons)."""
from __future__ import annotations

from service.games.kernel.words import Words, by_key, by_language, layered
from service.games.shedding.words import WORDS as SHEDDING

_SHARED_EVENTS = ("StarterTurned", "TurnStarted", "CardPlayed", "SuitCalled", "CardDrawn", "DrawShortfall",
                  "StockReshuffled", "TurnSkipped", "DirectionReversed", "TurnPassed", "HandsRevealed")
_SHARED = frozenset({*(f"event.{e}" for e in _SHARED_EVENTS), "action.play", "action.draw", "action.pass",
                     "arg.called_suit", "arg.announce.true", "arg.announce.false",
                     "phase.play", "end.blocked",
                     *(f"field.{f}" for f in ("top_card", "called_suit", "pending_draw", "direction", "stock_count",
                                              "discard_count", "dealer"))})
_SHARED_PREFIXES = ("card.", "label.", "suit.", "direction.")

OWN: dict[str, dict[str, str]] = {
    "en": {
        "event.StarterReturned": "{card:card} went back into the stock",
        "event.DrawOwed": "{seat:seat} owes {count}",
        "field.suit": "Suit to follow",
        "field.drawn_this_turn": "Drawn this turn",
        "field.max_draw_cards": "Most draws a turn",
        "field.plays": "Cards played",
        "field.max_turns": "The hand ends after",
        "field.passes": "Passes in a row",
        "field.draws_left": "Draws left",
        "points": "minus the penalty of the cards left (more is better)",
        "end.hand_empty": "a hand emptied",
        "end.max_turns": "the play limit was reached",
        "end.hand_over": "the hand is over",
    },
    "cs": {
        "event.StarterReturned": "{card:card} se vrátila do balíčku",
        "event.DrawOwed": "{seat:seat} musí líznout {count}",
        "field.suit": "Barva k přiznání",
        "field.drawn_this_turn": "Líznuto v tomto tahu",
        "field.max_draw_cards": "Nejvýše líznutí za tah",
        "field.plays": "Zahraných karet",
        "field.max_turns": "Hra končí po",
        "field.passes": "Stání po sobě",
        "field.draws_left": "Zbývá líznutí",
        "points": "minus trest za karty v ruce (více je lépe)",
        "end.hand_empty": "hráč se zbavil karet",
        "end.max_turns": "dosažen limit zahraných karet",
        "end.hand_over": "hra skončila",
    },
    "ru": {
        "event.StarterReturned": "{card:card} вернулась в колоду",
        "event.DrawOwed": "{seat:seat} должен взять {count}",
        "field.suit": "Масть для хода",
        "field.drawn_this_turn": "Взято за ход",
        "field.max_draw_cards": "Максимум взятий за ход",
        "field.plays": "Сыграно карт",
        "field.max_turns": "Раздача кончается после",
        "field.passes": "Пасов подряд",
        "field.draws_left": "Осталось взятий",
        "points": "минус штраф за оставшиеся карты (больше — лучше)",
        "end.hand_empty": "игрок избавился от карт",
        "end.max_turns": "достигнут лимит сыгранных карт",
        "end.hand_over": "раздача окончена",
    },
}


def _words(lang: str) -> dict[str, str]:
    shared = {k: v for k, v in SHEDDING[lang].items() if k in _SHARED or k.startswith(_SHARED_PREFIXES)}
    return {**shared, **OWN[lang]}


OPTIONS: Words = by_key({
    # the create form's words for OpenSpiel's parameters (docs/clients.md: Words; docs/games/crazy-eights.md);
    # the table, timing and bot options every game shares are the kernel's (kernel/words.py)
    "option.max_draw_cards": ("Draws per turn", "Líznutí za tah", "Взятий за ход"),
    "option.max_draw_cards.help": ("How many cards a player may draw in one turn, even holding a card that fits.",
                                   "Kolik karet si hráč smí v jednom tahu líznout, i když má kartu, která pasuje.",
                                   "Сколько карт игрок может взять за ход, даже имея подходящую."),
    "option.max_turns": ("Play limit", "Limit zahraných karet", "Лимит сыгранных карт"),
    "option.max_turns.help": ("The hand ends after this many cards have been played.",
                              "Hra skončí po tolika zahraných kartách.",
                              "Раздача заканчивается после стольких сыгранных карт."),
    "option.reshuffle": ("Reshuffle the played cards", "Zamíchat odhozené karty", "Перемешивать сброс"),
    "option.reshuffle.help": ("When the stock runs out, the played cards but the top one become a new stock; "
                              "without it players pass.",
                              "Když dojde balíček, odhozené karty kromě vrchní se stanou novým balíčkem; "
                              "jinak hráči stojí.",
                              "Когда колода кончается, сброс, кроме верхней карты, становится новой колодой; "
                              "иначе игроки пасуют."),
    "option.use_special_cards": ("Special cards", "Zvláštní karty", "Особые карты"),
    "option.use_special_cards.help": ("A queen skips the next player, an ace reverses the direction and a two makes "
                                      "the next player draw two.",
                                      "Dáma nechá dalšího hráče stát, eso obrátí směr a dvojka nutí dalšího líznout si dvě.",
                                      "Дама пропускает следующего игрока, туз меняет направление, а двойка заставляет "
                                      "следующего взять две карты."),
})
"""The create form's words for Crazy Eights' own options."""

NAMES: Words = by_key({"variant.crazy-eights": ("Crazy Eights", "Šílené osmičky", "Сумасшедшие восьмёрки")})
"""The preset's name (docs/clients.md: ``variant.<name>``)."""

WORDS: Words = layered(by_language(_words("en"), _words("cs"), _words("ru")), OPTIONS, NAMES)
