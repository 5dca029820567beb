"""An arena's result from its games' standings (docs/arenas.md "Results"): per entrant its games,
wins and points with 95 % intervals, head-to-head counts, and ratings (contract R: openskill's
Plackett-Luce through service/app/ratings.py); and the per-variant leaderboard they feed.

An entrant that holds several seats of one game (fewer entrants than seats) finishes where its best
seat finished; a game's winners are the entrants with a seat ranked first, sharing the win."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from service.app import ratings

Z95 = ratings.Z95


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional wins allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return max(0.0, c - h), min(1.0, c + h)


def mean_interval(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal 95 % interval (the mean twice when fewer than two values)."""
    if not xs:
        return 0.0, 0.0, 0.0
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, m, m
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    h = z * sd / math.sqrt(len(xs))
    return m, m - h, m + h


def finishes(result: Mapping[str, Any]) -> dict[int, int]:
    """Entrant -> its best rank in one game."""
    out: dict[int, int] = {}
    for row in result["seats"]:
        e, rank = int(row["entrant"]), int(row["rank"])
        out[e] = min(rank, out.get(e, rank))
    return out


def _r(x: float) -> float:
    return round(x, 4)


def summarize(names: Sequence[str], results: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """The result table of an arena's finished games (in game order, so the ratings are the same
    however the games were spread over workers)."""
    k = len(names)
    games = [0] * k
    wins = [0.0] * k
    points: list[list[float]] = [[] for _ in range(k)]
    pair: dict[tuple[int, int], list[int]] = {(a, b): [0, 0, 0] for a in range(k) for b in range(a + 1, k)}
    rating = [ratings.new_rating() for _ in range(k)]
    for index in sorted(results):
        res = results[index]
        fin = finishes(res)
        for row in res["seats"]:
            points[int(row["entrant"])].append(float(row["total"]))
        best = min(fin.values())
        top = [e for e, r in fin.items() if r == best]
        for e in fin:
            games[e] += 1
            if e in top:
                wins[e] += 1 / len(top)
        for (a, b), tally in pair.items():
            if a in fin and b in fin:
                tally[0 if fin[a] < fin[b] else 1 if fin[b] < fin[a] else 2] += 1
        present = sorted(fin)
        if len(present) >= 2:
            new = ratings.rate([rating[e] for e in present], [fin[e] for e in present])
            for e, r in zip(present, new, strict=True):
                rating[e] = r
    rows = []
    for e, name in enumerate(names):
        lo, hi = wilson(wins[e], games[e])
        mean, plo, phi = mean_interval(points[e])
        rlo, rhi = ratings.interval95(rating[e])
        rows.append({"entrant": e, "name": name, "games": games[e], "wins": _r(wins[e]),
                     "win_rate": _r(wins[e] / games[e]) if games[e] else 0.0, "win_rate_95": [_r(lo), _r(hi)],
                     "points_mean": _r(mean), "points_95": [_r(plo), _r(phi)],
                     "rating": {"mu": _r(rating[e].mu), "sigma": _r(rating[e].sigma),
                                "interval_95": [_r(rlo), _r(rhi)], "display": _r(ratings.display(rating[e]))}})
    h2h = [{"a": names[a], "b": names[b], "games": sum(t), "a_wins": t[0], "b_wins": t[1], "draws": t[2]}
           for (a, b), t in pair.items()]
    return {"games": len(results), "entrants": rows, "head_to_head": h2h}


def leaderboard_change(identities: Sequence[str], results: Mapping[int, Mapping[str, Any]]):
    """The change an ended arena makes to its variant's leaderboard: its games rated in order on
    top of the board's ratings, by entrant identity (``easy``, ``medium``, ``hard``, ``bot:<id>``);
    a game where one identity holds every seat rates nothing."""

    def change(board: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        rows = {i: dict(board.get(i, {"games": 0, "wins": 0.0, **ratings.to_json(ratings.new_rating())}))
                for i in dict.fromkeys(identities)}
        for index in sorted(results):
            by_id: dict[str, int] = {}
            for e, rank in finishes(results[index]).items():
                ident = identities[e]
                by_id[ident] = min(rank, by_id.get(ident, rank))
            if len(by_id) < 2:
                continue
            present = sorted(by_id)
            new = ratings.rate([ratings.from_json(rows[i]) for i in present], [by_id[i] for i in present])
            best = min(by_id.values())
            top = [i for i in present if by_id[i] == best]
            for i, r in zip(present, new, strict=True):
                rows[i].update(ratings.to_json(r), games=rows[i]["games"] + 1,
                               wins=rows[i]["wins"] + (1 / len(top) if i in top else 0))
        return rows
    return change


def board_score(row: Mapping[str, Any]) -> float:
    """A leaderboard row's place, higher first: its conservative rating as shown (rounded, so equal
    shown ratings tie, and a tie goes by entrant)."""
    return _r(ratings.display(ratings.from_json(row)))


def board_row(ident: str, row: Mapping[str, Any], rank: int | None = None) -> dict[str, Any]:
    """One leaderboard row as the API shows it (``rank``: its place on the board, from 1)."""
    r = ratings.from_json(row)
    lo, hi = ratings.interval95(r)
    out = {"entrant": ident, "games": int(row["games"]), "wins": _r(float(row["wins"])),
           "rating": {"mu": _r(r.mu), "sigma": _r(r.sigma), "interval_95": [_r(lo), _r(hi)],
                      "display": _r(ratings.display(r))}}
    if rank is not None:
        out["rank"] = rank
    return out


def leaderboard_rows(board: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A whole board, best conservative rating first (the order of its pages)."""
    return sorted((board_row(i, row) for i, row in board.items()), key=lambda x: (-x["rating"]["display"], x["entrant"]))
