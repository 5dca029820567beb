"""High card's part of the API spec (kernel/spec.py): its table, turn, action and events."""
from __future__ import annotations

from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, STR, TABLE_EVENTS, TABLE_SECRET, GameSpec, arr, by_seat, closed, enum, null, obj

CARD = {"type": "string", "description": "a card: hc01 (lowest) .. hc12 (highest)"}
LAY = obj({"type": enum("lay"), "card": shown(CARD, "card", "card")})
TABLE = obj({"dealer": shown(INT, "seat", "seat", "seat"),
             "trick": shown(arr(obj({"seat": INT, "card": CARD})), "row", "table"),
             "tricks": shown(by_seat(INT), "seat", "int", "seat")},
            description="the open trick (cards laid so far, in order) and the tricks each seat has won this round")
TURN = obj({"seat": shown(INT, "none", "seat"), "turn_id": shown(INT, "none"),
            "deadline": shown(null(INT), "timer", "ms")})
EVENTS = {
    **TABLE_EVENTS,
    "SeatLeft": obj({"seat": INT, "reason": STR}, {"replaced_by": obj({"kind": STR, "strength": STR, "name": STR})}),
    "TimedOut": obj({"seat": INT, "turn_id": INT, "guarded": STR, "default_action": LAY, "chain": arr(LAY)},
                    {"absent": BOOL, "removal_deadline": INT}),
    "RoundStarted": obj({"round": INT, "dealer": INT, "active_seats": arr(INT)}),
    "CardsDealt": obj({"hand_sizes": by_seat(INT)}),
    "TurnStarted": obj({"seat": INT, "turn_id": INT, "deadline": null(INT)}),
    "CardLaid": obj({"seat": INT, "card": CARD}, {"auto": BOOL}),
    "TrickWon": obj({"seat": INT, "cards": arr(CARD)}),
    "RoundEnded": obj({"reason": enum("hands_empty")}),
    "RoundScored": obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT), "intermission_deadline": null(INT)}),
}
SPEC = closed(GameSpec(table=TABLE, turn=TURN, actions={"lay": LAY}, events=EVENTS,
                       private={"CardsDealt": obj({"cards": arr(CARD)})}, secret=dict(TABLE_SECRET)))
