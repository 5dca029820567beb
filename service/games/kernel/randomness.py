"""Recorded randomness: HMAC-SHA256 counter streams driving an unbiased Fisher-Yates.

Algorithm version ``meow-fy-hmac-sha256-v1`` (documented byte by byte in docs/randomness.md).
Recorded games freeze this algorithm: never change it, add a new version instead.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import TypeVar

ALGORITHM = "meow-fy-hmac-sha256-v1"
SEED_BYTES = 32
_U32 = 1 << 32

T = TypeVar("T")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: lowercase hex SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes, label: str) -> Iterator[int]:
    """Unsigned 32-bit big-endian words of HMAC-SHA256(seed, label || 0x00 || counter_be64)."""
    prefix = label.encode("utf-8") + b"\x00"
    counter = 0
    while True:
        block = hmac.new(seed, prefix + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
    limit = _U32 - (_U32 % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def permutation(seed: bytes, n: int, label: str = "shuffle") -> tuple[int, ...]:
    """Fisher-Yates from the top: for i = n-1 .. 1 swap a[i] with a[j], j uniform in [0, i]."""
    a = list(range(n))
    words = _words(seed, label)
    for i in range(n - 1, 0, -1):
        j = _below(words, i + 1)
        a[i], a[j] = a[j], a[i]
    return tuple(a)


def shuffled(seed: bytes, items: Sequence[T], label: str = "shuffle") -> tuple[T, ...]:
    """``items`` reordered: position k holds items[permutation[k]]."""
    return tuple(items[i] for i in permutation(seed, len(items), label))


def choice_index(seed: bytes, label: str, n: int) -> int:
    """A seeded choice among n options, e.g. label ``first_dealer`` over the seated players."""
    if n <= 0:
        raise ValueError("choice among no options")
    return _below(_words(seed, label), n)
