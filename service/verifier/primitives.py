"""Independent reimplementation of docs/audit.md and docs/randomness.md (no server modules)."""
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


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def deck(options: dict) -> list[str]:
    """The unshuffled deck of docs/randomness.md: copy, then suit C D H S, then the listed ranks
    (a game without deck options, Crazy Eights, shuffles one full deck of 52)."""
    copies = int(options.get("deck_copies", 1))
    ranks = options.get("deck_ranks", RANKS)
    return [f"{r}{s}:{c}" for c in range(copies) for s in "CDHS" for r in ranks]


def chance_deck(options: dict) -> list[str]:
    """Sakapuss chance deck in its documented order: parasites, insecticides, shower(s)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    cards: list[str] = []
    for kind in options["parasite_kinds"]:
        copies: dict[int, int] = {}
        for n in options["parasite_cards"][kind]:
            cards.append(f"par:{kind}:{n}:{letters[copies.get(n, 0)]}")
            copies[n] = copies.get(n, 0) + 1
    for kind in options["parasite_kinds"]:
        cards += [f"ins:{kind}:{letters[i]}" for i in range(options["insecticides_per_kind"])]
    showers = options["shower_cards"]
    cards += ["shower"] if showers == 1 else [f"shower:{letters[i]}" for i in range(showers)]
    return cards
