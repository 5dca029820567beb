"""The redaction oracle's API half (tests/conformance/redaction.py has the pure half): random games
of any registered variant, played over the API by humans and easy bots (follow-ups drained
in-process, the clock advanced at random so timers and bot reactions fire), where every answer
to every seat and to a spectator must be exactly the projection of the truth.

The truth is the unredacted history in the store (``read_stored``), folded. Checked after every
move: the view with and without ``include=record``, legal actions, the event feed page by page;
every write answer and its replay under the same Idempotency-Key; refusals (their
``legal_actions`` are the seat's now); requests naming a hidden value (the error may echo what
was sent, nothing else); a long-poll woken by the move; SSE resumed from a random Last-Event-ID;
``state?at=N`` (the fold to N, projected at event N's time); ``history`` (an auditor's of a running
game; a player's of a finished one) and ``verify``. Every state the game passes through is also
checked by the pure half (resamples), and every answer's text searched for the viewer's needles.
"""
from __future__ import annotations

import hashlib
import random
import threading
import uuid
from collections import Counter
from typing import Any

import orjson

from service.api.app import create_app
from service.app import audit, redaction
from service.app.entropy import Seeded
from service.eventstore.chain import GENESIS
from service.eventstore.memory import MemoryEventStore
from service.games import engine, registry
from service.settings import Settings
from tests.api.conftest import Clock, Table, auth
from tests.api.spec_check import SpecCheckingClient
from tests.conformance.redaction import (
    Needles,
    check_indistinguishable,
    expected_event,
    first_difference,
    norm,
)

AUDIT = "audit-secret"
CATALOGUE = {e["name"]: e for e in registry.variants_catalog()}


def make_table(seed: int, spec_check: bool = True) -> Table:
    """The app on the in-memory store with a test clock and an audit token (``AUDIT``); every answer
    checked against openapi.yaml unless ``spec_check`` is off (the bench's deeper runs)."""
    settings = Settings(rate_limits="off", compact_after_s=-1,
                        audit_token_hashes=frozenset({hashlib.sha256(AUDIT.encode()).hexdigest()}))
    app = create_app(settings, store=MemoryEventStore())
    if spec_check:
        app.test_client_class = SpecCheckingClient
    clock = Clock()
    app.extensions["meow.service"].clock = clock
    return Table(app, clock, random_bytes=Seeded(f"secrets/{seed}"))


def close_table(table: Table) -> None:
    hub = table.app.extensions.get("meow.feeds")  # its reader threads end
    if hub is not None:
        hub.stop()


def shorter_match(variant: str, rng: random.Random, p: float) -> dict[str, Any]:
    """With probability ``p`` each, the catalogue's options that shorten a match: one round where
    a match end mode offers it, the fewest rounds or cards dealt (``*_dealt``), the lowest cap on a round's turns or steps (so
    finished games, their history and verify are reached within a test's moves)."""
    out: dict[str, Any] = {}
    for o in CATALOGUE[variant]["options"]:
        if rng.random() >= p:
            continue
        if "single_round" in (o.get("enum") or ()):
            out[o["name"]] = "single_round"
        elif o["type"] == "int" and o.get("range") and (o["name"] == "rounds" or o["name"].endswith(("_per_round", "_dealt"))):
            out[o["name"]] = o["range"][0]
    return out


class Oracle:
    """One game under watch: the truth folded from the store, and every viewer's checks."""

    def __init__(self, table: Table, gid: str, tokens: dict[int, str], rng: random.Random, resamples: int,
                 needles: bool = True) -> None:
        self.table, self.gid, self.rng, self.resamples = table, gid, rng, resamples
        self.tokens: dict[int | None, str | None] = {None: None, **tokens}
        self.stored: list[Any] = []
        self.states: list[Any] = [None]
        self.heads: list[str] = [GENESIS]
        self.cursor = dict.fromkeys(self.tokens, 0)
        self.needles = Needles(self.tokens, needles)
        self.legal: dict[int, list[dict[str, Any]]] = {}
        self.templates: dict[bytes, dict[str, Any]] = {}  # legal actions seen with a string field
        self.figures: Counter = Counter()

    # ------------------------------------------------------------ the truth

    @property
    def state(self) -> Any:
        return self.states[-1]

    def sync(self) -> None:
        """Fold what the store has now; each new state through the pure half."""
        for item in self.table.service.store.read_stored(self.gid, after=len(self.stored)):
            assert item.event.seq == len(self.stored) + 1
            self.stored.append(item)
            self.states.append(engine.evolve(self.states[-1], item.event))
            self.heads.append(item.hash or self.heads[-1])
            self.needles.add_event(item.event)
            if self.resamples:
                self.figures["resamples that moved cards"] += check_indistinguishable(
                    self.states[-1], self.table.clock.now, self.rng, self.resamples)
                self.figures["states resampled"] += 1

    # ------------------------------------------------------------ requests

    def _get(self, seat: int | None, url: str, token: str | None = "", **headers: str) -> Any:
        r = self.table.client.get(url, headers={**auth(self.tokens[seat] if token == "" else token), **headers})
        self.needles.check(seat, r.get_data(as_text=True), f"GET {url}")
        self.figures["answers"] += 1
        return r

    def _view(self, seat: int | None, now: int, state: Any, head: str, record: bool) -> dict[str, Any]:
        out = norm(redaction.project_view(state, redaction.Viewer(seat=seat), now, record))
        out["chain_head"] = head
        return out

    def check_reads(self) -> None:
        """Each viewer's view (both forms), legal actions and the feed since its last check."""
        now, base = self.table.clock.now, f"/v1/games/{self.gid}"
        for seat in self.tokens:
            if seat is not None:
                self.needles.add_own(seat, engine.private_view(self.state, seat, now))
            record = self.rng.random() < 0.5
            r = self._get(seat, base + ("?include=record" if record else ""))
            want = self._view(seat, now, self.state, self.heads[-1], record)
            assert r.status_code == 200 and r.json == want, f"view of {seat}: {first_difference(want, r.json)}"
            if seat is not None:
                r = self._get(seat, f"{base}/actions")
                legal = norm(engine.legal_actions(self.state, seat, now))
                assert r.json == {"version": self.state.version, "seat": seat, "legal_actions": legal}, r.json
                self.legal[seat] = legal
                self.templates.update((orjson.dumps(a), a) for a in legal
                                      if any(isinstance(v, str) for k, v in a.items() if k != "type"))
            self.check_feed(seat)

    def check_feed(self, seat: int | None) -> None:
        """The feed after the viewer's last check, page by page, up to the version."""
        while self.cursor[seat] < self.state.version or self.rng.random() < 0.1:
            r = self._get(seat, f"/v1/games/{self.gid}/events?after={self.cursor[seat]}")
            assert r.status_code == 200 and r.json["version"] == self.state.version
            if not r.json["events"]:
                return
            self.cursor[seat] = self._events(seat, r.json["events"], self.cursor[seat], "feed")

    def _events(self, seat: int | None, events: list[dict[str, Any]], after: int, where: str) -> int:
        for e in events:
            assert e["seq"] == after + 1, f"{where}: event {e['seq']} after {after}"
            want = expected_event(self.stored[e["seq"] - 1].event, seat)
            assert e == want, f"{where} of {seat}: {first_difference(want, e)}"
            after = e["seq"]
        return after

    # ------------------------------------------------------------ writes

    def act(self, seat: int, action: dict[str, Any], replay: bool) -> int:
        """One action with an Idempotency-Key (and its replay): the status."""
        key = uuid.UUID(int=self.rng.getrandbits(128)).hex
        r = self.table.act(self.gid, self.tokens[seat], action, **{"Idempotency-Key": key})
        self.figures["answers"] += 1
        self.sync()
        self.check_write(seat, r, None)
        if replay and r.status_code == 200:
            again = self.table.act(self.gid, self.tokens[seat], action, **{"Idempotency-Key": key})
            self.figures["answers"] += 1
            self.check_write(seat, again, r.json)
        return r.status_code

    def check_write(self, seat: int, r: Any, first: dict[str, Any] | None, sent: frozenset[str] = frozenset()) -> None:
        now, body = self.table.clock.now, r.json
        shown = self.states[body["version"]] if r.status_code == 200 and first is None else self.state
        self.needles.add_own(seat, engine.private_view(shown, seat, now))  # its own part of the view it carries
        self.needles.check(seat, r.get_data(as_text=True), "a write's answer", sent)
        if r.status_code != 200:
            assert r.status_code in (409, 422), (r.status_code, body)
            if "legal_actions" in body:  # a refusal lists what the seat may do now
                assert body["legal_actions"] == norm(engine.legal_actions(self.state, seat, now)), body
                self.figures["refusals with legal actions"] += 1
            return
        self._events(seat, body["events"], body["events"][0]["seq"] - 1 if body["events"] else 0, "a write's events")
        if first is None:
            assert body["version"] == self.state.version
        else:  # a replay: the first answer's events and version, the view as it is now
            assert body.get("replayed") is True and body["events"] == first["events"]
            assert body["version"] == first["version"]
        if "game" in body:
            want = norm(redaction.project_view(shown, redaction.Viewer(seat=seat), now))
            assert body["game"] == want, f"a write's view: {first_difference(want, body['game'])}"

    def probe_errors(self, seat: int) -> None:
        """A request naming a value hidden from the seat (the error may echo it, nothing else), and
        an unknown action (its refusal lists the seat's legal actions)."""
        needles = sorted(self.needles.of(seat))
        if self.templates and needles:
            template = self.rng.choice(list(self.templates.values()))
            field = self.rng.choice(sorted(k for k, v in template.items() if k != "type" and isinstance(v, str)))
            asked = self.rng.choice(needles)
            r = self.table.act(self.gid, self.tokens[seat], {**template, field: asked})
            self.figures["answers"] += 1
            self.sync()
            assert 400 <= r.status_code < 500, f"a hidden value was accepted: {asked!r} ({r.status_code})"
            if r.status_code in (409, 422):
                self.check_write(seat, r, None, frozenset({asked}))
            else:
                self.needles.check(seat, r.get_data(as_text=True), "an error", frozenset({asked}))
        r = self.table.act(self.gid, self.tokens[seat], {"type": "no_such_action"})
        self.figures["answers"] += 1
        self.check_write(seat, r, None)

    # ------------------------------------------------------------ the other paths

    def long_poll(self, seat: int | None, move: Any) -> None:
        """A long-poll waiting when ``move`` is made: what it is woken with is the projection."""
        after, result = self.state.version, {}
        client = self.table.app.test_client()

        def run() -> None:
            r = client.get(f"/v1/games/{self.gid}/events?after={after}&wait=20", headers=auth(self.tokens[seat]))
            result.update(status=r.status_code, body=r.json, text=r.get_data(as_text=True))

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        move()
        thread.join(30)
        assert result.get("status") == 200, result
        self.figures["answers"] += 1
        self.sync()
        self.needles.check(seat, result["text"], "a long-poll")
        self._events(seat, result["body"]["events"], after, "a long-poll")

    def check_sse(self, seat: int | None, after: int) -> None:
        """The feed as server-sent events resumed after ``after`` (Last-Event-ID), up to now."""
        headers = {**auth(self.tokens[seat]), "Accept": "text/event-stream", "Last-Event-ID": str(after)}
        r = self.table.app.test_client().get(f"/v1/games/{self.gid}/events", headers=headers, buffered=False)
        assert r.status_code == 200
        seen, buf, target = after, b"", self.state.version
        try:
            for chunk in r.response:
                buf += chunk
                while b"\n\n" in buf:
                    frame, buf = buf.split(b"\n\n", 1)
                    self.needles.check(seat, frame.decode(), "an SSE frame")
                    if frame.startswith(b"id: "):
                        data = next(line[6:] for line in frame.split(b"\n") if line.startswith(b"data: "))
                        seen = self._events(seat, [orjson.loads(data)], seen, "SSE")
                if seen >= target:
                    break
        finally:
            r.close()
        assert seen == target, f"SSE of {seat} ended at {seen} of {target}"
        self.figures["answers"] += 1

    def check_state_at(self, seat: int | None, at: int, record: bool) -> None:
        url = f"/v1/games/{self.gid}/state?at={at}" + ("&include=record" if record else "")
        r = self._get(seat, url)
        want = self._view(seat, self.stored[at - 1].event.at, self.states[at], self.heads[at], record)
        assert r.status_code == 200 and r.json == want, f"state?at={at} of {seat}: {first_difference(want, r.json)}"

    def check_history(self) -> None:
        """An auditor's history of a running game is a spectator's; players may not read it. Once
        finished, a player's history is the whole record and verify replays it."""
        base = f"/v1/games/{self.gid}"
        seat = self.rng.choice([s for s in self.tokens if s is not None])
        if self.state.status != "finished":
            r = self._get(None, f"{base}/history", token=AUDIT)
            want = [{**expected_event(i.event, None), "hash": i.hash} for i in self.stored]
            assert r.status_code == 200 and r.json["events"] == want, "an auditor's history"
            for path in ("history", "verify"):
                r = self._get(seat, f"{base}/{path}")
                assert r.status_code in (403, 409), (path, r.status_code)
            return
        r = self._get(None, f"{base}/history", token=None)
        assert r.status_code == 401
        r = self.table.client.get(f"{base}/history", headers=auth(self.tokens[seat]))
        records = norm(list(audit.history_records(self.stored)))
        assert r.status_code == 200 and r.json["events"] == records, "a finished game's history"
        r = self.table.client.get(f"{base}/verify", headers=auth(self.tokens[seat]))
        want = norm(audit.verify(list(audit.history_records(self.stored))).as_dict())
        assert r.status_code == 200 and r.json == want and want["ok"], r.json
        self.figures["answers"] += 2

    def check_past(self) -> None:
        """SSE resumed at random, ``state?at`` at a few random N (both forms) and the history."""
        version = self.state.version
        for seat in self.tokens:
            self.check_sse(seat, self.rng.randrange(0, version))
            for at in self.rng.sample(range(1, version + 1), min(2, version)):
                self.check_state_at(seat, at, self.rng.random() < 0.5)
        self.check_history()


def play(variant: str, seed: int, moves: int, resamples: int = 2, spec_check: bool = True,
         short: float = 0.5, needles: bool = True) -> Counter:
    """One random game of ``variant`` through the oracle, up to ``moves`` moves of its humans (a
    match made ``short`` with that probability); its figures (moves, answers, states). No
    ``resamples`` or no ``needles``: only to prove the other checks catch a leak on their own.
    The game's secrets are drawn from ``seed`` too: a seed replays its game exactly."""
    return _play(variant, seed, moves, resamples, spec_check, short, needles)


def _play(variant: str, seed: int, moves: int, resamples: int, spec_check: bool, short: float,
          needles: bool) -> Counter:
    rng = random.Random(seed)
    entry = CATALOGUE[variant]
    table = make_table(seed, spec_check)
    try:
        humans = rng.randint(2, min(3, entry["max_players"]))
        bots = rng.randint(max(0, entry["min_players"] - humans), min(2, entry["max_players"] - humans))
        g = table.create(variant, shorter_match(variant, rng, short))
        gid, owner = g["id"], g["owner_token"]
        tokens = {}
        for i in range(humans):
            taken = table.join(gid, f"h{i}", owner if i == 0 else None)
            tokens[taken["seat"]] = taken["token"]
        for _ in range(bots):
            table.add_bot(gid, owner, "easy")
        oracle = Oracle(table, gid, tokens, rng, resamples, needles)
        table.start(gid, owner)
        polled = False
        for _ in range(moves * 4):
            if oracle.figures["moves"] >= moves:
                break
            table.clock.advance(rng.choice((0, 0, 400, 1500, 3000)) if rng.random() > 0.02 else 50_000)
            table.drain()
            oracle.sync()
            oracle.check_reads()
            if oracle.state.status == "finished":
                break
            movers = [s for s, legal in oracle.legal.items() if legal]
            if not movers:
                continue
            seat = rng.choice(movers)
            if rng.random() < 0.15:
                oracle.probe_errors(seat)
            action = rng.choice(oracle.legal[seat])
            if not polled:
                polled = True
                oracle.long_poll(rng.choice(list(oracle.tokens)), lambda s=seat, a=action: oracle.act(s, a, False))
            else:
                oracle.act(seat, action, rng.random() < 0.3)
            oracle.figures["moves"] += 1
            if rng.random() < 0.05:
                oracle.check_past()
        table.drain()
        oracle.sync()
        oracle.check_reads()
        oracle.check_past()
        oracle.figures["games"] += 1
        oracle.figures["finished"] += oracle.state.status == "finished"
        return oracle.figures
    finally:
        close_table(table)
