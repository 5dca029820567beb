"""Sakapuss's part of the API spec (kernel/spec.py): its table, turn, seat and ``you`` extras,
legal actions and event payloads, as the views and events in this package write them."""
from __future__ import annotations

from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, STR, TABLE_EVENTS, TABLE_SECRET, GameSpec, arr, by_seat, closed, enum, null, obj

CAT = {"type": "string", "description": "a cat card in a hand: cat:<kind>"}
KIND = {"type": "string", "description": "a cat kind"}
RACE = obj({"id": shown(INT, "none"), "slaps": shown(arr(INT), "seat", "order", "seat"),
            "deadline": shown(INT, "none", "ms"), "discarded_step": shown(INT, "none")},
           description="the open slap race: the seats in slap order")
_ROW = shown(INT, "row")
_HIDDEN = shown(INT, "none")  # counters for the rules, or told elsewhere (the turn's step and timer)
TABLE = obj({"kinds": shown(arr(KIND), "row", "word"), "dealer": shown(INT, "seat", "seat", "seat"),
             "direction": shown(INT, "row", "word"), "step": shown(null(INT), "none"), "resolved_steps": _HIDDEN,
             "step_deadline": shown(null(INT), "none", "ms"), "passed": shown(arr(INT), "seat", "seats", "seat"),
             "race": shown(null(RACE), "group", "object"), "races": _HIDDEN, "voided_races": _HIDDEN,
             "parasites": shown(by_seat(arr(STR)), "none", "cards", "seat"),
             "parasite_totals": shown(by_seat(INT), "seat", "int", "seat"), "chance_deck_count": _ROW,
             "round_end": shown(null(obj({"reason": STR, "winner": null(INT)})), "none", "object")},
            description="Sakapuss's table while a round is dealt; `passed`: the seats whose pass of "
                        "the open step is in (never what they passed)")
TURN = obj({"seat": shown(null(INT), "none", "seat"), "deadline": shown(null(INT), "timer", "ms")},
           {"step": _ROW, "race": _ROW},
           description="everyone acts at once: the open pass step, or the open slap race")
ACTIONS = {
    "pass_card": obj({"type": enum("pass_card"), "kind": shown(KIND, "none"), "step": shown(INT, "none"),
                      "card": shown(CAT, "card", "card")}),
    "slap": obj({"type": enum("slap"), "seen_step": shown(INT, "none")}),
}
EVENTS = {
    **TABLE_EVENTS,
    "SeatLeft": obj({"seat": INT, "reason": STR}, {"replaced_by": obj({"kind": STR, "strength": STR, "name": STR})}),
    "TimedOut": obj({"seat": INT, "step": INT, "guarded": STR, "default_action": STR},
                    {"absent": BOOL, "removal_deadline": INT}),
    "RoundStarted": obj({"round": INT, "dealer": INT, "direction": INT, "active_seats": arr(INT), "kinds": arr(KIND)}),
    "CardsDealt": obj({"hand_sizes": by_seat(INT), "step": INT, "deadline": null(INT)}),
    "PassSubmitted": obj({"seat": INT, "step": INT, "auto": BOOL}),
    "PassesResolved": obj({"step": INT, "next_step": null(INT), "deadline": null(INT), "targets": by_seat(INT)}),
    "SlapMade": obj({"seat": INT, "seen_step": INT, "position": INT, "race_id": INT},
                    {"window_deadline": INT, "discarded_step": INT}),
    "RaceResolved": obj({"race_id": INT, "first_slapper": INT, "valid": BOOL, "grace": BOOL, "order": arr(INT),
                         "draws": arr(obj({"seat": INT, "count": INT, "reason": STR})),
                         "reopened_step": null(INT), "deadline": null(INT)}),
    "ChanceCardDrawn": obj({"seat": INT, "card": STR, "reason": STR, "effect": STR, "removed": arr(STR),
                            "returned": arr(STR), "deck_count": INT}),
    "ChanceDeckEmpty": obj({"seat": INT, "reason": STR}),
    "RoundEnded": obj({"reason": STR, "winner": null(INT)},
                      {"resolved_steps": INT, "voided_races": INT, "first_slapper": INT, "valid": BOOL}),
    "RoundScored": obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT), "parasite_cards": by_seat(INT),
                        "intermission_deadline": null(INT)}),
}
PRIVATE = {
    "CardsDealt": obj({"cards": arr(KIND)}),
    "PassSubmitted": obj({"kind": KIND}),
    "PassesResolved": obj({"received": KIND, "from": INT}),
}
SPEC = closed(GameSpec(
    table=TABLE, turn=TURN,
    seat={"parasites": shown({**arr(STR), "description": "the parasite cards in front of this seat (RULES §6.8)"},
                             "seat", "cards", "seat")},
    you={"passed_kind": shown({**null(KIND), "description": "your sealed pass of the open step"},
                              "row", "word", "private"),
         "pass_log": shown({**arr(obj({"step": shown(INT, "row"), "passed": shown(KIND, "row", "word"),
                                       "received": shown(KIND, "row", "word")})),
                            "description": "your own passes this round, oldest first"}, "row", "table", "private"),
         "slap_warning": shown({**null(enum("false_slap", "race")),
                                "description": "what a slap of yours means now (RULES §6.5): `false_slap` while "
                                               "passing when neither your hand nor, within the grace, your hand of "
                                               "the step before is four of a kind; `race` in a slap race you have "
                                               "not slapped in; null otherwise"}, "note", "word", "private")},
    actions=ACTIONS, events=EVENTS, private=PRIVATE, secret=dict(TABLE_SECRET)))
