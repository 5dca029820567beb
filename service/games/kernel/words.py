"""The words every game shares, in English, Czech and Russian (docs/clients.md: Words): the table
events, the kernel's phases and the kernel's values. A game's own words (``<game>/words.py``) are
laid over these in its GET /v1/variants entries; an empty text is an event a log does not tell."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

Words = Mapping[str, Mapping[str, str]]
"""Language -> key -> text."""


def by_language(en: Mapping[str, str], cs: Mapping[str, str], ru: Mapping[str, str]) -> Words:
    """One read-only words table per language (docs/clients.md: en, cs, ru)."""
    return MappingProxyType({"en": MappingProxyType(dict(en)), "cs": MappingProxyType(dict(cs)),
                             "ru": MappingProxyType(dict(ru))})


WORDS: Words = by_language(
    en={
        "event.MatchCreated": "",
        "event.SeatJoined": "{name} sat down",
        "event.SeatLeft": "{seat:seat} left",
        "event.RoundStarted": "Round {round} dealt",
        "event.ShuffleCommitted": "",
        "event.CardsDealt": "Cards dealt",
        "event.RoundEnded": "Round over ({reason:end})",
        "event.RoundScored": "Round {round} scored",
        "event.MatchEnded": "Game over ({reason:end})",
        "event.SeedsRevealed": "",
        "event.TimedOut": "{seat:seat} ran out of time",
        "phase.intermission": "between rounds",
        "phase.scoring": "scoring",
        "points": "points",
        "yes": "yes",
        "no": "no",
    },
    cs={
        "event.MatchCreated": "",
        "event.SeatJoined": "{name} přisedl",
        "event.SeatLeft": "{seat:seat} odešel",
        "event.RoundStarted": "Rozdáno kolo {round}",
        "event.ShuffleCommitted": "",
        "event.CardsDealt": "Rozdáno",
        "event.RoundEnded": "Konec kola ({reason:end})",
        "event.RoundScored": "Kolo {round} sečteno",
        "event.MatchEnded": "Konec hry ({reason:end})",
        "event.SeedsRevealed": "",
        "event.TimedOut": "{seat:seat} nestihl tah",
        "phase.intermission": "přestávka mezi koly",
        "phase.scoring": "počítání bodů",
        "points": "body",
        "yes": "ano",
        "no": "ne",
    },
    ru={
        "event.MatchCreated": "",
        "event.SeatJoined": "{name} сел за стол",
        "event.SeatLeft": "{seat:seat} ушёл",
        "event.RoundStarted": "Сдан раунд {round}",
        "event.ShuffleCommitted": "",
        "event.CardsDealt": "Карты сданы",
        "event.RoundEnded": "Раунд окончен ({reason:end})",
        "event.RoundScored": "Раунд {round} подсчитан",
        "event.MatchEnded": "Игра окончена ({reason:end})",
        "event.SeedsRevealed": "",
        "event.TimedOut": "{seat:seat} не успел",
        "phase.intermission": "перерыв между раундами",
        "phase.scoring": "подсчёт очков",
        "points": "очки",
        "yes": "да",
        "no": "нет",
    },
)
