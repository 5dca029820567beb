"""Marshmallow schemas: request validation and the OpenAPI description of every body."""
from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from service.api.components import to
from service.api.json_body import MAX_JSON_NUMBER
from service.app.players import REF_PATTERN as PLAYER_REF
from service.games import registry
from service.games.kernel import text
from service.games.kernel.marks import KINDS, SCOPES, SHOWS
from service.games.kernel.presentation import COLOURS, LANGS
from service.games.kernel.table import BOT_STRENGTHS

# Every game contributes its actions, their fields and its card ids (service/games/registry.py).
SUITS = registry.SUITS
ACTION_TYPES = tuple(registry.ACTIONS)
FIELDS_BY_TYPE = {name: set(a.fields) for name, a in registry.ACTIONS.items()}
REQUIRED_BY_TYPE = {name: set(a.required) for name, a in registry.ACTIONS.items() if a.required}
CARD = registry.CARD_PATTERN
MAX_SEQ = 2**53  # JSON-safe; no game gets near it


class StrictBoolean(fields.Boolean):
    """Only JSON true/false (marshmallow's Boolean would take 1, 1.0 or "true")."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class DisplayName(fields.String):
    """A name people see (service/games/kernel/text.py): NFC-normalised and trimmed; no control,
    format, bidi-control, default-ignorable, unassigned or private-use character, and not only
    blanks (they hide, reorder or fake what others read)."""

    def __init__(self, max_length: int = 40, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {"description": f"1-{max_length} characters, NFC-normalised and trimmed; "
                                                      "no control, format (zero-width, bidi, tag), default-ignorable "
                                                      "(variation selectors, Hangul fillers), unassigned or "
                                                      "private-use characters, and not only blanks"})
        super().__init__(validate=validate.Length(1, max_length), **kwargs)
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        cleaned = text.clean(super()._deserialize(value, attr, data, **kwargs))
        why = text.problem(cleaned, self.max_length)
        if why is not None:
            raise ValidationError(why)
        return cleaned


class Strict(Schema):
    class Meta:
        unknown = RAISE


class CreateGame(Strict):
    # the enum documents the variants; an unknown one is refused by the games as unknown_variant
    variant = fields.String(required=True, metadata={"example": "prsi", "enum": list(registry.BY_VARIANT)})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "overrides of the preset's options (the rules §8: docs/rules/options.md)"})
    max_players = fields.Integer(strict=True, validate=validate.Range(2, 10), load_default=None, allow_none=True, metadata={
        "description": "the table's seats, within the preset's range (GET /v1/variants: 2-10 for `uno`); "
                       "default: the preset's"})
    name = DisplayName(100, load_default=None, allow_none=True)
    private = StrictBoolean(load_default=False, metadata={
        "description": "an API key's unlisted table (Meow-Key required: 401 `key_required`): in no public lobby, "
                       "joined with its invite code, watched with its spectator token (docs/integrators.md)"})


class BotSpec(Strict):
    strength = fields.String(load_default=None, allow_none=True, metadata={
        "example": "easy", "enum": [*BOT_STRENGTHS, None],
        "description": "null: the table's bot_strength option. A strength the table's variant does not offer "
                       "(its `bot_strengths` in GET /v1/variants) is refused 422 `invalid_option`"})
    remote = fields.String(validate=validate.Length(2, 32), metadata={
        "example": "b1a2b3c4d5e6f",
        "description": "a registered remote bot's id (registerBot, docs/remote-bots.md) instead of a strength: "
                       "needs the owner token and, in `Meow-Key`, the API key that owns the bot (else 404); "
                       "its seat's strength is `remote` (a `strength` given with it is ignored)"})


class TakeSeat(Strict):
    name = DisplayName(40)
    bot = fields.Nested(BotSpec)
    player = fields.String(validate=validate.Regexp(PLAYER_REF, error="1-64 letters, digits or ._:@-"), metadata={
        "example": "user-1842", "description": "the API key's own id for the player in this seat (needs the "
                                               "Meow-Key header; the same ref under two keys is two players)"})
    invite = fields.String(validate=validate.Length(1, 100), metadata={
        "description": "a private table's invite code (without a token); a wrong one, or one no table takes: "
                       "404 `invite_invalid`"})

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
    step = fields.Integer(strict=True, validate=validate.Range(1, MAX_JSON_NUMBER))
    seen_step = fields.Integer(strict=True, validate=validate.Range(0, MAX_JSON_NUMBER))
    target = fields.Integer(strict=True, validate=validate.Range(0, 63),
                            metadata={"description": "the seat a challenge catches (RULES §3.8.4)"})
    expected_version = fields.Integer(strict=True, validate=validate.Range(0, MAX_JSON_NUMBER))

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
# The games' data (table, turn, record, seats, you, legal actions, events, options) are components
# built from each game's spec (service/api/components.py); these schemas point at them.


class Answer(Schema):
    """A response body: every field it declares is always present (``required`` in the spec, so a
    generated client types it as present) except the ones named in ``OPTIONAL``. A field that may
    be null is still present (``allow_none``: ``T | null``). The API tests check every answer
    against the spec (tests/api/spec_check.py), so a field marked present that is not fails there."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, f in self.fields.items():  # the instance's own copies (apispec reads an instance)
            f.required = name not in self.OPTIONAL


def _ref(name: str, nullable: bool = False, description: str | None = None) -> fields.Raw:
    return fields.Raw(allow_none=nullable, metadata=to(name, nullable, description))


def _refs(name: str, description: str | None = None, **kw: Any) -> fields.List:
    return fields.List(fields.Raw(metadata=to(name)), metadata={"description": description} if description else {}, **kw)


class FieldError(Schema):
    field = fields.String(metadata={"description": "the field, header or query parameter"})
    in_ = fields.String(data_key="in", metadata={"description": "where: json, query, headers, ..."})
    messages = fields.Raw(metadata={"description": "what is wrong (a list, or per nested field)"})
    option = fields.String(metadata={"description": "an option of createGame"})
    detail = fields.String()


class Problem(Answer):
    OPTIONAL = ('errors', 'legal_actions', 'version', 'variant', 'reason', 'seq', 'limit', 'arena')
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "stable machine-readable error code"})
    errors = fields.List(fields.Nested(FieldError), metadata={
        "description": "invalid_request: each bad field; invalid_json: where a number is out of range"})
    legal_actions = _refs("LegalAction", "409/422 on actions: what the caller may do")
    version = fields.Integer(metadata={"description": "version_conflict: the current version"})
    variant = fields.String(metadata={"description": "unknown_variant: the variant asked for"})
    reason = fields.String(metadata={"description": "invalid_option: why, where one word says it"})
    seq = fields.Integer(metadata={"description": "game_corrupted: the event that cannot be read or applied"})
    arena = fields.String(metadata={"description": "arena_running: the arena the game belongs to"})
    limit = fields.Integer(metadata={"description": "bots_only_limit: the cap of running bots-only tables reached"})


class Announcement(Answer):
    seat = fields.Integer()
    open = fields.Boolean()
    satisfied = fields.Boolean()
    opened_at = fields.Integer()
    grace_until = fields.Integer(allow_none=True)
    armed = fields.Boolean()


class Notice(Answer):
    code = fields.String(validate=validate.OneOf(("search_budget_reduced",)), metadata={
        "description": "search_budget_reduced: the search lane is saturated and this table's bots search less"})
    budget_ms = fields.Integer(metadata={"description": "the time its bots' searches get now, in ms"})
    detail = fields.String()


class SeatPlayer(Answer):
    seat = fields.Integer()
    player = fields.String(metadata={"example": "user-1842"})


class GameView(Answer):
    OPTIONAL = ('you', 'notices', 'chain_head', 'rematch', 'players')
    id = fields.String()
    variant = fields.String()
    name = fields.String(allow_none=True)
    options = _ref("Options")
    status = fields.String(validate=validate.OneOf(("open", "running", "finished")))
    phase = fields.String(allow_none=True)
    round = fields.Integer()
    version = fields.Integer()
    seats = _refs("Seat")
    table = _ref("Table", True, "the table while a round is dealt (the game's own fields)")
    turn = _ref("Turn", True, "who may act now, and until when")
    record = _ref("Record", True, "with include=record: the round's public record (null otherwise, "
                                  "and for games that keep none)")
    scores = _refs("ScoreEntry", "each scored round: points and running totals by seat")
    standings = _refs("Standing", "the final standings once the match is finished", allow_none=True)
    you = _ref("You")
    announcements = fields.List(fields.Nested(Announcement), metadata={
        "description": "open last-card announcement windows (RULES §3.8)"})
    armed = fields.Integer(allow_none=True, metadata={
        "description": "the seat that armed its announcement for its next play (RULES §3.8), or null"})
    end_reason = fields.String(allow_none=True, metadata={"description": "why the match ended, once finished"})
    intermission_deadline = fields.Integer(allow_none=True, metadata={
        "description": "between rounds: when the next round is dealt, ms since the epoch"})
    match_seed_commitment = fields.String(metadata={
        "description": "SHA-256 of the match seed, revealed when the match ends (docs/randomness.md)"})
    chain_head = fields.String(metadata={"description": "hash of the last event (docs/audit.md)"})
    rematch = fields.String(metadata={
        "description": "the id of this finished table's rematch, present once its owner asked for one (POST "
                       "/v1/games/{id}/rematch)"})
    players = fields.List(fields.Nested(SeatPlayer), metadata={
        "description": "the seats' players (docs/integrators.md), present only for the API key (Meow-Key) "
                       "that set them: nobody else learns a key's player ids"})
    notices = fields.List(fields.Nested(Notice), metadata={
        "description": "the server's own notices about this table, present only while one holds: "
                       "its bots' search budget reduced while the search lane is saturated "
                       "(docs/reliability.md); a fact about the server's load, never about the cards"})


class WriteResult(Answer):
    OPTIONAL: ClassVar[tuple[str, ...]] = ('game', 'replayed')
    version = fields.Integer()
    events = _refs("Event", "the events this write appended, as the caller may see them")
    game = fields.Nested(GameView, metadata={"description": "the caller's view; left out with Prefer: return=minimal"})
    replayed = fields.Boolean(metadata={"description": "true when an Idempotency-Key retry returned the first answer"})


class OptionWarning(Answer):
    option = fields.String()
    detail = fields.String()


class Created(WriteResult):
    OPTIONAL = ('game', 'replayed', 'invite_code', 'spectator_token')  # the two: a private table's
    id = fields.String()
    owner_token = fields.String(allow_none=True, metadata={"description": "returned exactly once"})
    warnings = fields.List(fields.Nested(OptionWarning), metadata={
        "description": "options not taken as given: one whose parent switch is off (dropped, the preset's "
                       "default kept), a search budget over the server's cap (lowered), a penalty limit the "
                       "first round can reach"})
    private = fields.Boolean(metadata={"description": "an unlisted table of the request's API key"})
    invite_code = fields.String(metadata={"description": "a private table's invite code, returned exactly once "
                                                         "(rotate it: rotateInvite)"})
    spectator_token = fields.String(metadata={"description": "a private table's spectator token, returned exactly "
                                                             "once (rotate it: rotateSpectatorToken)"})


class SeatTaken(WriteResult):
    OPTIONAL = ('game', 'replayed')
    seat = fields.Integer()
    token = fields.String(allow_none=True, metadata={"description": "the seat token (human seats), returned exactly once"})


class EventsPage(Answer):
    version = fields.Integer()
    events = _refs("Event", "oldest first; each typed by its `type`")


def _include() -> fields.String:
    return fields.String(validate=validate.OneOf(("record",)), metadata={
        "description": "`record`: add the round's public record (`record`) to the view"})


class ViewQuery(Strict):
    include = _include()


class StateQuery(Strict):
    at = fields.Integer(required=True, validate=validate.Range(1, MAX_SEQ))
    include = _include()


class History(Answer):
    version = fields.Integer()
    status = fields.String()
    events = _refs("AuditEvent", "the whole log, each event with its hash-chain link")


class Check(Answer):
    ok = fields.Boolean()


class Commitments(Check):
    shuffles = fields.Integer(metadata={"description": "shuffles checked against their commitments"})


class Replayed(Check):
    commands = fields.Integer(metadata={"description": "recorded commands re-decided"})


class VerifyProblem(Answer):
    seq = fields.Integer()
    check = fields.String(validate=validate.OneOf(("chain", "commitment", "replay")))
    detail = fields.String()


class FinalScores(Answer):
    scores = _refs("ScoreEntry")
    standings = _refs("Standing", allow_none=True)


class VerifyReport(Answer):
    ok = fields.Boolean()
    events = fields.Integer()
    first_bad_seq = fields.Integer(allow_none=True)
    chain = fields.Nested(Check)
    commitments = fields.Nested(Commitments)
    replay = fields.Nested(Replayed)
    problems = fields.List(fields.Nested(VerifyProblem))
    final = fields.Nested(FinalScores, allow_none=True, metadata={"description": "the replayed final scores (when ok)"})


class LegalActions(Answer):
    version = fields.Integer()
    seat = fields.Integer()
    legal_actions = _refs("LegalAction")


class LobbyEntry(Answer):
    id = fields.String()
    variant = fields.String()
    name = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(("open", "running", "finished")))
    players = fields.Integer(metadata={"description": "seats taken (active, waiting or absent)"})
    max_players = fields.Integer()
    version = fields.Integer()
    created_at = fields.Integer(metadata={"description": "ms since the epoch"})


class LobbyPage(Answer):
    games = fields.List(fields.Nested(LobbyEntry))
    next_cursor = fields.String(allow_none=True)


class OptionParent(Answer):
    option = fields.String()
    value = fields.Raw()


class OptionInfo(Answer):
    OPTIONAL = ('range', 'enum', 'nullable', 'parent')
    name = fields.String()
    type = fields.String(metadata={"description": "bool, int, int_or_null, float, enum, rank, ranks, names, "
                                                  "string, points, delays or parasites"})
    default = fields.Raw(allow_none=True)
    range = fields.List(fields.Raw(), metadata={"description": "[min, max] for numbers (of each value for points and "
                                                               "delays; the length for strings), else the accepted values"})
    enum = fields.List(fields.String())
    nullable = fields.Boolean()
    parent = fields.Nested(OptionParent, metadata={"description": "the option only applies when `option` is `value`"})


class CardFace(Answer):
    id = fields.String(metadata={"description": "a card id, or the start of ids that extend it with `:<part>`s "
                                                "(look an id up, then drop its last `:part` until found)"})
    label = fields.String(allow_none=True, metadata={"description": "the short text on the card (a rank or value); "
                                                                    "null: the id's parts after `id`"})
    name = fields.String(metadata={"description": "the words key of its spoken name, a template with {label} "
                                                  "and {suit}"})
    suit = fields.String(allow_none=True, metadata={"description": "a suit id of `suits`"})
    symbol = fields.String(allow_none=True, metadata={"description": "an icon for a card with no suit"})
    colour = fields.String(validate=validate.OneOf(sorted(COLOURS)), metadata={"description": "a colour hint"})


class SuitInfo(Answer):
    id = fields.String()
    symbol = fields.String()
    colour = fields.String(validate=validate.OneOf(sorted(COLOURS)))


class Mark(Answer):
    OPTIONAL = ('properties',)
    show = fields.String(validate=validate.OneOf(sorted(SHOWS)), metadata={"description": "how a client draws it"})
    kind = fields.String(validate=validate.OneOf(sorted(KINDS)), metadata={"description": "how its value reads"})
    scope = fields.String(validate=validate.OneOf(sorted(SCOPES)), metadata={"description": "who sees it"})
    properties = fields.Dict(keys=fields.String(), values=fields.Nested(lambda: Mark()),
                             metadata={"description": "a `group`'s own fields"})


def _marks(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.Nested(Mark), metadata={"description": description})


class ViewMarks(Answer):
    table = _marks("the table's fields")
    turn = _marks("the turn's fields")
    seat = _marks("a seat row's extra fields")
    own = _marks("the extra fields of the view's `you` (the token's own seat)")
    actions = fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String(), values=fields.Nested(Mark)),
                          metadata={"description": "each legal action type's fields"})


class Variant(Answer):
    name = fields.String()
    game = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    options = fields.List(fields.Nested(OptionInfo))
    bot_strengths = fields.List(fields.String())
    cards = fields.List(fields.Nested(CardFace), metadata={"description": "a face for every card the variant may "
                                                                         "deal (docs/clients.md)"})
    suits = fields.List(fields.Nested(SuitInfo), metadata={"description": "every suit a card or a called_suit names"})
    marks = fields.Nested(ViewMarks, metadata={"description": "how a client draws the view's game fields and the "
                                                             "legal actions' fields (the x-meow marks of the spec)"})
    end_event = fields.String(metadata={"description": "the last event of every match"})
    words = fields.Dict(keys=fields.String(validate=validate.OneOf(LANGS)),
                        values=fields.Dict(keys=fields.String(), values=fields.String()),
                        metadata={"description": "the game's words by language (en, cs, ru): events, actions, "
                                                 "phases, fields, the announcement, points, end reasons, cards"})


class Variants(Answer):
    variants = fields.List(fields.Nested(Variant))


class Health(Answer):
    status = fields.String()
