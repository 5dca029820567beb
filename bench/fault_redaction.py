"""Fault scenario: the redaction oracle over many random games, and a planted leak it must catch.

The oracle is tests/api/test_redaction.py's (every view, feed page, write answer and refused
request of every seat and of a spectator, checked against the cards that viewer may not see at
that moment), run on the in-memory store over random Prší tables (2-3 humans, 0-3 easy bots, one
move in five preceded by a request for another seat's card), each played for up to ``steps``
moves. Added here: after each table, ``state?at=N`` for every seat and a spectator at a few random
N, checked against what that viewer could not see at event N (the game folded to N), and each
seat's SSE stream from the start up to the table's version, checked like the feed. Then the same
oracle over one table with a leak planted in the table view (the top card of the stock shown): it
must fail.
"""
from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from service.api.app import create_app
from service.app.context import fold
from service.eventstore.chain import GENESIS
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api import test_redaction as oracle
from tests.api.conftest import Clock, Table, auth


def _table() -> Table:
    clock = Clock()
    app = create_app(Settings(rate_limits="off", compact_after_s=-1), store=MemoryEventStore())
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _past_paths(table: Table, gid: str, tokens: dict[int, str], rng: random.Random) -> None:
    """state?at=N per seat against the state at N; a finished table's SSE per seat against the feed rules."""
    svc = table.service
    state = svc.load(gid)
    for at in rng.sample(range(1, state.version + 1), min(4, state.version)):
        past, _ = fold(None, GENESIS, svc.store.read_stored(gid, count=at))
        for seat, token in [(None, None), *tokens.items()]:
            body = table.client.get(f"/v1/games/{gid}/state?at={at}", headers=auth(token)).json
            leaked = set(oracle.CARD.findall(json.dumps(body))) & oracle._hidden_from(past, seat)
            assert not leaked, ("state?at", at, seat, leaked)
    viewers = oracle.Viewers(table, gid, tokens)
    for seat, token in tokens.items():  # each seat's SSE stream from the start, up to the version now
        r = table.client.get(f"/v1/games/{gid}/events", buffered=False,
                             headers={**auth(token), "Accept": "text/event-stream", "Last-Event-ID": "0"})
        seen, buf = 0, b""
        for chunk in r.response:
            buf += chunk
            while b"\n\n" in buf:
                frame, buf = buf.split(b"\n\n", 1)
                if frame.startswith(b"id: "):
                    data = next(line[6:] for line in frame.split(b"\n") if line.startswith(b"data: "))
                    event = json.loads(data)
                    viewers._check_event(event, seat)
                    seen = event["seq"]
            if seen >= state.version:
                break
        r.close()
        assert seen == state.version, ("SSE ended early", seat, seen, state.version)


def one_game(seed: int, steps: int) -> tuple[int, bool]:
    """One random table through the oracle and the past paths; the moves checked, and whether it finished."""
    rng = random.Random(seed)
    table = _table()
    humans = rng.randint(2, 3)
    try:
        moves, gid, tokens = oracle._play_one(table, rng, humans, rng.randint(0, 5 - humans), max_steps=steps)
        _past_paths(table, gid, tokens, rng)
        return moves, table.service.load(gid).status == "finished"
    finally:
        hub = table.app.extensions.get("meow.feeds")  # its reader threads end (one app per game)
        if hub is not None:
            hub.stop()


def redaction(games: int, steps: int, out: Any) -> Any:
    """``out`` is a bench.faults.Outcome: one trial per game, then one planted leak."""
    t0 = time.perf_counter()
    for seed in range(games):
        out.trials += 1
        try:
            moves, finished = one_game(seed, steps)
        except AssertionError as exc:
            out.fail(f"game {seed}: a leak: {str(exc)[:300]}")
            continue
        out.ok += 1
        out.statuses["moves checked"] += moves
        if out.trials % 100 == 0:
            print(f"redaction oracle: {out.trials} games, {out.ok} clean", file=sys.stderr, flush=True)
        out.statuses["finished"] += int(finished)
    out.statuses["planted leak caught" if planted_leak_caught(steps) else "PLANTED LEAK MISSED"] += 1
    if "PLANTED LEAK MISSED" in out.statuses:
        out.fail("the planted leak was not caught")
    out.seconds = time.perf_counter() - t0
    return out


def planted_leak_caught(steps: int) -> bool:
    from service.games.shedding import views

    real = views._table

    def leaky(m: Any) -> Any:
        got = real(m)
        if got is not None and m.rnd.stock:
            got = {**got, "top_card": m.rnd.stock[0]}  # the planted leak: a hidden card on the table
        return got

    views._table = leaky
    try:
        one_game(1, steps)
    except AssertionError:
        return True
    finally:
        views._table = real
    return False
