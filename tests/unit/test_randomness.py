"""The recorded-randomness algorithm is frozen: pinned vectors, uniformity, no library shuffle."""
from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from service.games.kernel.randomness import ALGORITHM, choice_index, commitment, permutation, shuffled

ZERO = bytes(32)


def test_pinned_vectors_never_change() -> None:
    assert ALGORITHM == "meow-fy-hmac-sha256-v1"
    assert permutation(ZERO, 10) == (5, 9, 3, 0, 1, 2, 4, 8, 7, 6)
    assert choice_index(ZERO, "first_dealer", 3) == 0
    assert commitment(ZERO) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


def test_independent_reimplementation_agrees() -> None:
    """A from-the-doc reimplementation (docs/randomness.md) gives the same permutations."""

    def words(seed: bytes, label: str):
        c = 0
        while True:
            block = hmac.new(seed, label.encode() + b"\x00" + c.to_bytes(8, "big"), hashlib.sha256).digest()
            yield from (int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4))
            c += 1

    def perm(seed: bytes, n: int):
        a, w = list(range(n)), words(seed, "shuffle")
        for i in range(n - 1, 0, -1):
            limit = 2**32 - (2**32 % (i + 1))
            x = next(w)
            while x >= limit:
                x = next(w)
            j = x % (i + 1)
            a[i], a[j] = a[j], a[i]
        return tuple(a)

    for k in range(50):
        seed = hashlib.sha256(str(k).encode()).digest()
        assert permutation(seed, 104) == perm(seed, 104)


def test_shuffled_is_a_permutation_of_the_items() -> None:
    items = [f"c{i}" for i in range(32)]
    out = shuffled(hashlib.sha256(b"x").digest(), items)
    assert sorted(out) == sorted(items) and list(out) != items


def test_card_by_position_counts_show_no_bias() -> None:
    """χ² over 100,000 shuffles of 5 items: every (item, position) cell near 20,000."""
    n, trials = 5, 100_000
    counts = Counter()
    for k in range(trials):
        seed = hashlib.sha256(k.to_bytes(4, "big")).digest()
        for pos, item in enumerate(permutation(seed, n)):
            counts[(item, pos)] += 1
    expected = trials / n
    chi2 = sum((counts[(i, p)] - expected) ** 2 / expected for i in range(n) for p in range(n))
    # 16 degrees of freedom (25 cells with row and column sums fixed); p = 0.001 at 39.25
    assert chi2 < 39.25, chi2
