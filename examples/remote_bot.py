"""A reference remote bot for meow (docs/remote-bots.md), on the standard library only.

    MEOW_BOT_SECRET=whsec_... python examples/remote_bot.py --port 8080

meow POSTs each turn here as JSON, signed: ``Meow-Signature: v1=<hex HMAC-SHA256(secret,
"<Meow-Timestamp>." + body)>``. This bot, in this order:

1. reads the whole request (line, headers and a body of at most ``MAX_BODY`` bytes, its
   ``Content-Length`` checked before a byte of it is read) within ``READ_TIMEOUT_S`` in all, and
   serves ``MAX_CONNECTIONS`` requests at once (more are answered 503 at once): a client that
   dribbles or stalls holds one place for a few seconds, never a thread for good;
2. refuses a request whose signature does not verify or whose timestamp is more than five minutes
   off (401);
3. deduplicates by what the signature covers, the body's ``(game, seat, version)``: a turn asked
   again gets the answer given the first time, and a ``Meow-Delivery`` other than
   ``<game>-<seat>-<version>`` is refused (400), so a captured request replayed under a new
   delivery id gets nothing new;
4. plays a random one of ``view.you.legal_actions``: ``{"action": {...}}``. A health check's turn
   (``"probe": true``, a position of a game no table plays) is answered the same way.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import io
import json
import os
import random
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOLERANCE_S = 300
MAX_BODY = 256 * 1024  # a turn's view is a few KiB
READ_TIMEOUT_S = 10.0  # the whole request, headers and body, arrives within this or the connection is closed
MAX_CONNECTIONS = 32  # requests served at once (meow sends a bot at most MEOW_REMOTE_BOT_CONCURRENCY, 4)
REMEMBERED = 1000  # answers kept for turns asked again
BUSY = b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def verified(secret: str, body: bytes, timestamp: str, signature: str) -> bool:
    """The signature check every bot needs: HMAC-SHA256 over "<timestamp>." + body, compared in constant time."""
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > TOLERANCE_S:
        return False
    expected = b"v1=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest().encode()
    return any(hmac.compare_digest(expected, s.strip().encode(errors="replace")) for s in signature.split(","))


def turn_of(request: dict[str, Any]) -> str:
    """What a turn's signed body says it is, ``<game>-<seat>-<version>``: its only valid ``Meow-Delivery``."""
    return f"{request.get('game')}-{request.get('seat')}-{request.get('version')}"


def random_legal(request: dict[str, Any]) -> dict[str, Any]:
    """Any legal action: replace with your bot's brain (the view is what a human in the seat sees)."""
    return random.choice(request["view"]["you"]["legal_actions"])


class _Until(io.RawIOBase):
    """A socket's reads, all of them over by ``deadline`` (a per-read timeout lets a dribbler stay forever)."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock, self.deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


def make_server(secret: str | Callable[[], str], port: int = 0, choose: Callable[[dict[str, Any]], Any] = random_legal,
                host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """The bot on ``host:port`` (0: any free port); ``secret``, or a function giving the current one
    (a rotated secret takes effect without a restart). The limits are the module's, read now."""
    read_timeout, max_body = READ_TIMEOUT_S, MAX_BODY
    seen: OrderedDict[str, bytes] = OrderedDict()  # <game>-<seat>-<version> -> the answer given
    lock = threading.Lock()

    class Bot(BaseHTTPRequestHandler):
        timeout = read_timeout

        def setup(self) -> None:
            super().setup()
            self.rfile.close()  # every read of the request counts against one deadline
            self.rfile = io.BufferedReader(_Until(self.connection, time.monotonic() + read_timeout))

        def do_POST(self) -> None:
            length = self.headers.get("Content-Length", "")
            if not (length.isascii() and length.isdigit()):
                return self.answer(411, b'{"error": "Content-Length required"}')
            if int(length) > max_body:  # refused before a byte of it is read
                return self.answer(413, b'{"error": "body too large"}')
            try:
                body = self.rfile.read(int(length))
            except (TimeoutError, OSError):
                self.close_connection = True
                return
            if len(body) < int(length):
                return  # the client hung up
            self.connection.settimeout(read_timeout)  # the answer's writes
            key = secret() if callable(secret) else secret
            if not verified(key, body, self.headers.get("Meow-Timestamp", ""), self.headers.get("Meow-Signature", "")):
                return self.answer(401, b'{"error": "bad signature"}')
            try:
                request = json.loads(body)
            except ValueError:
                return self.answer(400, b'{"error": "not JSON"}')
            if not isinstance(request, dict):
                return self.answer(400, b'{"error": "not a turn"}')
            if request.get("type") == "ping":  # an older meow's health check
                return self.answer(200, b'{"ok": true}')
            turn = turn_of(request)
            if self.headers.get("Meow-Delivery", "") != turn:
                return self.answer(400, b'{"error": "Meow-Delivery does not match the signed turn"}')
            with lock:
                done = seen.get(turn)
            if done is None:
                try:
                    done = json.dumps({"action": choose(request)}).encode()
                except Exception:  # noqa: BLE001 - a crashing brain answers 500 (meow plays the seat's default)
                    return self.answer(500, b'{"error": "internal"}')
                with lock:
                    done = seen.setdefault(turn, done)
                    while len(seen) > REMEMBERED:
                        seen.popitem(last=False)
            self.answer(200, done)

        def answer(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # quiet
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 128
        places = threading.BoundedSemaphore(MAX_CONNECTIONS)

        def process_request(self, request: Any, client_address: Any) -> None:
            if not self.places.acquire(blocking=False):  # at the cap: no thread for this one
                try:
                    request.settimeout(1)
                    request.sendall(BUSY)
                except OSError:
                    pass
                self.shutdown_request(request)
                return
            try:
                super().process_request(request, client_address)
            except BaseException:
                self.places.release()
                raise

        def process_request_thread(self, request: Any, client_address: Any) -> None:
            try:
                super().process_request_thread(request, client_address)
            finally:
                self.places.release()

        def handle_error(self, request: Any, client_address: Any) -> None:
            if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):  # meow hung up or dribbled
                super().handle_error(request, client_address)

    return Server((host, port), Bot)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    server = make_server(os.environ["MEOW_BOT_SECRET"], args.port, host=args.host)
    print(f"remote bot on http://{args.host}:{server.server_address[1]}/", flush=True)
    server.serve_forever()
