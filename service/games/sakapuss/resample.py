"""Sakapuss' ``resample`` hook (kernel/game.py). Hands are multisets of cat kinds, so the needle
search of the redaction oracle cannot see them leak: this hook is how it checks them. Hidden from
a viewer: the other seats' hands (and their hands before the last step), their sealed passes (a
kind of their hand until the step resolves), their pass logs, and the chance deck's order."""
from __future__ import annotations

from collections.abc import Mapping
from random import Random
from types import MappingProxyType

from service.games.kernel.resample import redeal, secret_seeds
from service.games.kernel.state import rep
from service.games.sakapuss.state import SakapussMatch


def _redealt(hands: Mapping[int, tuple[str, ...]], viewer: int | None, rng: Random) -> Mapping[int, tuple[str, ...]]:
    others = [s for s in hands if s != viewer]
    dealt, _ = redeal([hands[s] for s in others], rng)
    return MappingProxyType({**hands, **{s: tuple(sorted(h)) for s, h in zip(others, dealt)}})


def resample(m: SakapussMatch, viewer: int | None, rng: Random) -> SakapussMatch:
    """A match the viewer (a seat, or None: a spectator) cannot tell from ``m``."""
    deck = list(m.chance_deck)
    rng.shuffle(deck)
    rnd = m.rnd
    if rnd is not None:
        hands = _redealt(rnd.hands, viewer, rng)
        passes = {s: k if s == viewer or not hands.get(s) else rng.choice(hands[s]) for s, k in rnd.passes.items()}
        prev = _redealt(rnd.prev_hands, viewer, rng) if rnd.prev_hands is not None else None
        kinds = m.kinds or ("",)
        log = {s: steps if s == viewer else tuple((rng.choice(kinds), rng.choice(kinds)) for _ in steps)
               for s, steps in rnd.log.items()}
        rnd = rep(rnd, hands=hands, passes=MappingProxyType(passes), prev_hands=prev, log=MappingProxyType(log))
    return rep(m, chance_deck=tuple(deck), rnd=rnd, **secret_seeds(m, rng))
