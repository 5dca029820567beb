"""Independent reimplementation of docs/audit.md and docs/randomness.md (no server modules): the
hash chain, the seed commitments, the documented shuffle, and the card ids games share. The
driver (check.py) and every game's verifier module (service/games/<game>/verifier.py) build on
these; this module imports the standard library only."""
from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

ZERO = "0" * 64
NOT_HASHED = ("hash", "prev_hash", "at")


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def chain_hash(prev_hex: str, record: dict) -> str:
    hashed = {k: v for k, v in record.items() if k not in NOT_HASHED}
    return hashlib.sha256(bytes.fromhex(prev_hex) + canonical(hashed)).hexdigest()


def sha256_hex(hex_seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(hex_seed)).hexdigest()


def fisher_yates(seed_hex: str, n: int, label: str = "shuffle") -> list[int]:
    """HMAC-SHA256 counter words, rejection sampling, Fisher-Yates from the top."""
    key = bytes.fromhex(seed_hex)
    buf: list[int] = []
    counter = 0

    def word() -> int:
        nonlocal counter
        if not buf:
            block = hmac.new(key, label.encode() + b"\x00" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
            buf.extend(int.from_bytes(block[i:i + 4], "big") for i in range(28, -1, -4))
            counter += 1
        return buf.pop()

    a = list(range(n))
    for i in range(n - 1, 0, -1):
        limit = 2**32 - (2**32 % (i + 1))
        w = word()
        while w >= limit:
            w = word()
        j = w % (i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def unshuffle(seed_hex: str, order: list) -> list:
    """The items before the shuffle: position k of ``order`` came from items[p[k]]."""
    p = fisher_yates(seed_hex, len(order))
    items: list = [None] * len(order)
    for k, src in enumerate(p):
        items[src] = order[k]
    return items


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")


def french_deck(copies: int = 1, ranks: list[str] | tuple[str, ...] = RANKS) -> list[str]:
    """A French-suited deck in the documented order of docs/randomness.md (``deck``): for each copy,
    for each suit C D H S, each listed rank, as ``<rank><suit>:<copy>``."""
    return [f"{r}{s}:{c}" for c in range(copies) for s in SUITS for r in ranks]


class DiscardPile:
    """A discard pile followed from the public record, bottom to top: a ``discard`` reshuffle takes
    every card but the top one (docs/randomness.md)."""

    def __init__(self) -> None:
        self.cards: list[str] = []

    def put(self, card: str) -> None:
        self.cards.append(card)

    def take(self, card: str) -> None:
        if card in self.cards:
            self.cards.remove(card)

    def under_top(self) -> list[str]:
        """What a reshuffle of the pile into the stock shuffles."""
        return self.cards[:-1]

    def reshuffled(self) -> None:
        """Only the top card stays once the rest became the stock."""
        self.cards = self.cards[-1:]
