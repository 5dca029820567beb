"""Player ratings: a thin, frozen wrapper over openskill's Plackett-Luce model (contract R).

One entrant per team (a seat, a bot, an arena entrant); a lower rank is a better finish, equal ranks
are a tie. Everything else in the service (players, leaderboards, arenas) speaks `Rating` and the
functions below, never openskill's own objects, so the library can be swapped or upgraded in one place.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal distribution
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    """A skill estimate: mean `mu` and uncertainty `sigma` (openskill's scale: a new player is 25 ± 8.33)."""

    mu: float
    sigma: float


def new_rating() -> Rating:
    """The rating of a player with no games yet."""
    return Rating(MU, SIGMA)


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one game: `ranks[i]` is entrant i's finish (lower is better, equal is a tie)."""
    if len(ratings) != len(ranks):
        raise ValueError(f"{len(ratings)} ratings but {len(ranks)} ranks")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in rated]


def interval95(r: Rating) -> tuple[float, float]:
    """Where the true skill lies with 95 % confidence: mu ± 1.96 sigma."""
    return (r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma)


def display(r: Rating) -> float:
    """The conservative ordinal shown on leaderboards: mu − 3 sigma (0 for a new player)."""
    return r.mu - 3 * r.sigma


def to_json(r: Rating) -> dict[str, float]:
    """The rating as a JSON object `{"mu": …, "sigma": …}`."""
    return {"mu": r.mu, "sigma": r.sigma}


def from_json(data: Mapping[str, Any]) -> Rating:
    """A rating from `to_json`'s object; raises ValueError on anything else (a finite mu, a positive sigma)."""
    try:
        mu, sigma = float(data["mu"]), float(data["sigma"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a rating: {data!r}") from exc
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
        raise ValueError(f"not a rating: {data!r}")
    return Rating(mu, sigma)
