"""Contract R: service/app/ratings.py, the rating library's wrapper (openskill's Plackett-Luce)."""
from __future__ import annotations

import json
import math
import random

import pytest

from service.app.ratings import Rating, display, from_json, interval95, new_rating, rate, to_json


def test_a_new_player_is_25_plus_minus_8_and_shows_0() -> None:
    r = new_rating()
    assert (r.mu, round(r.sigma, 3)) == (25.0, 8.333)
    assert display(r) == pytest.approx(0.0)
    lo, hi = interval95(r)
    assert lo < r.mu < hi and hi - lo == pytest.approx(2 * 1.96 * r.sigma, rel=1e-3)


def test_the_winner_rises_the_loser_falls_and_both_grow_surer() -> None:
    a, b = rate([new_rating(), new_rating()], [0, 1])
    assert a.mu > 25 > b.mu
    assert a.sigma < new_rating().sigma and b.sigma < new_rating().sigma
    assert display(a) > display(b)


def test_ranks_order_a_field_of_four_and_a_tie_moves_equals_equally() -> None:
    after = rate([new_rating()] * 4, [2, 0, 3, 1])
    assert sorted(range(4), key=lambda i: -after[i].mu) == [1, 3, 0, 2]
    tie = rate([new_rating(), new_rating()], [0, 0])
    assert tie[0] == tie[1]
    assert tie[0].mu == pytest.approx(25.0)


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = rate([strong, weak], [0, 1])
    upset = rate([strong, weak], [1, 0])
    assert abs(upset[0].mu - strong.mu) > abs(expected[0].mu - strong.mu)


def test_rate_is_pure_and_order_preserving(rng: random.Random) -> None:
    field = [Rating(rng.uniform(10, 40), rng.uniform(1, 8)) for _ in range(5)]
    ranks = [rng.randrange(3) for _ in field]
    once = rate(field, ranks)
    assert once == rate(field, ranks)
    order = list(range(5))
    rng.shuffle(order)
    shuffled = rate([field[i] for i in order], [ranks[i] for i in order])
    for j, i in enumerate(order):
        assert shuffled[j].mu == pytest.approx(once[i].mu)
        assert shuffled[j].sigma == pytest.approx(once[i].sigma)


def test_a_lone_entrant_is_unchanged_and_a_length_mismatch_refused() -> None:
    assert rate([new_rating()], [0]) == [new_rating()]
    with pytest.raises(ValueError):
        rate([new_rating(), new_rating()], [0])


def test_json_round_trip_and_refusals() -> None:
    r = Rating(27.5, 6.25)
    assert from_json(json.loads(json.dumps(to_json(r)))) == r
    for bad in ({}, {"mu": "x", "sigma": 1}, {"mu": 1, "sigma": 0}, {"mu": math.inf, "sigma": 1}, {"mu": 1}):
        with pytest.raises(ValueError):
            from_json(bad)
