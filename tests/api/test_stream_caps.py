"""Stream caps over HTTP: a closed stream's slot is free when the close returns.

With a cap of one stream per token, a client doing back-to-back long-polls on a busy game, or
reopening a server-sent-event stream the moment the last one ended, is never answered 429: its
own last stream gave its slot back before its answer (or its stream's end) reached it.
"""
from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import Any

from service.api.app import create_app
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings
from tests.api.conftest import Clock, Table, auth


def _capped_table(**settings: Any) -> Table:
    clock = Clock()
    app = create_app(Settings(max_streams_per_token=1, **settings), store=MemoryEventStore())
    app.extensions["meow.service"].clock = clock
    return Table(app, clock)


def _two_humans(table: Table) -> tuple[str, str, str]:
    """A running Prší table of two human seats: (game id, owner's token, the other seat's token)."""
    g = table.create("prsi", {"turn_timeout_s": None})
    owner = g["owner_token"]
    table.join(g["id"], "ann", owner)
    other = table.join(g["id"], "bob")["token"]
    table.start(g["id"], owner)
    return g["id"], owner, other


def _slots(table: Table) -> Any:
    return table.app.extensions["meow.slots"]


def test_a_second_waiting_long_poll_of_a_token_is_refused() -> None:
    """The cap is real: while one long-poll waits, a second one of the same token is refused."""
    table = _capped_table()
    gid, _owner, token = _two_humans(table)
    version = table.view(gid, token)["version"]
    answer: dict[str, Any] = {}
    waiter = threading.Thread(target=lambda: answer.update(r=table.app.test_client().get(
        f"/v1/games/{gid}/events?after={version}&wait=2", headers=auth(token))))
    waiter.start()
    deadline = time.monotonic() + 20
    while "meow.slots" not in table.app.extensions or _slots(table).held() == 0:
        assert time.monotonic() < deadline, "the long-poll never started waiting"
        time.sleep(0.01)
    refused = table.client.get(f"/v1/games/{gid}/events?after={version}&wait=2", headers=auth(token))
    assert (refused.status_code, refused.json["code"]) == (429, "rate_limited")
    waiter.join(30)
    assert answer["r"].status_code == 200


def test_back_to_back_long_polls_of_one_token_on_a_busy_game_are_never_refused() -> None:
    seed = random.randrange(2**32)
    table = _capped_table()
    gid, owner, token = _two_humans(table)
    mover = Table(table.app, table.clock)
    played: list[int] = []
    failed: list[BaseException] = []

    def play() -> None:
        try:
            played.append(mover.play_random(gid, [owner, token], 60, random.Random(seed)))
        except BaseException as exc:  # noqa: BLE001 - reported below
            failed.append(exc)

    thread = threading.Thread(target=play)
    thread.start()
    statuses: Counter[int] = Counter()
    after = 0
    while thread.is_alive() or statuses[200] < 20:
        r = table.client.get(f"/v1/games/{gid}/events?after={after}&wait=0.5", headers=auth(token))
        statuses[r.status_code] += 1
        if r.status_code == 200:
            after = r.json["version"] if statuses[200] % 3 else max(0, after - 1)  # some answer at once
    thread.join(60)
    assert not failed, f"seed {seed}: {failed}"
    assert set(statuses) == {200}, f"seed {seed}: {dict(statuses)}"
    assert played and played[0] > 0 and _slots(table).held() == 0


def test_an_event_stream_reopened_the_moment_it_ends_is_never_refused() -> None:
    """A stream that ends (here at its time limit) frees its slot before its end reaches the
    client: reading it to the end is enough, before the client closes anything."""
    table = _capped_table(sse_max_s=0.0)
    gid, _owner, token = _two_humans(table)
    headers = {**auth(token), "Accept": "text/event-stream", "Last-Event-ID": "0"}
    for i in range(30):
        resp = table.client.get(f"/v1/games/{gid}/events", headers=headers, buffered=False)
        assert resp.status_code == 200, (i, resp.get_data())
        assert b"event: " in b"".join(resp.response)  # to the end of the stream; not closed yet
    assert _slots(table).held() == 0
