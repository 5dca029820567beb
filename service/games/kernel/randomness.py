"""Recorded randomness: HMAC-SHA256 counter streams driving an unbiased Fisher-Yates.

Algorithm version ``meow-fy-hmac-sha256-v1`` (documented byte by byte in docs/randomness.md).
Recorded games freeze this algorithm: never change it, add a new version instead.
"""
from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

ALGORITHM = "meow-fy-hmac-sha256-v1"
SEED_BYTES = 32
_U32 = 1 << 32

T = TypeVar("T")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: lowercase hex SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(seed).hexdigest()


def _block(seed: bytes, prefix: bytes, counter: int) -> tuple[int, ...]:
    """The eight words of one block: HMAC-SHA256(seed, prefix || counter_be64), big-endian."""
    return _WORDS8.unpack(_hmac_digest(seed, prefix + counter.to_bytes(8, "big"), "sha256"))


_WORDS8 = struct.Struct(">8I")  # a 32-byte block as eight big-endian 32-bit words
_hmac_digest = hmac.digest  # one-shot, in C where OpenSSL has it: the same bytes as hmac.new(...).digest()


def _words(seed: bytes, label: str) -> Iterator[int]:
    """Unsigned 32-bit big-endian words of HMAC-SHA256(seed, label || 0x00 || counter_be64)."""
    prefix = label.encode("utf-8") + b"\x00"
    counter = 0
    while True:
        yield from _block(seed, prefix, counter)
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
    limit = _U32 - (_U32 % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def permutation(seed: bytes, n: int, label: str = "shuffle") -> tuple[int, ...]:
    """Fisher-Yates from the top: for i = n-1 .. 1 swap a[i] with a[j], j uniform in [0, i]
    (``_words`` and ``_below`` inlined, the same words in the same order: this runs on every deal)."""
    a = list(range(n))
    prefix = label.encode("utf-8") + b"\x00"
    buf: tuple[int, ...] = ()
    pos = counter = 0
    for i in range(n - 1, 0, -1):
        k = i + 1
        limit = _U32 - (_U32 % k)
        while True:
            if pos == 8 or not buf:
                buf = _block(seed, prefix, counter)
                counter += 1
                pos = 0
            w = buf[pos]
            pos += 1
            if w < limit:
                break
        j = w % k
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
