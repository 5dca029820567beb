"""Where the application's fresh random bytes come from: the seeds it passes into ``decide``, new
game ids and bearer tokens. Production draws from ``secrets`` (``system``); tests and benchmarks
inject a ``Seeded`` source, like the injectable clock, so a deal, an id and a token are the same on
every run of the same seed and a failure can be replayed."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable

Entropy = Callable[[int], bytes]  # n -> n fresh random bytes

system: Entropy = secrets.token_bytes


class Seeded:
    """A deterministic byte source for tests and benchmarks, never for a real service: the
    HMAC-SHA256 blocks of ``seed`` over a counter, handed out in order (thread-safe)."""

    def __init__(self, seed: bytes | str | int) -> None:
        self.seed = seed if isinstance(seed, bytes) else str(seed).encode()
        self._counter = 0
        self._lock = threading.Lock()

    def __call__(self, n: int) -> bytes:
        with self._lock:
            out = b""
            while len(out) < n:
                out += hmac.new(self.seed, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
                self._counter += 1
            return out[:n]
