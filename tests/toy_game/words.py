"""High card's words in English, Czech and Russian (docs/clients.md: Words)."""
from __future__ import annotations

from service.games.kernel.words import Words, by_key, by_language, layered

_EVENTS: Words = by_language(
    en={"event.TurnStarted": "", "event.CardLaid": "{seat:seat} laid {card:card}",
        "event.TrickWon": "{seat:seat} won the trick", "action.lay": "Lay", "field.dealer": "dealer",
        "field.trick": "The trick", "field.tricks": "Tricks", "points": "tricks won (more is better)",
        "end.hands_empty": "the hands are empty", "end.rounds_played": "all rounds played", "card.high": "card {label}"},
    cs={"event.TurnStarted": "", "event.CardLaid": "{seat:seat} vyložil {card:card}",
        "event.TrickWon": "{seat:seat} vzal štych", "action.lay": "Vyložit", "field.dealer": "rozdává",
        "field.trick": "Štych", "field.tricks": "Štychy", "points": "vzaté štychy (více je lépe)",
        "end.hands_empty": "došly karty", "end.rounds_played": "odehrána všechna kola", "card.high": "karta {label}"},
    ru={"event.TurnStarted": "", "event.CardLaid": "{seat:seat} выложил {card:card}",
        "event.TrickWon": "{seat:seat} взял взятку", "action.lay": "Выложить", "field.dealer": "сдаёт",
        "field.trick": "Взятка", "field.tricks": "Взятки", "points": "взятые взятки (больше — лучше)",
        "end.hands_empty": "карты кончились", "end.rounds_played": "сыграны все раунды", "card.high": "карта {label}"},
)

OPTIONS: Words = by_key({  # its own options' words (the shared ones are the kernel's)
    "option.hand_size": ("Cards dealt", "Karet do ruky", "Карт на руку"),
    "option.hand_size.help": ("How many cards each player is dealt.", "Kolik karet dostane každý hráč.",
                              "Сколько карт сдаётся каждому игроку."),
    "option.rounds": ("Rounds", "Počet kol", "Число раундов"),
    "option.rounds.help": ("How many rounds the match lasts.", "Kolik kol hra trvá.", "Сколько раундов длится партия."),
})
WORDS: Words = layered(_EVENTS, OPTIONS)
