"""A server that answers slowly on purpose (issue 37's total deadline): every connection gets its
answer one byte every ``every_s`` seconds, the headers (``part="headers"``) or the body after whole
headers (``part="body"``). Used by the outbound client's unit tests, the remote-bot e2e test and
bench/fair_lanes.py alike. ``accepted`` counts connections, ``finished`` answers sent whole, ``cut``
the bytes sent to each connection the client closed first."""
from __future__ import annotations

import socket
import threading


class Trickler:
    def __init__(self, part: str = "headers", every_s: float = 1.0, total_bytes: int = 300, path: str = "/meow") -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.part, self.every_s, self.total_bytes, self.path = part, every_s, total_bytes, path
        self.accepted, self.finished = 0, 0
        self.cut: list[int] = []
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}{self.path}"

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        body = b'{"action": {"type": "pass"}}' + b" " * self.total_bytes
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        head += b"X-Pad: " + b"p" * self.total_bytes + b"\r\n\r\n"
        fast, slow = (b"", head + body) if self.part == "headers" else (head, body)
        sent = 0
        with conn:
            conn.settimeout(5)
            try:
                conn.recv(65536)
                conn.sendall(fast)
                for i in range(len(slow)):
                    if self.stop.wait(self.every_s):
                        return
                    conn.sendall(slow[i:i + 1])
                    sent += 1
                self.finished += 1
            except OSError:
                self.cut.append(sent)

    def close(self) -> None:
        self.stop.set()
        self.sock.close()
