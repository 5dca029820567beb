"""The reference remote bot (examples/remote_bot.py) holds against hostile clients (issue 37 item 6):
a stalled or dribbled request is cut by one deadline for the whole request, a body over the cap is
refused before a byte of it is read, requests beyond its cap are answered 503 at once instead of
each holding a thread, and a captured turn replayed under a new ``Meow-Delivery`` gets nothing: a
delivery id is valid only as the signed body's ``<game>-<seat>-<version>``, and that turn asked again
gets the answer it got the first time."""
from __future__ import annotations

import itertools
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import orjson
import pytest

import examples.remote_bot as reference
from service.outbound.signing import sign

SECRET = "whsec_reference"
BOUND_S = 15  # how long an outcome is waited for (a loaded machine): never a timing asserted


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., tuple[int, list[dict[str, Any]]]]]:
    servers = []

    def start(choose: Callable[[dict[str, Any]], Any] = reference.random_legal,
              **limits: float) -> tuple[int, list[dict[str, Any]]]:
        for name, value in limits.items():  # (raising=False: the old example had no such limits)
            monkeypatch.setattr(reference, name, value, raising=False)
        asked: list[dict[str, Any]] = []

        def recording(request: dict[str, Any]) -> Any:
            asked.append(request)
            return choose(request)

        server = reference.make_server(SECRET, 0, recording)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server.server_address[1], asked

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def _turn(game: str = "4c1f0e9a2b7d3e11", seat: int = 0, version: int = 42) -> bytes:
    view = {"status": "running", "you": {"seat": seat, "legal_actions": [{"type": "draw"}, {"type": "play", "card": "7H:0"}]}}
    return orjson.dumps({"type": "turn", "bot": "b1", "game": game, "variant": "prsi", "version": version,
                         "seat": seat, "deadline": None, "view": view})


def _closed_or_answered(sock: socket.socket) -> bytes | None:
    """What the bot sent before closing (b"" for a bare close), or None if it still holds the connection."""
    sock.settimeout(BOUND_S)
    try:
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
        return data
    except TimeoutError:
        return None
    except ConnectionResetError:
        return b""


def test_a_stalled_or_dribbled_request_is_cut_by_one_deadline(bot: Callable[..., Any]) -> None:
    port, asked = bot(READ_TIMEOUT_S=1.0)
    stalled = socket.create_connection(("127.0.0.1", port))
    stalled.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + b"{" * 10)  # 90 bytes never come
    dribbled = socket.create_connection(("127.0.0.1", port))
    stop = threading.Event()

    def dribble() -> None:  # a header byte every 0.1 s: each read is quick, the request never ends
        try:
            dribbled.sendall(b"POST / HTTP/1.1\r\nX-Slow: ")
            while not stop.is_set():
                dribbled.sendall(b"a")
                time.sleep(0.1)
        except OSError:
            pass

    threading.Thread(target=dribble, daemon=True).start()
    try:
        assert _closed_or_answered(stalled) is not None, "a stalled body held its connection"
        assert _closed_or_answered(dribbled) is not None, "a dribbled request held its connection"
    finally:
        stop.set()
        stalled.close()
        dribbled.close()
    assert not asked


def test_an_oversized_body_is_refused_before_it_is_read(bot: Callable[..., Any]) -> None:
    port, asked = bot()
    body = _turn()
    headers = sign(SECRET, body, timestamp=int(time.time()), delivery_id="4c1f0e9a2b7d3e11-0-42")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        sock.sendall(f"POST / HTTP/1.1\r\nHost: x\r\n{head}Content-Length: {1 << 20}\r\n\r\n".encode())
        answer = _closed_or_answered(sock)  # not a byte of the body sent
    assert answer is not None and answer.startswith(b"HTTP/1.0 413"), answer
    assert not asked


def test_requests_beyond_the_cap_are_answered_503_without_a_thread(bot: Callable[..., Any]) -> None:
    before = threading.active_count()
    port, _ = bot(READ_TIMEOUT_S=60.0, MAX_CONNECTIONS=4)
    held = []
    for _ in range(12):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        held.append(s)
    try:
        refused: set[socket.socket] = set()
        deadline = time.monotonic() + BOUND_S
        while len(refused) < 8 and time.monotonic() < deadline:
            ready, _, _ = select.select([s for s in held if s not in refused], [], [], 0.5)
            for s in ready:
                assert s.recv(4096).startswith(b"HTTP/1.0 503")
                refused.add(s)
        assert len(refused) == 8, f"{len(refused)} of 12 stalled requests answered beyond a cap of 4"
        assert threading.active_count() <= before + 1 + 4  # the server's loop and the 4 places
    finally:
        for s in held:
            s.close()
    body = _turn()
    headers = sign(SECRET, body, timestamp=int(time.time()), delivery_id="4c1f0e9a2b7d3e11-0-42")
    deadline = time.monotonic() + BOUND_S
    status = 0
    while status != 200 and time.monotonic() < deadline:  # the places free once the clients hung up
        status = httpx.post(f"http://127.0.0.1:{port}/", content=body, headers=headers).status_code
    assert status == 200


def test_a_turn_replayed_under_a_new_delivery_id_gets_nothing_new(bot: Callable[..., Any]) -> None:
    counter = itertools.count()
    port, asked = bot(lambda request: {"type": "draw", "n": next(counter)})
    url = f"http://127.0.0.1:{port}/"
    body = _turn()
    now = int(time.time())
    first = httpx.post(url, content=body, headers=sign(SECRET, body, timestamp=now, delivery_id="4c1f0e9a2b7d3e11-0-42"))
    assert first.status_code == 200 and first.json() == {"action": {"type": "draw", "n": 0}}
    # a retried delivery (same turn, same id): the same answer, not asked again
    again = httpx.post(url, content=body, headers=sign(SECRET, body, timestamp=now + 1,
                                                       delivery_id="4c1f0e9a2b7d3e11-0-42"))
    assert again.status_code == 200 and again.json() == first.json()
    # the captured request (body and signature as sent) replayed under a new delivery id
    captured = sign(SECRET, body, timestamp=now, delivery_id="4c1f0e9a2b7d3e11-0-42")
    for forged in ("replay-1", "4c1f0e9a2b7d3e11-0-43", ""):
        replayed = httpx.post(url, content=body, headers={**captured, "Meow-Delivery": forged})
        assert replayed.status_code == 400, (forged, replayed.text)
    assert len(asked) == 1
