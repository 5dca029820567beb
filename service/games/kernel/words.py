# ruff: noqa: RUF001 - Russian text: Cyrillic letters that look like Latin ones are meant
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


def by_key(rows: Mapping[str, tuple[str, str, str]]) -> Words:
    """The same keys in every language, one row per key: ``key: (en, cs, ru)``."""
    en, cs, ru = ({k: row[i] for k, row in rows.items()} for i in range(3))
    return by_language(en, cs, ru)


def layered(*tables: Words) -> Words:
    """Words tables laid over each other, the later over the earlier, per language."""
    en, cs, ru = ({k: v for t in tables for k, v in t.get(lang, {}).items()} for lang in ("en", "cs", "ru"))
    return by_language(en, cs, ru)


_TABLE: Words = by_language(
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

OPTIONS: Words = by_key({
    # the table, timing and bot options every game shares (RULES §8.3; docs/clients.md: Words):
    # ``option.<name>`` a short label, ``option.<name>.help`` one sentence, ``option.<name>.<value>``
    "option.min_players": ("Fewest players", "Nejméně hráčů", "Минимум игроков"),
    "option.min_players.help": ("The fewest players a match can start with.",
                                "S kolika nejméně hráči lze hru začít.",
                                "С каким наименьшим числом игроков можно начать партию."),
    "option.max_players": ("Most players", "Nejvíce hráčů", "Максимум игроков"),
    "option.max_players.help": ("How many seats the table has at most, bots included.",
                                "Kolik míst má stůl nejvýše, včetně botů.",
                                "Сколько мест за столом самое большее, включая ботов."),
    "option.bot_seats": ("Bots", "Počet botů", "Число ботов"),
    "option.bot_seats.help": ("How many seats bots take when the table is created.",
                              "Kolik míst obsadí boti při založení stolu.",
                              "Сколько мест займут боты при создании стола."),
    "option.bot_strength": ("Bot strength", "Síla botů", "Сила ботов"),
    "option.bot_strength.help": ("How well the bots play (those added without a strength of their own).",
                                 "Jak dobře hrají boti (ti, kterým nebyla zadána vlastní síla).",
                                 "Насколько хорошо играют боты (те, кому не задана своя сила)."),
    "option.bot_strength.easy": ("Easy", "Lehký", "Лёгкий"),
    "option.bot_strength.medium": ("Medium", "Střední", "Средний"),
    "option.bot_strength.hard": ("Hard", "Těžký", "Сильный"),
    "option.bot_delay_ms": ("Bot thinking time (ms)", "Přemýšlení botů (ms)", "Раздумье ботов (мс)"),
    "option.bot_delay_ms.help": ("The shortest and the longest pause before a bot moves, in milliseconds, for each strength.",
                                 "Nejkratší a nejdelší prodleva před tahem bota v milisekundách, pro každou sílu zvlášť.",
                                 "Самая короткая и самая длинная пауза перед ходом бота в миллисекундах, для каждой силы."),
    "option.turn_timeout_s": ("Time per turn (s)", "Čas na tah (s)", "Время на ход (с)"),
    "option.turn_timeout_s.help": ("Seconds a player has for a turn before the server makes the default move for him; "
                                   "empty means no limit.",
                                   "Kolik sekund má hráč na tah, než za něj server zahraje výchozí tah; "
                                   "prázdné pole znamená bez omezení.",
                                   "Сколько секунд у игрока на ход, прежде чем сервер сделает за него ход по умолчанию; "
                                   "пустое поле — без ограничения."),
    "option.max_consecutive_timeouts": ("Timeouts before absent", "Propadlé tahy do nepřítomnosti",
                                        "Просрочки до отсутствия"),
    "option.max_consecutive_timeouts.help": ("After this many timeouts in a row a player is marked absent.",
                                             "Po tolika propadlých časech za sebou je hráč označen za nepřítomného.",
                                             "После стольких просрочек подряд игрок считается отсутствующим."),
    "option.absent_policy": ("Absent players", "Nepřítomní hráči", "Отсутствующие игроки"),
    "option.absent_policy.help": ("Who moves for an absent player until he comes back or is removed.",
                                  "Kdo táhne za nepřítomného hráče, dokud se nevrátí nebo není odebrán.",
                                  "Кто ходит за отсутствующего игрока, пока он не вернётся или не будет удалён."),
    "option.absent_policy.default_actions": ("The server makes default moves", "Server táhne výchozí tahy",
                                             "Сервер делает ходы по умолчанию"),
    "option.absent_policy.bot_autopilot": ("An easy bot takes over", "Převezme lehký bot", "Играет лёгкий бот"),
    "option.absent_removal_s": ("Removed after absence (s)", "Odebrání po nepřítomnosti (s)",
                                "Удаление после отсутствия (с)"),
    "option.absent_removal_s.help": ("Seconds a player may stay absent before he counts as having left.",
                                     "Kolik sekund smí být hráč nepřítomen, než se bere, jako by odešel.",
                                     "Сколько секунд игрок может отсутствовать, прежде чем считается ушедшим."),
    "option.round_intermission_s": ("Pause between rounds (s)", "Přestávka mezi koly (s)", "Пауза между раундами (с)"),
    "option.round_intermission_s.help": ("Seconds between the end of a round and the next deal.",
                                         "Kolik sekund uplyne od konce kola do dalšího rozdání.",
                                         "Сколько секунд проходит от конца раунда до следующей сдачи."),
})
"""What a create form shows for the options every game shares (a game's own words may say more)."""

WORDS: Words = layered(_TABLE, OPTIONS)
