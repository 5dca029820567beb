"""Tokens and tables for the schemathesis run (tests/e2e/test_schemathesis.py).

Every token is game-specific (a seat's or the owner's), so a generated request only reaches the
code behind authentication when it names a real game *and* carries that game's token. Two pieces
make that happen for every phase (examples, coverage, fuzzing, stateful):

* ``PlaceholderAuth``, a schemathesis auth provider: it marks the requests that carry a token
  (schemathesis then knows the auth is explicit, so ``ignored_auth`` probes them without a token
  and with a wrong one) with a placeholder bearer.
* ``Tables.before_call``, a global ``before_call`` hook (the last step before a request is sent,
  after the coverage phase's own auth/override steps): a ``game_id`` this run has not created is
  replaced by a prepared table for that operation, and the placeholder becomes the token that the
  operation's security names for that table (``ROLE``). ``Tables.after_call`` records the id,
  owner token and seat tokens that createGame and takeSeat answer, so the stateful phase's
  OpenAPI links (createGame -> game id + owner_token; takeSeat -> seat + token) get the tokens
  of the tables they create.
"""
from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

PLACEHOLDER = "schemathesis-placeholder-token"

# The bearer each operation gets (its `security` in openapi.yaml lists which it accepts):
#   seat  - a seat token of the table (getGame etc. also accept none; a seat sees the most: `you`)
#   owner - the owner's token (startGame; takeSeat: with it the owner may add bots)
#   audit - an operator's audit token (history and verify of any table, running or finished)
#   path-seat - leaveSeat: the token of the seat in the path, else the owner's (who may remove it)
ROLE = {
    "getGame": "seat", "listEvents": "seat", "getStateAt": "seat",
    "act": "seat", "listActions": "seat",
    "takeSeat": "owner", "startGame": "owner",
    "leaveSeat": "path-seat",
    "getHistory": "audit", "verifyGame": "audit",
    # API keys (docs/integrators.md): the operator's admin token; a key in Meow-Key; a private table's owner
    "createKey": "admin", "listKeys": "admin", "getKey": "admin", "rotateKey": "admin", "revokeKey": "admin",
    "getOwnKey": "key", "listKeyGames": "key",
    "rotateInvite": "owner", "rotateSpectatorToken": "owner",
}

# Which prepared table a request on an unknown game_id is pointed at. "fresh-*" tables are made
# for each request, because the operation changes the table for good (seats fill up, a seat is
# gone, the game has started), which would turn every later example into the same 409.
TABLE_FOR = {
    "getGame": "running", "listEvents": "running", "act": "running", "listActions": "running",
    "getStateAt": "finished", "getHistory": "finished", "verifyGame": "finished",
    "takeSeat": "fresh-open", "leaveSeat": "fresh-seated", "startGame": "fresh-seated",
    "rotateInvite": "private", "rotateSpectatorToken": "private",
}

# listEvents' `wait` (0..30 s) is a valid long-poll timeout, and a positive example waits for real
# when no event comes after `after`; capped so the run stays within its time budget.
MAX_WAIT_S = 0.25

# Bots that move at once (and a single round), so a table reaches "finished" in well under a second.
FAST_BOTS = {"match_end_mode": "single_round", "round_intermission_s": 0,
             "bot_delay_ms": {"easy": [0, 0], "medium": [0, 0], "hard": [0, 0]}}


@dataclass
class Table:
    id: str
    owner: str | None
    seats: dict[int, str] = field(default_factory=dict)  # seat -> token (human seats)


class Tables:
    def __init__(self, base: str, audit_token: str, admin_token: str | None = None) -> None:
        self.base = base
        self.audit = audit_token
        self.admin = admin_token
        self.key: str | None = None  # an API key the operator made for the run (prepare)
        self.known: dict[str, Table] = {}
        self.fixed: dict[str, Table] = {}
        self.http = requests.Session()
        self._lock = threading.Lock()

    # -- preparing tables (plain requests, outside schemathesis) ----------------------------------

    def _post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        resp = self.http.post(f"{self.base}{path}", json=body, headers=headers, timeout=10)
        assert resp.status_code in (200, 201), (path, resp.status_code, resp.text[:500])
        return resp.json()

    def create(self, variant: str = "prsi", options: dict[str, Any] | None = None, humans: int = 0,
               bots: int = 0, start: bool = False, private: bool = False) -> Table:
        if private:
            assert self.key is not None
            resp = self.http.post(f"{self.base}/v1/games", json={"variant": variant, "private": True},
                                  headers={"Meow-Key": self.key}, timeout=10)
            assert resp.status_code == 201, resp.text[:500]
            created = resp.json()
        else:
            created = self._post("/v1/games", {"variant": variant, "options": options or {}})
        table = Table(created["id"], created["owner_token"])
        for i in range(humans):
            seat = self._post(f"/v1/games/{table.id}/seats", {"name": f"human {i}"})
            table.seats[seat["seat"]] = seat["token"]
        for _ in range(bots):
            self._post(f"/v1/games/{table.id}/seats", {"bot": {"strength": "easy"}}, table.owner)
        if start:
            self._post(f"/v1/games/{table.id}/start", {}, table.owner)
        with self._lock:
            self.known[table.id] = table
        return table

    def prepare(self) -> None:
        """The shared tables: one running (a human seat and a bot), one finished (two fast bots), and
        with an admin token an API key and one private table of it."""
        if self.admin:
            self.key = self._post("/v1/admin/keys", {"name": "schemathesis"}, self.admin)["secret"]
            self.fixed["private"] = self.create(private=True)
        self.fixed["running"] = self.create(humans=1, bots=1, start=True)
        finished = self.create(options=FAST_BOTS, bots=2, start=True)
        self.fixed["finished"] = finished
        for _ in range(100):
            if self.http.get(f"{self.base}/v1/games/{finished.id}", timeout=10).json()["status"] == "finished":
                break
            threading.Event().wait(0.1)
        else:
            raise AssertionError("the bots-only table did not finish")

    def table_for(self, op_id: str) -> Table:
        kind = TABLE_FOR[op_id]
        if kind == "fresh-open":
            return self.create()
        if kind == "fresh-seated":
            return self.create(humans=2)
        return self.fixed[kind]

    # -- tokens -----------------------------------------------------------------------------------

    def token(self, op_id: str, table: Table | None, path: dict[str, Any]) -> str | None:
        role = ROLE.get(op_id)
        if role == "audit":
            return self.audit
        if role == "admin":
            return self.admin
        if table is None:
            return None
        if role == "path-seat":
            seat = path.get("seat")
            return table.seats.get(seat) if isinstance(seat, int) and seat in table.seats else table.owner
        if role == "seat" and table.seats:
            return next(reversed(table.seats.values()))  # the latest human seat
        return table.owner  # "owner", or a seat role on a table nobody has sat at (403 expected)

    # -- hooks --------------------------------------------------------------------------------------

    def before_call(self, context: Any, case: Any, kwargs: dict[str, Any]) -> None:
        op_id = case.operation.definition.raw.get("operationId")
        path = case.path_parameters or {}
        gid = path.get("game_id")
        table = None
        if isinstance(gid, str) and gid:
            table = self.known.get(gid)
            if table is None and op_id in TABLE_FOR:
                table = self.table_for(op_id)
                case.path_parameters = {**path, "game_id": table.id}
        if op_id == "listEvents" and case.query:
            wait = case.query.get("wait")
            if isinstance(wait, (int, float)) and not isinstance(wait, bool) and wait > MAX_WAIT_S:
                case.query = {**case.query, "wait": MAX_WAIT_S}
        headers = case.headers
        key = (headers or {}).get("Idempotency-Key")
        positive = case.meta is None or case.meta.generation.mode.is_positive
        if isinstance(key, str) and key and positive:
            # A generated key is reused across generated bodies, which the service rightly refuses
            # (422 idempotency_key_reused), and across scenarios, where it would replay an old
            # table whose state has moved on (hypothesis then reports a flaky strategy). A fresh
            # key of the same shape (the spec's pattern) per call: every write is a new write.
            fresh = uuid.uuid4()
            headers["Idempotency-Key"] = str(fresh) if "-" in key else (fresh.hex * 8)[:max(22, min(len(key), 255))]
        if headers and headers.get("Authorization") == f"Bearer {PLACEHOLDER}" and ROLE.get(op_id) == "key":
            del headers["Authorization"]  # an API key travels in its own header
            if self.key:
                headers["Meow-Key"] = self.key
        if headers and headers.get("Authorization") == f"Bearer {PLACEHOLDER}":
            token = self.token(op_id, table, case.path_parameters or {})
            if token:
                headers["Authorization"] = f"Bearer {token}"
            else:
                del headers["Authorization"]

    def after_call(self, context: Any, case: Any, response: Any) -> None:
        if response.status_code != 201:
            return
        op_id = case.operation.definition.raw.get("operationId")
        try:
            body = response.json()
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        with self._lock:
            if op_id == "createGame" and isinstance(body.get("id"), str):
                self.known.setdefault(body["id"], Table(body["id"], body.get("owner_token")))
            elif op_id == "takeSeat":
                table = self.known.get((case.path_parameters or {}).get("game_id"))
                if table is not None and isinstance(body.get("seat"), int) and body.get("token"):
                    table.seats[body["seat"]] = body["token"]


class PlaceholderAuth:
    """Marks every request schemathesis authenticates; ``Tables.before_call`` fills in the token."""

    def get(self, case: Any, ctx: Any) -> str:
        return PLACEHOLDER

    def set(self, case: Any, data: str, ctx: Any) -> None:
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


# Refusals that depend on the table, not on the request's shape: which cards the seat holds, the
# card on the discard, the Sakapuss step; and which options a variant takes with what values
# (listVariants). A static schema cannot say which generated request is legal now, so for these
# operations schemathesis's positive_data_acceptance is replaced by this check, which still fails
# every other refusal of a schema-valid request (notably invalid_request / invalid_json: the
# request validator refusing what the spec admits). Codes: service/api/codes.py (422).
RULE_REFUSALS = {
    "act": frozenset({"card_not_in_hand", "illegal_action", "illegal_card", "invalid_action",
                      "invalid_seen_step", "invalid_suit", "kind_not_in_hand", "must_choose_suit"}),
    "createGame": frozenset({"invalid_option"}),
    # a bot strength the table's game does not offer (the schema's enum is every game's strengths;
    # a table's own are its variant's `bot_strengths` in GET /v1/variants)
    "takeSeat": frozenset({"invalid_option"}),
    "quickPlay": frozenset(),  # its name, as takeSeat's (NAME_RULES)
    # an arena's entrants and seats against its variant's strengths and seat range (invalid_request,
    # service/app/arenas.py), its options against the variant's (invalid_option); its options are
    # free JSON, so a number beyond I-JSON's range is bounded by the body check (IJSON_MESSAGE)
    "createArena": frozenset({"invalid_option", "invalid_request"}),
    # a remote bot's URL the outbound client would not call (a private address, no such host)
    "registerBot": frozenset({"url_refused"}),
}
# invalid_request on these fields alone is accepted too: a table's or seat's name is NFC-normalised
# and may hold no control, bidi-control, unassigned or private-use character (the schemas say so in
# their description); OpenAPI 3.0's regex dialect has no Unicode property classes to say it.
NAME_RULES = {"createGame": frozenset({"name"}), "takeSeat": frozenset({"name"}), "quickPlay": frozenset({"name"}),
              "registerBot": frozenset({"name", "games"})}  # games: variants of GET /v1/variants
# 400 invalid_json for a number beyond ±(2^53 - 1) is accepted too, where the spec could not bound
# it: a value of an option no catalogue declares (free JSON, nested), which the body check still
# bounds (docs/api.md: every number in a JSON body is within I-JSON's range, service/api/json_body.py)
IJSON_MESSAGE = "a number within ±(2^53 - 1)"
# schemathesis's own default for positive_data_acceptance, and 412 (a stale If-Match)
ACCEPTABLE = {401, 403, 404, 409, 412, 429}


def positive_data_acceptance_rules(ctx: Any, response: Any, case: Any) -> bool | None:
    op_id = case.operation.definition.raw.get("operationId")
    allowed = RULE_REFUSALS.get(op_id)
    meta = case.meta
    if allowed is None or meta is None or not meta.generation.mode.is_positive:
        return None
    if case.method.upper() != case.operation.method.upper():  # the coverage phase's unexpected methods
        return None
    status = response.status_code
    if status < 400 or status >= 500 or status in ACCEPTABLE:
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    body = body if isinstance(body, dict) else {}
    code = body.get("code")
    if status == 422 and code in allowed:
        return None
    fields = {e.get("field") for e in body.get("errors") or [] if isinstance(e, dict)}
    if status == 422 and code == "invalid_request" and fields and fields <= NAME_RULES.get(op_id, frozenset()):
        return None
    messages = [m for e in body.get("errors") or [] if isinstance(e, dict) for m in e.get("messages") or []]
    if status == 400 and code == "invalid_json" and messages and set(messages) == {IJSON_MESSAGE}:
        return None
    raise AssertionError(f"Valid data should have been accepted: {status} {code!r} is not a refusal "
                         f"by the game's rules ({', '.join(sorted(allowed))})")
