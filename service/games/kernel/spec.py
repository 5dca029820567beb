"""What a game tells the API's spec about its data: JSON Schemas (the OpenAPI 3.0 subset) of its
table, turn, round record, seat and ``you`` extras, legal actions and event payloads.

Plain data, no schema library: the API (service/api/components.py) turns every game's ``GameSpec``
into components of openapi.yaml, and the API tests check every answer against them, so a field a
game ships without declaring it here fails a test. The helpers below keep the declarations short;
the table events' payloads every game shares are declared once here.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

Json = dict[str, Any]

INT: Json = {"type": "integer"}
STR: Json = {"type": "string"}
BOOL: Json = {"type": "boolean"}
NUM: Json = {"type": "number"}


def null(schema: Json) -> Json:
    """``schema`` or null."""
    return {**schema, "nullable": True}


def arr(items: Json) -> Json:
    return {"type": "array", "items": items}


def by_seat(values: Json) -> Json:
    """An object keyed by seat number (JSON keys are strings: "0", "1", ...)."""
    return {"type": "object", "additionalProperties": values,
            "description": "keyed by seat number"}


def obj(required: Mapping[str, Json], optional: Mapping[str, Json] | None = None,
        description: str | None = None) -> Json:
    """A closed object: the ``required`` properties always present, the ``optional`` ones maybe."""
    out: Json = {"type": "object", "properties": {**required, **(optional or {})},
                 "additionalProperties": False}
    if required:
        out["required"] = sorted(required)
    if description:
        out["description"] = description
    return out


def enum(*values: str) -> Json:
    return {"type": "string", "enum": list(values)}



@dataclass(frozen=True)
class GameSpec:
    """A game's part of the spec (names are the API's component names without the game prefix)."""

    table: Json  # GameView.table while a round is dealt
    turn: Json  # GameView.turn while someone may act
    seat: Mapping[str, Json] = field(default_factory=dict)  # extra properties of each seat row
    you: Mapping[str, Json] = field(default_factory=dict)  # extra properties of ``you``
    record: Json | None = None  # GameView.record with include=record (None: always null)
    actions: Mapping[str, Json] = field(default_factory=dict)  # type -> one legal action entry
    events: Mapping[str, Json] = field(default_factory=dict)  # event type -> its public data
    private: Mapping[str, Json] = field(default_factory=dict)  # event type -> a seat's private part
    secret: Mapping[str, Json] = field(default_factory=dict)  # event type -> server-private part


def closed(spec: GameSpec) -> GameSpec:
    """The spec with read-only mappings (a game's entry is shared by every request)."""
    return GameSpec(spec.table, spec.turn, MappingProxyType(dict(spec.seat)), MappingProxyType(dict(spec.you)),
                    spec.record, MappingProxyType(dict(spec.actions)), MappingProxyType(dict(spec.events)),
                    MappingProxyType(dict(spec.private)), MappingProxyType(dict(spec.secret)))


SEAT_KINDS = enum("human", "bot")
STANDING = obj({"seat": INT, "name": STR, "rank": INT, "total": INT},
               {"kind": SEAT_KINDS, "replaced": BOOL, "parasite_cards": INT})
SHUFFLE_WHAT = STR
TABLE_EVENTS: dict[str, Json] = {
    "MatchCreated": obj({"game_id": STR, "variant": STR, "options": {"type": "object", "additionalProperties": {},
                                                                     "description": "the resolved options"},
                         "max_players": INT, "name": null(STR), "creator": null(STR),
                         "match_seed_commitment": STR, "algorithm": STR},
                        {"rules_version": INT}),
    "SeatJoined": obj({"seat": INT, "name": STR, "kind": SEAT_KINDS, "strength": null(STR), "creator": BOOL}),
    "ShuffleCommitted": obj({"what": SHUFFLE_WHAT, "count": INT, "commitment": STR, "algorithm": STR},
                            {"seat": INT}),
    "MatchEnded": obj({"reason": STR, "winner": null(INT), "standings": arr(STANDING)}, {"winners": arr(INT)}),
    "SeedsRevealed": obj({"match_seed": STR, "shuffle_seeds": {
        "type": "object", "additionalProperties": STR, "description": "keyed by the seq of each ShuffleCommitted"}}),
}
TABLE_SECRET: dict[str, Json] = {
    "MatchCreated": obj({"match_seed": STR}),
    "ShuffleCommitted": obj({"seed": STR, "order": arr(STR)}),
}
