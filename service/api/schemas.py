"""Marshmallow schemas: request validation and the OpenAPI description of every body."""
from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from service.games import registry

# Every game contributes its actions, their fields and its card ids (service/games/registry.py).
SUITS = tuple(dict.fromkeys(s for g in registry.GAMES for s in g.suits))
ACTION_TYPES = tuple(registry.ACTIONS)
FIELDS_BY_TYPE = {name: set(a.fields) for name, a in registry.ACTIONS.items()}
REQUIRED_BY_TYPE = {name: set(a.required) for name, a in registry.ACTIONS.items() if a.required}
_CARDS = [g.card_pattern for g in registry.GAMES if g.card_pattern]
CARD = f"^{_CARDS[0]}$" if len(_CARDS) == 1 else "^(" + "|".join(f"(?:{c})" for c in _CARDS) + ")$"
MAX_SEQ = 2**53  # JSON-safe; no game gets near it


class StrictBoolean(fields.Boolean):
    """Only JSON true/false (marshmallow's Boolean would take 1, 1.0 or "true")."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
REFUSED_CATEGORIES = frozenset(("Cc", "Cs", "Cn", "Co", "Zl", "Zp"))


class DisplayName(fields.String):
    """A name people see: NFC-normalised and trimmed; no control, bidi-control, unassigned,
    private-use or line-separator characters (they reorder or hide what others read)."""

    def __init__(self, max_length: int = 40, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {"description": f"1-{max_length} characters, NFC-normalised and trimmed; "
                                                      "no control, bidi-control, unassigned or private-use characters"})
        super().__init__(validate=validate.Length(1, max_length), **kwargs)
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = unicodedata.normalize("NFC", super()._deserialize(value, attr, data, **kwargs)).strip()
        if not 1 <= len(text) <= self.max_length:
            raise ValidationError(f"1 to {self.max_length} characters (after NFC normalisation and trimming)")
        bad = next((ch for ch in text if ch in BIDI_CONTROLS or unicodedata.category(ch) in REFUSED_CATEGORIES), None)
        if bad is not None:
            raise ValidationError(f"character U+{ord(bad):04X} is not allowed in a name")
        return text


class Strict(Schema):
    class Meta:
        unknown = RAISE


class CreateGame(Strict):
    variant = fields.String(required=True, metadata={"example": "prsi"})
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={"description": "overrides of the preset's options (RULES.md §8)"})
    max_players = fields.Integer(strict=True, validate=validate.Range(2, 5), load_default=None, allow_none=True)
    name = DisplayName(100, load_default=None, allow_none=True)


class BotSpec(Strict):
    strength = fields.String(load_default=None, allow_none=True, metadata={"example": "easy"})


class TakeSeat(Strict):
    name = DisplayName(40)
    bot = fields.Nested(BotSpec)

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if "bot" not in data and "name" not in data:
            raise ValidationError("give a name (a human seat) or a bot", field_name="name")
        if "bot" in data and "name" in data:
            raise ValidationError("a bot seat takes no name here", field_name="name")


class Action(Strict):
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    card = fields.String(validate=validate.Regexp(CARD), metadata={"example": "JH:0"})
    called_suit = fields.String(validate=validate.OneOf(SUITS), allow_none=True)
    announce = StrictBoolean()
    kind = fields.String(validate=validate.Length(1, 20))
    step = fields.Integer(strict=True, validate=validate.Range(min=1))
    seen_step = fields.Integer(strict=True, validate=validate.Range(min=0))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=0))

    @validates_schema
    def _fields_fit_type(self, data: dict[str, Any], **_: Any) -> None:
        kind = data.get("type")
        if kind not in FIELDS_BY_TYPE:
            return
        given = set(data) - {"type", "expected_version"}
        errors = {f: [f"not a field of a '{kind}' action"] for f in sorted(given - FIELDS_BY_TYPE[kind])}
        errors.update({f: ["Missing data for required field."] for f in sorted(REQUIRED_BY_TYPE.get(kind, set()) - given)})
        if errors:
            raise ValidationError(errors)


class LobbyQuery(Strict):
    status = fields.String(validate=validate.OneOf(("open", "running", "finished")))
    variant = fields.String()
    limit = fields.Integer(validate=validate.Range(1, 100), load_default=20)
    cursor = fields.String(validate=validate.Regexp(r"^\d{1,16}:[0-9a-f]{16}$", error="not a cursor from a previous page"))


class EventsQuery(Strict):
    after = fields.Integer(validate=validate.Range(0, MAX_SEQ), load_default=0)
    wait = fields.Float(validate=validate.Range(0, 30), load_default=0.0)


# ---------------------------------------------------------------- responses (documentation)


class Problem(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "stable machine-readable error code"})
    errors = fields.List(fields.Dict(), metadata={"description": "invalid_request: each bad field"})
    legal_actions = fields.List(fields.Dict(), metadata={"description": "409/422 on actions: what the caller may do"})
    version = fields.Integer(metadata={"description": "version_conflict: the current version"})


class Seat(Schema):
    seat = fields.Integer()
    name = fields.String()
    kind = fields.String(metadata={"description": "human or bot"})
    strength = fields.String(allow_none=True)
    state = fields.String(metadata={"description": "active, waiting, absent, eliminated or left"})
    hand_count = fields.Integer()
    score = fields.Integer()
    timeouts = fields.Integer(metadata={"description": "consecutive timeouts of this seat (RULES §2.7)"})
    removal_deadline = fields.Integer(allow_none=True, metadata={
        "description": "while absent: when the seat is removed, ms since the epoch (RULES §2.7)"})
    parasites = fields.List(fields.String(), metadata={
        "description": "Sakapuss: the parasite cards in front of this seat (RULES §6.8)"})


class You(Schema):
    seat = fields.Integer()
    hand = fields.List(fields.String())
    legal_actions = fields.List(fields.Dict())
    passed_kind = fields.String(allow_none=True, metadata={
        "description": "Sakapuss: the kind you submitted for the open pass step (sealed from others)"})
    pass_log = fields.List(fields.Dict(), metadata={
        "description": "Sakapuss: your own passes this round, oldest first: {step, passed, received}"})


class GameView(Schema):
    id = fields.String()
    variant = fields.String()
    name = fields.String(allow_none=True)
    options = fields.Dict()
    status = fields.String(metadata={"description": "open, running or finished"})
    phase = fields.String(allow_none=True)
    round = fields.Integer()
    version = fields.Integer()
    seats = fields.List(fields.Nested(Seat))
    table = fields.Dict(allow_none=True, metadata={"description": (
        "shedding games: top_card, called_suit, pending_draw, pending_skip, direction, "
        "stock_count, discard_count, discard, dealer, drew_on (public draw caps), and the round's "
        "public record: played (every card put on the discard, starter first) and moves "
        "({seat, move, card?, called_suit?, count?, auto?, before?}, oldest first; before = the "
        "table the seat decided on), see docs/bots.md; Sakapuss: its own fields")})
    turn = fields.Dict(allow_none=True)
    scores = fields.List(fields.Dict())
    standings = fields.List(fields.Dict(), allow_none=True)
    you = fields.Nested(You)
    announcements = fields.List(fields.Dict(), metadata={
        "description": "open last-card announcement windows: {seat, open, satisfied, opened_at, grace_until, armed} (RULES §3.8)"})
    armed = fields.Integer(allow_none=True, metadata={
        "description": "the seat that armed its announcement for its next play (RULES §3.8), or null"})
    end_reason = fields.String(allow_none=True, metadata={"description": "why the match ended, once finished"})
    intermission_deadline = fields.Integer(allow_none=True, metadata={
        "description": "between rounds: when the next round is dealt, ms since the epoch"})
    match_seed_commitment = fields.String(metadata={
        "description": "SHA-256 of the match seed, revealed when the match ends (docs/randomness.md)"})
    chain_head = fields.String(metadata={"description": "hash of the last event (docs/audit.md)"})


class EventOut(Schema):
    seq = fields.Integer()
    type = fields.String()
    at = fields.String(metadata={"description": "RFC 3339"})
    round = fields.Integer()
    seat = fields.Integer(allow_none=True)
    data = fields.Dict()
    private = fields.Dict(metadata={"description": "private fields the caller may see, by seat"})
    secret = fields.Dict(metadata={"description": "server-private fields (history of finished games only)"})


class WriteResult(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventOut))
    game = fields.Nested(GameView)
    replayed = fields.Boolean(metadata={"description": "true when an Idempotency-Key retry returned the first answer"})


class Created(WriteResult):
    id = fields.String()
    owner_token = fields.String(allow_none=True, metadata={"description": "returned exactly once"})
    warnings = fields.List(fields.Dict())


class SeatTaken(WriteResult):
    seat = fields.Integer()
    token = fields.String(allow_none=True, metadata={"description": "the seat token (human seats), returned exactly once"})


class EventsPage(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventOut))


class StateQuery(Strict):
    at = fields.Integer(required=True, validate=validate.Range(1, MAX_SEQ))


class AuditEvent(Schema):
    seq = fields.Integer()
    type = fields.String()
    schema_version = fields.Integer()
    at_ms = fields.Integer()
    at = fields.String()
    round = fields.Integer()
    seat = fields.Integer(allow_none=True)
    data = fields.Dict()
    private = fields.Dict()
    secret = fields.Dict()
    command = fields.Dict(metadata={"description": "on the first event of each command: the command recorded"})
    nonce = fields.String()
    prev_hash = fields.String()
    hash = fields.String()


class History(Schema):
    version = fields.Integer()
    status = fields.String()
    events = fields.List(fields.Nested(AuditEvent))


class VerifyReport(Schema):
    ok = fields.Boolean()
    events = fields.Integer()
    first_bad_seq = fields.Integer(allow_none=True)
    chain = fields.Dict()
    commitments = fields.Dict()
    replay = fields.Dict()
    problems = fields.List(fields.Dict())
    final = fields.Dict(allow_none=True)


class LegalActions(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    legal_actions = fields.List(fields.Dict())


class LobbyPage(Schema):
    games = fields.List(fields.Dict())
    next_cursor = fields.String(allow_none=True)


class Variants(Schema):
    variants = fields.List(fields.Dict())


class Health(Schema):
    status = fields.String()
