"""``resample`` (kernel/game.py): the undealt cards and the other seats' hands dealt again at random."""
from __future__ import annotations

from random import Random
from types import MappingProxyType

from service.games.kernel.resample import redeal, secret_seeds
from service.games.kernel.state import rep

from .state import ToyMatch


def resample(m: ToyMatch, viewer: int | None, rng: Random) -> ToyMatch:
    rnd = m.rnd
    if rnd is not None:
        others = [s for s in rnd.hands if s != viewer]
        dealt, _ = redeal([rnd.stock, *(rnd.hands[s] for s in others)], rng)
        rnd = rep(rnd, stock=dealt[0], hands=MappingProxyType({**rnd.hands, **dict(zip(others, dealt[1:]))}))
    return rep(m, rnd=rnd, **secret_seeds(m, rng))
