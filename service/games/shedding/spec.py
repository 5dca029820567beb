"""The shedding games' part of the API spec (kernel/spec.py): their table, turn, round record,
legal actions and event payloads, as the views and events in this package write them."""
from __future__ import annotations

from service.games.kernel import catch
from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, STR, TABLE_EVENTS, TABLE_SECRET, GameSpec, arr, by_seat, closed, enum, null, obj

CARD = {"type": "string", "description": "a card id: rank, suit, ':' and the copy, e.g. 7H:0"}
SUIT = enum("C", "D", "H", "S")
PHASE = enum("play", "respond_seven", "respond_skip", "after_draw", "ace_followup")
DREW_ON = {"type": "object", "description": "the public draw caps, by seat: what each seat was seen "
                                            "to lack when it drew (rank or suit -> count, RULES §7.4)",
           "additionalProperties": {"type": "object", "additionalProperties": INT}}
TABLE = obj({"top_card": shown(CARD, "top", "card"), "called_suit": shown(null(SUIT), "top", "suit"),
             "pending_draw": shown(INT, "row"), "pending_skip": shown(BOOL, "row"),
             "direction": shown(INT, "row", "word"), "stock_count": shown(INT, "row"),
             "discard_count": shown(INT, "row"), "dealer": shown(INT, "seat", "seat", "seat"),
             "drew_on": shown(DREW_ON, "none", "object", "seat")},
            description="a shedding game's table while a round is dealt")
TURN = obj({"seat": shown(INT, "none", "seat"), "turn_id": shown(INT, "none"), "deadline": shown(null(INT), "timer", "ms")})
BEFORE = obj({}, {"phase": PHASE, "top_card": CARD, "called_suit": null(SUIT), "pending_draw": INT,
                  "pending_skip": BOOL, "top_live": BOOL, "direction": INT, "hand_counts": arr(INT),
                  "discard_count": INT, "played_count": INT, "drew_on": DREW_ON},
             description="the table the seat decided on: only the fields that differ from the previous "
                         "decision's (all of them at the round's first); merge them in order for the whole table")
MOVE = obj({"seat": null(INT), "move": enum("play", "draw", "pass", "take_penalty", "accept_skip", "gain", "reshuffle")},
           {"card": CARD, "called_suit": SUIT, "count": INT, "auto": BOOL, "before": BEFORE},
           description="one move of the round: a decision carries `before`; `gain` is cards taken outside "
                       "a turn, `reshuffle` the discard turned into the stock")
RECORD = obj({"discard": arr(CARD), "played": arr(CARD), "moves": arr(MOVE)},
             description="the round's public record (include=record): the discard pile, every card "
                         "put on the discard this round (starter first), every move oldest first")
ACTIONS = {
    "play": obj({"type": enum("play"), "card": shown(CARD, "card", "card")},
                {"called_suit": shown(SUIT, "arg", "suit"), "announce": shown(BOOL, "arg")}),
    "draw": obj({"type": enum("draw")}),
    "pass": obj({"type": enum("pass")}),
    "take_penalty": obj({"type": enum("take_penalty")}),
    "accept_skip": obj({"type": enum("accept_skip")}),
    "announce": obj({"type": enum("announce")}),
    catch.CHALLENGE: catch.ACTION_SCHEMA,
}
_SEAT = {"seat": INT}
DEFAULT = {"anyOf": [ACTIONS[t] for t in ("play", "draw", "pass", "take_penalty", "accept_skip")],
           "description": "a default action played for the seat (RULES §2.7), as legal_actions lists it"}
_DEAL_WHAT = STR
EVENTS = {
    **TABLE_EVENTS,
    "SeatLeft": obj({"seat": INT, "reason": STR}, {"replaced_by": obj({"kind": STR, "strength": STR, "name": STR})}),
    "SeatWaiting": obj({"seat": INT, "name": STR, "kind": enum("human", "bot"), "strength": null(STR)}),
    "SeatActivated": obj({"seat": INT, "total": INT}),
    "TimedOut": obj({"seat": INT, "turn_id": INT, "guarded": STR, "default_action": DEFAULT, "chain": arr(DEFAULT)},
                    {"absent": BOOL, "removal_deadline": INT}),
    "RoundStarted": obj({"round": INT, "dealer": INT, "direction": INT, "active_seats": arr(INT)}),
    "CardsDealt": obj({"hand_sizes": by_seat(INT)}),
    "StarterTurned": obj({"card": CARD}),
    "StarterCovered": obj({"card": CARD, "covered": CARD}),
    "TurnStarted": obj({"seat": INT, "turn_id": INT, "phase": PHASE, "deadline": null(INT)}),
    "CardPlayed": obj({"seat": INT, "card": CARD, "hand_size": INT, "announce": BOOL}, {"auto": BOOL}),
    "SuitCalled": obj({"seat": INT, "suit": SUIT}, {"auto": BOOL}),
    "CardDrawn": obj({"seat": INT, "count": INT, "reason": STR, "hand_size": INT}, {"auto": BOOL}),
    "StockReshuffled": obj({"count": INT}),
    "DrawShortfall": obj({"seat": INT, "missing": INT, "reason": STR}),
    "PenaltyTaken": obj({"seat": INT, "amount": INT}, {"auto": BOOL}),
    "SkipAccepted": obj(_SEAT, {"auto": BOOL}),
    "TurnSkipped": obj(_SEAT),
    "DirectionReversed": obj({"direction": INT}),
    "TurnPassed": obj({"seat": INT, "turn_id": INT, "blocked": BOOL}, {"auto": BOOL}),
    "AnnouncementMade": obj({"seat": INT, "effect": enum("satisfied", "none")}, {"auto": BOOL}),
    "AnnouncementArmed": obj(_SEAT, {"auto": BOOL}),
    "AnnouncementMissed": obj({"seat": INT, "penalty": INT}),
    catch.CHALLENGE_MADE: catch.EVENT_SCHEMA,
    "RoundEnded": obj({"reason": STR, "cause": null(STR), "winner": null(INT)}),
    "HandsRevealed": obj({"hands": by_seat(arr(CARD))}),
    "RoundScored": obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT),
                        "intermission_deadline": null(INT)}),
    "SeatEliminated": obj({"seat": INT, "total": INT}),
}
PRIVATE = {"CardsDealt": obj({"cards": arr(CARD)}), "CardDrawn": obj({"cards": arr(CARD)})}
SECRET = {**TABLE_SECRET, "SeatLeft": obj({"hand": arr(CARD)})}

SPEC = closed(GameSpec(table=TABLE, turn=TURN, record=RECORD, actions=ACTIONS, events=EVENTS,
                       private=PRIVATE, secret=SECRET))
