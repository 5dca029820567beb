"""A reference remote bot for meow (docs/remote-bots.md), on the standard library only.

    MEOW_BOT_SECRET=whsec_... python examples/remote_bot.py --port 8080

meow POSTs each turn here as JSON, signed: ``Meow-Signature: v1=<hex HMAC-SHA256(secret,
"<Meow-Timestamp>." + body)>``. This bot refuses a request whose signature does not verify or whose
timestamp is more than five minutes off (401), answers a repeated ``Meow-Delivery`` as it did the
first time, and plays a random one of ``view.you.legal_actions``: ``{"action": {...}}``.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import random
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOLERANCE_S = 300


def verified(secret: str, body: bytes, timestamp: str, signature: str) -> bool:
    """The signature check every bot needs: HMAC-SHA256 over "<timestamp>." + body, compared in constant time."""
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > TOLERANCE_S:
        return False
    expected = b"v1=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest().encode()
    return any(hmac.compare_digest(expected, s.strip().encode(errors="replace")) for s in signature.split(","))


def random_legal(request: dict[str, Any]) -> dict[str, Any]:
    """Any legal action: replace with your bot's brain (the view is what a human in the seat sees)."""
    return random.choice(request["view"]["you"]["legal_actions"])


def make_server(secret: str | Callable[[], str], port: int = 0, choose: Callable[[dict[str, Any]], Any] = random_legal,
                host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """The bot on ``host:port`` (0: any free port); ``secret``, or a function giving the current one
    (a rotated secret takes effect without a restart)."""
    seen: OrderedDict[str, bytes] = OrderedDict()  # Meow-Delivery -> the answer given (a retry gets it again)

    class Bot(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(min(int(self.headers.get("Content-Length") or 0), 1 << 20))
            key = secret() if callable(secret) else secret
            if not verified(key, body, self.headers.get("Meow-Timestamp", ""), self.headers.get("Meow-Signature", "")):
                return self.answer(401, b'{"error": "bad signature"}')
            request = json.loads(body)
            if request.get("type") == "ping":
                return self.answer(200, b'{"ok": true}')
            delivery = self.headers.get("Meow-Delivery", "")
            if delivery not in seen:
                try:
                    seen[delivery] = json.dumps({"action": choose(request)}).encode()
                except Exception:  # noqa: BLE001 - a crashing brain answers 500 (meow plays the seat's default)
                    return self.answer(500, b'{"error": "internal"}')
                while len(seen) > 1000:
                    seen.popitem(last=False)
            self.answer(200, seen[delivery])

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

        def handle_error(self, request: Any, client_address: Any) -> None:
            if not isinstance(sys.exc_info()[1], ConnectionError):  # meow hung up: it gave up waiting
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
