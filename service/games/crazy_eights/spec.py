"""Crazy Eights' part of the API spec (kernel/spec.py): its table, turn, actions and events, as
the views and events in this package write them."""
from __future__ import annotations

from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, STR, TABLE_EVENTS, TABLE_SECRET, GameSpec, arr, by_seat, closed, enum, null, obj
from service.games.shedding.spec import ACTIONS as SHEDDING_ACTIONS

CARD = {"type": "string", "description": "a card id: rank, suit, ':' and the copy (always 0), e.g. 8H:0"}
SUIT = enum("C", "D", "H", "S")
_ROW = shown(INT, "row")
TABLE = obj({"top_card": shown(CARD, "top", "card"), "called_suit": shown(null(SUIT), "top", "suit"),
             "suit": shown(SUIT, "row", "suit"), "pending_draw": _ROW, "direction": shown(INT, "row", "word"),
             "stock_count": _ROW, "discard_count": _ROW, "dealer": shown(INT, "seat", "seat", "seat"),
             "drawn_this_turn": _ROW, "max_draw_cards": _ROW, "plays": _ROW, "max_turns": _ROW, "passes": _ROW},
            description="Crazy Eights' table: `suit` is the suit to follow (the one an eight named, "
                        "`called_suit`, or the top card's); `pending_draw` the cards the seat to move owes "
                        "from twos; `plays` the cards played so far (the hand ends at `max_turns`); `passes` "
                        "the consecutive passes with an empty stock (it ends at players + 1)")
TURN = obj({"seat": shown(INT, "none", "seat"), "turn_id": shown(INT, "none"),
            "deadline": shown(null(INT), "timer", "ms"), "draws_left": _ROW},
           description="Crazy Eights' turn: `draws_left` is how many more cards the seat may draw before "
                       "it must play or pass")
# the same wire actions as the shedding games (one meaning of play, draw and pass for every game)
ACTIONS = {t: SHEDDING_ACTIONS[t] for t in ("play", "draw", "pass")}
_SEAT = {"seat": INT}
DEFAULT = {"anyOf": list(ACTIONS.values()),
           "description": "a default action played for the seat (RULES §2.7), as legal_actions lists it"}
EVENTS = {
    **TABLE_EVENTS,
    "SeatLeft": obj({"seat": INT, "reason": STR}, {"replaced_by": obj({"kind": STR, "strength": STR, "name": STR})}),
    "TimedOut": obj({"seat": INT, "turn_id": INT, "guarded": STR, "default_action": DEFAULT, "chain": arr(DEFAULT)},
                    {"absent": BOOL, "removal_deadline": INT}),
    "RoundStarted": obj({"round": INT, "dealer": INT, "direction": INT, "active_seats": arr(INT)}),
    "CardsDealt": obj({"hand_sizes": by_seat(INT)}),
    "StarterTurned": obj({"card": CARD}),
    "StarterReturned": obj({"card": CARD}, description="a turned-up eight went back into the stock"),
    "TurnStarted": obj({"seat": INT, "turn_id": INT, "deadline": null(INT)}),
    "CardPlayed": obj({"seat": INT, "card": CARD, "hand_size": INT}, {"auto": BOOL}),
    "SuitCalled": obj({"seat": INT, "suit": SUIT}, {"auto": BOOL}),
    "CardDrawn": obj({"seat": INT, "count": INT, "reason": enum("draw", "penalty"), "hand_size": INT},
                     {"auto": BOOL, "as_pass": BOOL}),
    "DrawShortfall": obj({"seat": INT, "missing": INT}),
    "StockReshuffled": obj({"count": INT}),
    "DrawOwed": obj({"seat": INT, "count": INT}, description="the seat owes `count` cards from twos"),
    "TurnSkipped": obj(_SEAT),
    "DirectionReversed": obj({"direction": INT}),
    "TurnPassed": obj({"seat": INT, "turn_id": INT}, {"auto": BOOL}),
    "RoundEnded": obj({"reason": enum("hand_empty", "max_turns", "blocked"), "winner": null(INT)}),
    "HandsRevealed": obj({"hands": by_seat(arr(CARD))}),
    "RoundScored": obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT),
                        "intermission_deadline": null(INT)}),
}
PRIVATE = {"CardsDealt": obj({"cards": arr(CARD)}), "CardDrawn": obj({"cards": arr(CARD)})}
SECRET = dict(TABLE_SECRET)

SPEC = closed(GameSpec(table=TABLE, turn=TURN, record=None, actions=ACTIONS, events=EVENTS,
                       private=PRIVATE, secret=SECRET))
