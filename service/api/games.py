"""The /v1 routes: thin — schema -> application -> schema."""
from __future__ import annotations

import time
from typing import Any

import orjson
from flask import Response, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.client import guard_stream_socket, watch_peer
from service.api.errors import PROBLEM
from service.api.http import (
    authenticate,
    feeds,
    game_id_or_404,
    idempotency,
    json_answer,
    json_response,
    origin,
    peer_prefix,
    precondition,
    prefers_minimal,
    service,
    settings,
    stream_slots,
)
from service.api.keys import current_key, stream_slot
from service.api.operations import EXAMPLES, operation, problem_headers
from service.api.refusals import RESPONSES
from service.app.auth import SPECTATOR, Caller
from service.games.kernel.events import END_OF_MATCH
from service.games.registry import variants_catalog

blp = Blueprint("games", __name__, url_prefix="/v1", description="Tables, seats, actions and events")
ERRORS = (400, 401, 403, 404, 409, 412, 413, 422, 429)
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
SERVER_REFUSALS = {r.example.status for r in RESPONSES}


def _errors(*codes: int):
    # every operation is rate limited (service/api/limits.py); 500 is internal_error or game_corrupted
    codes = tuple(sorted(set(codes) | {429, 500}))
    codes = tuple(c for c in codes if c not in SERVER_REFUSALS)  # 400, 414, 431: on every operation (operation())

    def wrap(fn):
        for code in codes:
            fn = blp.alt_response(code, schema=s.Problem, description="problem+json", content_type=PROBLEM,
                                  headers=problem_headers(code))(fn)
        return fn
    return wrap


@blp.route("/variants")
class VariantsView(MethodView):
    @blp.response(200, s.Variants)
    @_errors()
    @operation(blp, "listVariants")
    def get(self):
        """The variants (presets), each with its option schema, defaults and player range."""
        return json_response({"variants": variants_catalog()})


@blp.route("/games")
class GamesView(MethodView):
    @blp.arguments(s.CreateGame, examples=EXAMPLES["createGame"])
    @blp.response(201, s.Created)
    @_errors(400, 413, 422)
    @operation(blp, "createGame")
    def post(self, body: dict[str, Any]):
        """Create a table. Returns the owner token exactly once."""
        svc = service()
        out = svc.create(body["variant"], body["options"], body["max_players"], body["name"], idempotency(anonymous=True),
                         origin(), current_key(), body["private"])
        render = svc.render(out, Caller("owner"), prefers_minimal())
        render.setdefault("owner_token", None)
        return _written(render, out.status, Location=f"/v1/games/{out.game_id}")

    @blp.arguments(s.LobbyQuery, location="query")
    @blp.response(200, s.LobbyPage)
    @_errors(422)
    @operation(blp, "listGames")
    def get(self, query: dict[str, Any]):
        """The lobby, newest first, filtered by status and variant, paginated by cursor."""
        cursor = None
        if query.get("cursor"):
            at, _, gid = query["cursor"].partition(":")
            cursor = (int(at), gid)
        page, nxt = service().lobby(query.get("status"), query.get("variant"), cursor, query["limit"])
        return json_response({"games": page, "next_cursor": nxt})


@blp.route("/games/<game_id>")
class GameView(MethodView):
    @blp.arguments(s.ViewQuery, location="query")
    @blp.response(200, s.GameView)
    @_errors(401, 404, 422)
    @operation(blp, "getGame")
    def get(self, query: dict[str, Any], game_id: str):
        """The view: public for all; with a seat token also `you` (hand, legal actions).
        `include=record` adds the round's public record (`record`: discard pile, cards played,
        every move with the table it was made on)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid)
        state, view = svc.view(gid, caller, query.get("include") == "record")
        return json_response(view, 200, state.version)


@blp.route("/games/<game_id>/seats")
class SeatsView(MethodView):
    @blp.arguments(s.TakeSeat, examples=EXAMPLES["takeSeat"])
    @blp.response(201, s.SeatTaken)
    @_errors(400, 401, 403, 404, 409, 413, 422)
    @operation(blp, "takeSeat")
    def post(self, body: dict[str, Any], game_id: str):
        """Take a seat (a human, anyone) or add a bot (owner only)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, invite=body.get("invite"))
        # a strong key always (the spec states one pattern): without a token it guards the token returned
        out = svc.join(gid, caller, body.get("name"), body.get("bot"), idempotency(anonymous=True), body.get("invite"))
        render = svc.render(out, caller, prefers_minimal())
        render.setdefault("token", None)
        return _written(render, out.status)


@blp.route("/games/<game_id>/seats/<int:seat>")
class SeatView(MethodView):
    @blp.response(200, s.WriteResult)
    @_errors(401, 403, 404, 409, 412)
    @operation(blp, "leaveSeat")
    def delete(self, game_id: str, seat: int):
        """Leave (that seat) or remove a seat (owner): struck from the standings, token revoked."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        out = svc.leave(gid, caller, seat, idempotency(), precondition(None))
        viewer = caller if caller.seat != seat else SPECTATOR
        return _written(svc.render(out, viewer, prefers_minimal()), out.status)


@blp.route("/games/<game_id>/start")
class StartView(MethodView):
    @blp.response(200, s.WriteResult)
    @_errors(401, 403, 404, 409, 412)
    @operation(blp, "startGame")
    def post(self, game_id: str):
        """Deal the first round (owner only). A table whose every seat is a bot counts against
        its creator's caps of running bots-only tables (per network and per address): beyond
        them, 429 `bots_only_limit` (docs/reliability.md)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        out = svc.start(gid, caller, idempotency(), precondition(None))
        return _written(svc.render(out, caller, prefers_minimal()), out.status)


@blp.route("/games/<game_id>/actions")
class ActionsView(MethodView):
    @blp.arguments(s.Action, examples=EXAMPLES["act"])
    @blp.response(200, s.WriteResult)
    @_errors(400, 401, 403, 404, 409, 412, 413, 422)
    @operation(blp, "act")
    def post(self, body: dict[str, Any], game_id: str):
        """One action of the caller's seat. If-Match or expected_version guard against lost updates."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        pre = precondition(body.pop("expected_version", None))
        out = svc.act(gid, caller, body, pre, idempotency())
        return _written(svc.render(out, caller, prefers_minimal()), out.status)

    @blp.response(200, s.LegalActions)
    @_errors(401, 403, 404)
    @operation(blp, "listActions")
    def get(self, game_id: str):
        """The caller's legal actions now."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        state, actions = svc.legal_actions(gid, caller)
        return json_response({"version": state.version, "seat": caller.seat, "legal_actions": actions}, 200, state.version)


@blp.route("/games/<game_id>/events")
class EventsView(MethodView):
    @blp.arguments(s.EventsQuery, location="query")
    @blp.response(200, s.EventsPage)
    @blp.doc(responses={"200": {"description": "OK", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/EventsPage"}},
        SSE: {"schema": {"type": "string", "description": "server-sent events"}}}}})
    @_errors(401, 404, 422, 429)
    @operation(blp, "listEvents")
    def get(self, query: dict[str, Any], game_id: str):
        """Events after version `after` as the caller may see them; `wait` long-polls up to 30 s.
        `Accept: text/event-stream` streams them as server-sent events (id = seq), resuming after
        `Last-Event-ID`; the stream ends when the game is finished or after 5 minutes. When the
        caller's seat leaves or is removed, the stream sends that `SeatLeft`, then `event: revoked`,
        and closes (a long-poll's batch stops at it); an owner whose seat goes continues seatless.
        Open streams and waiting long-polls are capped per token and per client network (429): IPv4 /24, IPv6 /64 by default.
        A long answer (more than 500 events by default) is streamed, the same bytes without a
        Content-Length; like history, verify and state it also spends the caller's cost budget
        (one unit per 100 events; 429 `rate_limited` when spent)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid)
        if request.accept_mimetypes.best_match(["application/json", SSE]) == SSE:
            return _open_sse(svc, gid, caller, _last_event_id(query["after"]))
        if query["wait"] <= 0:
            state, events = svc.events(gid, caller, query["after"], 0)
        else:
            slots = stream_slots()
            lease = slots.acquire(caller.token_hash, peer_prefix(), stream_slot())
            try:
                state, events = svc.events(gid, caller, query["after"], query["wait"], waiter=feeds().wait)
            finally:
                slots.release(lease)
        # a long answer is streamed (http.json_answer): read, redacted and written a page at a time
        count = state.version - min(query["after"], state.version)
        return json_answer({"version": state.version}, "events", events, count, state.version)


def _last_event_id(default: int) -> int:
    raw = request.headers.get("Last-Event-ID", "").strip()
    return min(int(raw), 2**53) if raw.isascii() and raw.isdigit() and len(raw) < 20 else default


def _open_sse(svc, gid: str, caller, after: int) -> Response:
    state = svc.load(gid)  # 404 before the stream starts
    slots = stream_slots()
    lease = slots.acquire(caller.token_hash, peer_prefix(), stream_slot())
    try:
        sub = feeds().subscribe(gid, caller, min(after, state.version))
    except BaseException:
        slots.release(lease)
        raise
    guard_stream_socket(request.environ)
    finish = watch_peer(request.environ, sub.hang_up)
    done = state.status == "finished" and after >= state.version
    cfg = settings()
    frames = _released_at_end(_sse(sub, done, cfg.sse_heartbeat_s, cfg.sse_max_s), sub, lambda: slots.release(lease))
    resp = Response(frames, mimetype=SSE)
    resp.call_on_close(sub.close)
    resp.call_on_close(lambda: slots.release(lease))  # a stream closed before its first frame
    if finish is not None:
        resp.call_on_close(finish)
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _released_at_end(frames, sub, release):
    """``frames``, then the stream's slot given back as soon as the last one is out: before the
    server ends the response (which it does only after this generator returns), so a client that
    reconnects on the end of the stream finds its slot free. A hung-up client's close runs it too."""
    try:
        yield from frames
    finally:
        sub.close()
        release()


def _frames(items) -> tuple[list[bytes], bool]:
    """SSE frames for the items; True once the stream is over (revoked, cut off, match over)."""
    out: list[bytes] = []
    for item in items:
        if item.kind == "event":
            out.append(b"id: %d\nevent: %s\ndata: %s\n\n" % (item.seq, item.type.encode(), item.data))
            if item.type == END_OF_MATCH:  # the last event of every match
                return out, True
        elif item.kind == "revoked":
            out.append(b"event: revoked\ndata: %s\n\n" % orjson.dumps(
                {"seq": item.seq, "code": "revoked", "detail": "this token's seat left the game"}))
            return out, True
        else:  # fell too far behind: reconnect with Last-Event-ID
            return out, True
    return out, False


def _sse(sub, done: bool, heartbeat_s: float, max_s: float):
    """One frame per event through this process's feed hub; a comment line as heartbeat."""
    yield b"retry: 1000\n\n"
    if done:
        return
    deadline = time.monotonic() + max_s
    while True:  # the backlog after Last-Event-ID, chunk by chunk
        items, more = sub.backlog()
        frames, over = _frames(items)
        if frames:
            yield b"".join(frames)
        if over:
            return
        if not more:
            break
    while time.monotonic() < deadline:
        frames, over = _frames(sub.poll(min(heartbeat_s, max(0.0, deadline - time.monotonic()))))
        if sub.ended and not frames and not over:
            return  # the client hung up
        yield b"".join(frames) if frames else b": keep-alive\n\n"
        if over:
            return


@blp.route("/games/<game_id>/history")
class HistoryView(MethodView):
    @blp.response(200, s.History)
    @blp.doc(responses={"200": {"description": "OK", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/History"}},
        NDJSON: {"schema": {"type": "string", "description": "one event per line"}}}}})
    @_errors(401, 403, 404)
    @operation(blp, "getHistory")
    def get(self, game_id: str):
        """The complete log with each event's hash-chain link: unredacted once finished
        (players, owner, audit tokens: seeds, permutations, hands, commands); while running,
        audit tokens only, with exactly a spectator's redaction. `Accept: application/x-ndjson`
        streams one event per line; a long JSON answer (more than 500 events by default) is
        streamed too, the same bytes without a Content-Length. Spends the caller's cost budget
        (one unit per 100 events; 429 `rate_limited` when spent)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        state, events = svc.history(gid, caller)
        if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
            lines = (orjson.dumps(e, option=orjson.OPT_NON_STR_KEYS) + b"\n" for e in events)
            resp = Response(stream_with_context(lines), mimetype=NDJSON)
            resp.headers["ETag"] = f'"{state.version}"'
            return resp
        head = {"version": state.version, "status": state.status}
        return json_answer(head, "events", events, state.version, state.version)


@blp.route("/games/<game_id>/verify")
class VerifyView(MethodView):
    @blp.response(200, s.VerifyReport)
    @_errors(401, 403, 404, 409)
    @operation(blp, "verifyGame")
    def get(self, game_id: str):
        """The server's own replay report of a finished game: chain intact, every commitment and
        permutation matching, every recorded command legal and reproducing its events, final scores.
        Computed once and kept: the first verification spends the caller's cost budget (one unit
        per 20 events replayed; 429 `rate_limited` when spent), later ones read the kept report."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid, required=True)
        report = svc.verify(gid, caller)
        return json_response(report, 200, report["events"])


@blp.route("/games/<game_id>/state")
class StateAtView(MethodView):
    @blp.arguments(s.StateQuery, location="query")
    @blp.response(200, s.GameView)
    @_errors(401, 404, 422)
    @operation(blp, "getStateAt")
    def get(self, query: dict[str, Any], game_id: str):
        """The view as it was right after event `at` (time travel), with the live view's redaction;
        `include=record` adds the round's public record as it stood then. Spends the caller's cost
        budget by the events folded from the nearest snapshot (one unit per 100)."""
        gid = game_id_or_404(game_id)
        svc = service()
        caller = authenticate(gid)
        view = svc.state_at(gid, caller, query["at"], query.get("include") == "record")
        return json_response(view, 200, view["version"])


def _written(body: dict, status: int, **headers: str):
    """A write's answer; its ETag is the version in the body (a replay's is the first answer's).
    Without the view (``Prefer: return=minimal``) it says so in ``Preference-Applied``."""
    if "game" not in body:
        headers["Preference_Applied"] = "return=minimal"
    resp = json_response(body, status, body["version"], **headers)
    resp.vary.add("Prefer")
    return resp
