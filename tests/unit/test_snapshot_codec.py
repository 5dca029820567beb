"""The snapshot codec (service/app/snapshots.py) gives back equal states of every game, and
decodes only the games' own state types."""
from __future__ import annotations

import pickle
import random
import zlib

import pytest

from service.app import snapshots
from service.games import engine, registry
from tests.conformance import engine_checks
from tests.conformance.drive import playout
from tests.conformance.mixes import mix_for, seat_counts, variants


def _states(monkeypatch: pytest.MonkeyPatch) -> list:
    """Some states of a conformance playout of every registered variant (its smallest table)."""
    seen: list = []
    real = engine_checks.decided
    rng = random.Random(7)

    def keep(state, cmd, now, tag, skip=0):
        d = real(state, cmd, now, tag, skip)
        if rng.random() < 0.1:
            seen.append(d.state)
        return d

    monkeypatch.setattr(engine_checks, "decided", keep)
    for variant in variants():
        playout(mix_for(variant, seat_counts(variant)[0], 0), 1)
    return seen


def test_every_game_state_round_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _states(monkeypatch)
    kinds = {type(s) for s in states}
    assert len(states) > 20 and {g.state_type for g in registry.GAMES} <= kinds
    for s in states:
        back, head = snapshots.decode(snapshots.encode(s, "abc"))
        assert back == s and head == "abc"
        assert engine.public_view(back, 0, True) == engine.public_view(s, 0, True)


class _Evil:
    def __reduce__(self):
        import os

        return os.system, ("echo snapshot-ran-code > /dev/null",)


def test_only_the_games_state_types_are_decoded() -> None:
    stamp = snapshots.fingerprint().encode()
    hostile = [_Evil(), engine.decide, print, ("a", _Evil())]
    for obj in hostile:
        body = zlib.compress(pickle.dumps((obj, "h"), protocol=5))
        assert snapshots.decode(stamp + b"\n" + body) is None
    assert snapshots.decode(stamp + b"\n" + zlib.compress(pickle.dumps(({"a": 1}, 5)))) is None  # head not a str
    assert snapshots.decode(b"another fingerprint\n" + b"x") is None
    assert snapshots.decode(stamp + b"\nnot zlib") is None
