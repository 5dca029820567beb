"""workers/key_share.py: a lane's slots shared round robin across keys (issue 37)."""
from __future__ import annotations

import threading

from workers.key_share import KeyShare


def test_alone_a_key_uses_every_slot() -> None:
    share: KeyShare[int] = KeyShare(4)
    for i in range(6):
        share.put("a", i)
    got = [share.take(0) for _ in range(5)]
    assert [g.item for g in got[:4] if g] == [0, 1, 2, 3]
    assert got[4] is None  # every slot held
    share.done("a")
    nxt = share.take(0)
    assert nxt is not None and nxt.item == 4


def test_while_another_key_waits_one_key_holds_at_most_n_minus_1() -> None:
    share: KeyShare[str] = KeyShare(4)
    for i in range(10):
        share.put("slow", f"s{i}")
    share.put("other", "o0")
    taken = [share.take(0) for _ in range(4)]
    keys = [t.key for t in taken if t]
    assert keys.count("slow") == 3 and keys.count("other") == 1, keys


def test_a_key_arriving_after_all_slots_are_held_gets_the_next_free_one() -> None:
    share: KeyShare[str] = KeyShare(2)
    for i in range(5):
        share.put("a", f"a{i}")
    assert share.take(0) and share.take(0)
    share.put("b", "b0")
    share.done("a")
    nxt = share.take(0)
    assert nxt is not None and nxt.key == "b"
    assert share.take(0) is None  # a holds one slot, b the other: both held


def test_round_robin_across_keys() -> None:
    share: KeyShare[str] = KeyShare(1)
    for k in ("a", "b", "c"):
        for i in range(2):
            share.put(k, f"{k}{i}")
    order = []
    for _ in range(6):
        t = share.take(0)
        assert t is not None
        order.append(t.item)
        share.done(t.key)
    assert order == ["a0", "b0", "c0", "a1", "b1", "c1"]


def test_take_blocks_until_a_put() -> None:
    share: KeyShare[int] = KeyShare(1)
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(share.take(30)))
    t.start()
    share.put("k", 7)
    t.join(30)
    assert out and out[0] is not None and out[0].item == 7  # type: ignore[attr-defined]
