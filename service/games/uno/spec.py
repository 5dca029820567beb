"""UNO's part of the API spec (kernel/spec.py): its table, turn, actions and events, as the views
and events in this package write them."""
from __future__ import annotations

from service.games.kernel import catch
from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, STR, TABLE_EVENTS, TABLE_SECRET, GameSpec, arr, by_seat, closed, enum, null, obj
from service.games.shedding.spec import ACTIONS as SHEDDING_ACTIONS

CARD = {"type": "string", "description": "an UNO card id: RLCard's face (R-5, G-skip, B-reverse, Y-draw_2, "
                                         "wild, wild_draw_4), ':' and the copy, e.g. R-5:1"}
COLOR = enum("R", "G", "B", "Y")
_ROW = shown(INT, "row")
TABLE = obj({"top_card": shown(CARD, "top", "card"), "color": shown(COLOR, "top", "suit"),
             "direction": shown(INT, "row", "word"), "stock_count": _ROW, "discard_count": _ROW,
             "dealer": shown(INT, "seat", "seat", "seat")},
            description="UNO's table: `top_card` is the card to match (RLCard's target, which stays the "
                        "target after a reshuffle), `color` the colour in play (a wild's named colour); "
                        "`discard_count` the cards played since the last reshuffle")
TURN = obj({"seat": shown(INT, "none", "seat"), "turn_id": shown(INT, "none"),
            "deadline": shown(null(INT), "timer", "ms"), "next_seat": shown(INT, "seat", "seat")},
           description="UNO's turn: `next_seat` is the seat that moves after this one unless the card played "
                       "says otherwise (a skip, a draw two, a wild draw four, a reverse)")
_PLAY = SHEDDING_ACTIONS["play"]
_CALL = shown(BOOL, "arg")
ACTIONS = {"play": obj({"type": enum("play"), "card": shown({"type": "string"}, "card", "card")},
                       {"called_suit": shown(enum(*_PLAY["properties"]["called_suit"]["enum"], *COLOR["enum"]), "arg", "suit"),
                        "announce": _CALL},
                       description="play a card; a suit or, for an UNO wild, a colour (R, G, B, Y) in `called_suit`"),
           "draw": obj({"type": enum("draw")}, {"announce": _CALL},
                       description="draw; with `uno_call`, `announce` calls UNO in case the drawn card is played"),
           "pass": obj({"type": enum("pass")}, description="with `drawn_card` play_or_keep: keep the card just drawn"),
           catch.CHALLENGE: catch.ACTION_SCHEMA}
"""The shedding games' play and draw (one meaning of each for every game): an UNO wild names its
colour where an eight names its suit."""
DEFAULT = {"anyOf": list(ACTIONS.values()),
           "description": "a default action played for the seat (RULES §2.7), as legal_actions lists it"}
EVENTS = {
    **TABLE_EVENTS,
    "SeatLeft": obj({"seat": INT, "reason": STR}, {"replaced_by": obj({"kind": STR, "strength": STR, "name": STR})}),
    "TimedOut": obj({"seat": INT, "turn_id": INT, "guarded": STR, "default_action": DEFAULT, "chain": arr(DEFAULT)},
                    {"absent": BOOL, "removal_deadline": INT}),
    "RoundStarted": obj({"round": INT, "dealer": INT, "direction": INT, "active_seats": arr(INT)}),
    "CardsDealt": obj({"hand_sizes": by_seat(INT)}),
    "StarterTurned": obj({"card": CARD, "color": null(COLOR)},
                         description="the top card turned; a wild takes a random colour (from the match seed)"),
    "StarterReturned": obj({"card": CARD}, description="a turned-up wild draw four went back into the stock"),
    "TurnStarted": obj({"seat": INT, "turn_id": INT, "deadline": null(INT)}),
    "CardPlayed": obj({"seat": INT, "card": CARD, "color": COLOR, "hand_size": INT},
                      {"auto": BOOL, "drawn": BOOL, "announce": BOOL},
                      description="`color` is the colour now in play; `drawn`: the card just drawn, played at once "
                                  "(a drawn wild's colour is random, from the match seed)"),
    "CardDrawn": obj({"seat": INT, "count": INT, "reason": enum("draw", "penalty", catch.MISSED), "hand_size": INT},
                     {"auto": BOOL}),
    "CardKept": obj({"seat": INT, "hand_size": INT},
                    description="with `drawn_card` play_or_keep: the seat keeps the playable card it drew"),
    "DrawShortfall": obj({"seat": INT, "missing": INT}),
    "StockReshuffled": obj({"count": INT}, {"kept": CARD},
                           description="the played cards went under the stock (`count` of them); `kept`: the top "
                                       "card that stays on the table (the printed rules, `uno` from rules version 4)"),
    "TurnSkipped": obj({"seat": INT}),
    "DirectionReversed": obj({"direction": INT}),
    catch.CHALLENGE_MADE: catch.EVENT_SCHEMA,
    "RoundEnded": obj({"reason": enum("hand_empty"), "winner": null(INT)}),
    "HandsRevealed": obj({"hands": by_seat(arr(CARD))}),
    "RoundScored": obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT),
                        "intermission_deadline": null(INT)}),
}
PRIVATE = {"CardsDealt": obj({"cards": arr(CARD)}), "CardDrawn": obj({"cards": arr(CARD)})}
SECRET = dict(TABLE_SECRET)

SPEC = closed(GameSpec(table=TABLE, turn=TURN, record=None, actions=ACTIONS, events=EVENTS,
                       private=PRIVATE, secret=SECRET))
