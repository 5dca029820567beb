"""The shedding games' ``resample`` hook (kernel/game.py): the stock and every hand the viewer may
not see dealt again at random among themselves (sizes kept; the drawn card follows its card), and
fresh secret seeds. The discard and the round's record are public and stay."""
from __future__ import annotations

from random import Random

from service.games.kernel.resample import redeal, secret_seeds
from service.games.kernel.state import rep
from service.games.shedding.state import Match


def resample(m: Match, viewer: int | None, rng: Random) -> Match:
    """A match the viewer (a seat, or None: a spectator) cannot tell from ``m``."""
    rnd = m.rnd
    if rnd is not None:
        others = [s for s in range(len(rnd.hands)) if s != viewer]
        dealt, swap = redeal([rnd.stock, *(rnd.hands[s] for s in others)], rng)
        hands = list(rnd.hands)
        for s, hand in zip(others, dealt[1:]):
            hands[s] = hand
        drawn = swap.get(rnd.drawn_card, rnd.drawn_card) if rnd.drawn_card is not None else None
        rnd = rep(rnd, stock=dealt[0], hands=tuple(hands), drawn_card=drawn)
    return rep(m, rnd=rnd, **secret_seeds(m, rng))
