"""What every game's ``resample`` hook (OpenSpiel's ResampleFromInfostate, kernel/game.py) shares:
re-dealing hidden cards among the places hidden from a viewer, and fresh secret seeds.

A resample is what the redaction oracle (tests/conformance/redaction.py) compares a state with:
for the viewer it was made for, both must project to the same views, legal actions and bot input.
It is consistent with what the viewer sees now (its hand, counts, the public table), not
necessarily with everything it could infer from the past; a looser resample makes that check
stronger, never weaker.
"""
from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, TypeVar

T = TypeVar("T")


def redeal(places: Sequence[Sequence[T]], rng: Random) -> tuple[list[tuple[T, ...]], dict[T, T]]:
    """The cards of ``places`` dealt again at random among them, each place keeping its size; and
    the swap (old card -> the card now where it lay), for a field that points at a hidden card
    (a drawn card). With repeated items (a multiset of cat kinds) the swap is meaningless."""
    pool = [c for place in places for c in place]
    fresh = pool[:]
    rng.shuffle(fresh)
    out, i = [], 0
    for place in places:
        out.append(tuple(fresh[i:i + len(place)]))
        i += len(place)
    return out, dict(zip(pool, fresh))


def secret_seeds(m: Any, rng: Random) -> dict[str, Any]:
    """Fresh match and shuffle seeds, unless SeedsRevealed has shown them: nobody sees them before
    (their commitments are public, and a viewer cannot tell a seed from another behind a hash)."""
    if m.seeds_revealed:
        return {}
    out: dict[str, Any] = {"shuffle_seeds": tuple((q, _hex(rng, h)) for q, h in m.shuffle_seeds)}
    if m.match_seed:
        out["match_seed"] = _hex(rng, m.match_seed)
    return out


def _hex(rng: Random, like: str) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in like) if like else like
