"""openapi.yaml's typed game data, built from every game's ``GameSpec`` (service/games/*/spec.py).

A new game in the registry brings its table, turn, record, seat and ``you`` extras, legal actions,
event payloads and options into the spec without a line here. The names:

- ``<Game>Table``, ``<Game>Turn``, ``<Game>Record``, ``<Game>Options``; ``Table``, ``Turn``,
  ``Record`` and ``Options`` are ``oneOf`` them (each game's objects are closed, so exactly one fits);
- ``<Type>Action`` per action type (``<Game><Type>Action`` where games describe one type
  differently), ``<Game>LegalAction`` a game's ``oneOf`` by ``type`` and ``LegalAction`` any game's;
- ``<Type>Data`` per event type (``anyOf`` ``<Game><Type>Data`` where games write it differently),
  ``<Type>Event`` (an event in feeds and write answers) and ``<Type>AuditEvent`` (in history),
  and ``Event`` / ``AuditEvent``, their ``oneOf`` by ``type``;
- ``Seat`` and ``You``: the common fields plus every game's extras (``<Game>You``: the game's own);
  ``ScoreEntry``, ``Standing``;
- ``<Game>GameView`` and ``<Game>CreateGame`` (after the blueprints, ``register_requests``): the view
  and the create body per game, ``GameView`` and ``CreateGame`` their ``oneOf`` by ``variant``.
"""
from __future__ import annotations

from typing import Any

import orjson

from service.api.json_body import MAX_JSON_NUMBER
from service.api.spec_shape import NULL
from service.games import registry
from service.games.kernel.spec import INT, STANDING, STR, GameSpec, Json, arr, by_seat, enum, null, obj

REF = "#/components/schemas/"


def ref(name: str) -> Json:
    return {"$ref": REF + name}


def to(name: str, nullable: bool = False, description: str | None = None) -> dict[str, Any]:
    """Marshmallow field metadata pointing at a component (``allOf`` one ref, so that a
    description or ``nullable`` may stand beside it while apispec builds the document;
    service/api/spec_shape.py writes it out as the plain ref, or ``oneOf`` it and null)."""
    out: dict[str, Any] = {"allOf": [ref(name)]}
    if nullable:
        out["nullable"] = True
    if description:
        out["description"] = description
    return out


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").split("_"))


def _games() -> list[tuple[str, GameSpec]]:
    return [(_camel(g.name), g.spec) for g in registry.GAMES if g.spec is not None]


def _one_of(names: list[str], discriminator: dict[str, str] | None = None) -> Json:
    if len(names) == 1:
        return ref(names[0])  # an alias (a generated client makes one model of it, not a union of one)
    out: Json = {"oneOf": [ref(n) for n in names]}
    if discriminator:
        out["discriminator"] = {"propertyName": "type", "mapping": {k: REF + v for k, v in discriminator.items()}}
    return out


# a number in a body is within I-JSON's range (service/api/json_body.py): the spec says so, so a
# client (or a fuzzer) that keeps to the spec never meets its 400 invalid_json
_NUM = {"minimum": -MAX_JSON_NUMBER, "maximum": MAX_JSON_NUMBER}
_INT: Json = {**INT, **_NUM}
_OPTION_TYPES: dict[str, Json] = {
    "bool": {"type": "boolean"}, "int": _INT, "int_or_null": null(_INT), "float": {"type": "number", **_NUM},
    "rank": STR, "ranks": arr(STR), "names": arr(STR), "string": STR,
    "points": {"type": "object", "additionalProperties": _INT},
    "delays": {"type": "object", "additionalProperties": arr(_INT)},
    "parasites": {"type": "object", "additionalProperties": arr(_INT)},
}


def _option_schema(opt: dict[str, Any]) -> Json:
    if opt["type"] == "enum":
        return {"type": "string", "enum": list(opt["enum"])}
    schema = dict(_OPTION_TYPES.get(opt["type"], {}))
    if opt.get("nullable"):
        schema["nullable"] = True
    return schema


def _options() -> dict[str, Json]:
    """``<Game>Options``: every option of the game's variants, typed from the catalogue."""
    by_game: dict[str, dict[str, Json]] = {}
    for v in registry.variants_catalog():
        props = by_game.setdefault(_camel(registry.for_variant(v["name"]).name), {})
        for opt in v["options"]:
            props.setdefault(opt["name"], _option_schema(opt))
    return {f"{g}Options": {**obj({}, props), "description": "the resolved options (listVariants: each "
                                                             "option's type, default and range)"}
            for g, props in by_game.items()}


def _events(games: list[tuple[str, GameSpec]]) -> dict[str, Json]:
    out: dict[str, Json] = {}
    types = list(dict.fromkeys(t for _, s in games for t in s.events))
    for t in types:
        datas = [(g, s.events[t]) for g, s in games if t in s.events]
        if all(d == datas[0][1] for _, d in datas):
            out[f"{t}Data"] = datas[0][1]
        else:
            for g, d in datas:
                out[f"{g}{t}Data"] = d
            out[f"{t}Data"] = {"anyOf": [ref(f"{g}{t}Data") for g, _ in datas]}
        for part in ("private", "secret"):
            parts = [getattr(s, part)[t] for _, s in games if t in getattr(s, part)]
            if parts:
                out[f"{t}{part.title()}"] = parts[0] if all(p == parts[0] for p in parts) else {"anyOf": parts}
        common = {"seq": INT, "type": enum(t), "at": {**STR, "description": "RFC 3339"}, "round": INT,
                  "seat": null(INT), "data": ref(f"{t}Data")}
        private = {"private": by_seat(ref(f"{t}Private"))} if f"{t}Private" in out else {}
        secret = {"secret": ref(f"{t}Secret")} if f"{t}Secret" in out else {}
        out[f"{t}Event"] = obj(common, private)
        # a finished game's record has it all (nonce and command: on the first event of each
        # command); an auditor's read of a running game is the spectator's event and its hash
        out[f"{t}AuditEvent"] = obj({**common, "hash": STR},
                                    {"schema_version": INT, "at_ms": INT, "prev_hash": STR, "nonce": STR,
                                     **private, **secret, "command": {
                                         "type": "object", "additionalProperties": {},
                                         "description": "on the first event of each command: the command recorded"}})
    out["Event"] = _one_of([f"{t}Event" for t in types], {t: f"{t}Event" for t in types})
    out["AuditEvent"] = _one_of([f"{t}AuditEvent" for t in types], {t: f"{t}AuditEvent" for t in types})
    return out


def _actions(games: list[tuple[str, GameSpec]]) -> dict[str, Json]:
    """``<Type>Action`` where every game offering the type describes it alike, else
    ``<Game><Type>Action`` per game (UNO's play calls colours, Prší's suits); ``<Game>LegalAction``
    the game's ``oneOf`` by ``type``; ``LegalAction`` any game's (``anyOf``: two games may both
    offer a ``play``)."""
    out: dict[str, Json] = {}
    by_game: dict[str, dict[str, str]] = {g: {} for g, _ in games}
    for t in dict.fromkeys(t for _, s in games for t in s.actions):
        offers = [(g, s.actions[t]) for g, s in games if t in s.actions]
        alike = all(a == offers[0][1] for _, a in offers)
        for g, a in offers:
            name = f"{_camel(t)}Action" if alike else f"{g}{_camel(t)}Action"
            out[name] = a
            by_game[g][t] = name
    for g, names in by_game.items():
        out[f"{g}LegalAction"] = _one_of(list(names.values()), names)
    out["LegalAction"] = {"anyOf": [ref(f"{g}LegalAction") for g in by_game],
                          "description": "a legal action of the game played: its game's `…LegalAction`"}
    return out


def _you(legal: str, extra: dict[str, Json]) -> Json:
    return {**obj({"seat": INT, "hand": arr(STR), "legal_actions": arr(ref(legal))}, extra,
                  description="a seat token's own part: its hand and legal actions"), "x-meow-scope": "private"}


SEAT = {"seat": INT, "name": STR, "kind": enum("human", "bot"), "strength": null(STR),
        "state": {**enum("active", "waiting", "absent", "eliminated", "left")},
        "hand_count": INT, "score": INT,
        "timeouts": {**INT, "description": "consecutive timeouts of this seat (RULES §2.7)"},
        "removal_deadline": {**null(INT), "description": "while absent: when the seat is removed, ms since the epoch"}}


def components() -> dict[str, Json]:
    """Every typed component of the games, by name."""
    games = _games()
    out: dict[str, Json] = {}
    for part in ("table", "turn", "record"):
        names = []
        for g, s in games:
            schema = getattr(s, part)
            if schema is not None:
                out[f"{g}{part.title()}"] = schema
                names.append(f"{g}{part.title()}")
        out[part.title()] = _one_of(names)
    options = _options()
    out.update(options)
    out["Options"] = _one_of(sorted(options))
    out.update(_actions(games))
    out.update(_events(games))
    seat_extra = {k: v for _, s in games for k, v in s.seat.items()}
    out["Seat"] = {**obj(dict(SEAT), seat_extra), "x-meow-scope": "seat"}
    you_extra = {k: v for _, s in games for k, v in s.you.items()}
    out["You"] = _you("LegalAction", you_extra)
    for g, s in games:
        out[f"{g}You"] = _you(f"{g}LegalAction", dict(s.you))
    out["ScoreEntry"] = obj({"round": INT, "points": by_seat(INT), "totals": by_seat(INT)})
    out["Standing"] = STANDING
    return out


def _requests(schemas: dict[str, Json]) -> dict[str, Json]:
    """Request bodies whose rules marshmallow checks in code (``validates_schema``), described as
    exactly what they accept: ``Action`` one object per action type (``oneOf`` by ``type``, each
    with its own fields), ``TakeSeat`` a human's name or a bot, never both."""
    out: dict[str, Json] = {}
    action = schemas["Action"]
    props = action["properties"]
    names = {}
    for t, a in registry.ACTIONS.items():
        name = f"{_camel(t)}Request"
        fields = {f: s for f, s in props.items() if f in a.fields}  # declared order (a.fields is a set)
        out[name] = obj({"type": enum(t), **{f: s for f, s in fields.items() if f in a.required}},
                        {**{f: s for f, s in fields.items() if f not in a.required},
                         "expected_version": props["expected_version"]})
        names[t] = name
    out["Action"] = {**_one_of(list(names.values()), names),
                     "description": "one action of the caller's seat; its fields depend on its type"}
    seat = schemas["TakeSeat"]["properties"]
    out["HumanSeat"] = obj({"name": seat["name"]}, description="take a seat yourself")
    out["BotSeat"] = obj({"bot": seat["bot"]}, description="add a bot (owner token)")
    out["TakeSeat"] = _one_of(["HumanSeat", "BotSeat"])
    out.update(_by_game(schemas))
    return out


def _by_game(schemas: dict[str, Json]) -> dict[str, Json]:
    """``CreateGame`` and ``GameView`` as one object per game, told apart by ``variant`` (each
    pins it to its game's variants; service/api/spec_shape.py adds the discriminator): a create
    body's ``options`` are the game's own, and a view's ``table``, ``turn``, ``record`` and
    ``options`` are its game's, so a client narrows them all by the view's ``variant``."""
    out: dict[str, Json] = {}
    create, view = schemas["CreateGame"], schemas["GameView"]
    creates, views = [], []
    for game in registry.GAMES:
        g = _camel(game.name)
        variant = {**create["properties"]["variant"], "enum": list(game.variants), "example": game.variants[0]}
        options = {**ref(f"{g}Options"), "description": create["properties"]["options"]["description"]}
        out[f"{g}CreateGame"] = {**create, "properties": {**create["properties"], "variant": variant,
                                                          "options": options},
                                 "description": f"a {', '.join(game.variants)} table"}
        props = {**view["properties"], "variant": enum(*game.variants), "options": ref(f"{g}Options")}
        if f"{g}You" in schemas:
            props["you"] = ref(f"{g}You")
        for part in ("table", "turn", "record"):
            name = f"{g}{part.title()}"
            typed = {"oneOf": [ref(name), dict(NULL)]} if name in schemas else dict(NULL)
            props[part] = {**typed, **{k: v for k, v in view["properties"][part].items() if k == "description"}}
        out[f"{g}GameView"] = {**view, "properties": props, "description": f"the view of a {game.name} table "
                                                                           f"({', '.join(game.variants)})"}
        creates.append(f"{g}CreateGame")
        views.append(f"{g}GameView")
    out["CreateGame"] = {**_one_of(creates), "description": "a table of one variant, with that variant's options"}
    out["GameView"] = {**_one_of(views), "description": "the view of a table; its `variant` tells its game"}
    return out


def register_requests(spec: Any) -> None:
    """Replace the marshmallow-made request components (after the blueprints registered them)."""
    schemas = spec.components.schemas
    for name, schema in _requests(orjson.loads(orjson.dumps(schemas))).items():
        schemas[name] = schema


def register(spec: Any) -> None:
    """Add the components to an apispec ``APISpec`` (flask-smorest's ``api.spec``)."""
    for name, schema in components().items():  # a fresh copy each: no YAML anchors in openapi.yaml
        spec.components.schema(name, component=orjson.loads(orjson.dumps(schema)))
