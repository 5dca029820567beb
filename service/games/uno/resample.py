"""UNO's ``resample`` hook (kernel/game.py): the stock and every hand the viewer may not see dealt
again at random among themselves (sizes kept), and fresh secret seeds."""
from __future__ import annotations

from random import Random
from types import MappingProxyType

from service.games.kernel.resample import redeal, secret_seeds
from service.games.kernel.state import rep
from service.games.uno.state import UnoMatch


def resample(m: UnoMatch, viewer: int | None, rng: Random) -> UnoMatch:
    """A match the viewer (a seat, or None: a spectator) cannot tell from ``m``."""
    rnd = m.rnd
    if rnd is not None:
        others = [s for s in rnd.hands if s != viewer]
        dealt, _ = redeal([rnd.stock, *(rnd.hands[s] for s in others)], rng)
        hands = {**rnd.hands, **dict(zip(others, dealt[1:]))}
        rnd = rep(rnd, stock=dealt[0], hands=MappingProxyType(hands))
    return rep(m, rnd=rnd, **secret_seeds(m, rng))
