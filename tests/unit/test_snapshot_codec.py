"""The snapshot codec (service/app/snapshots.py) gives back equal states of every game, and
decodes only the games' own state types."""
from __future__ import annotations

import contextlib
import pickle
import random
import zlib

import pytest

from bench import engine as playouts
from service.app import snapshots
from service.games import engine, registry


class _Enough(Exception):
    """A preset's match has given states enough (the rest of a long match adds no new kind)."""


def _states(monkeypatch: pytest.MonkeyPatch, per_preset: int = 600) -> list:
    seen: list = []
    real = playouts.outcome
    rng = random.Random(7)
    commands = [0]

    def keep(state, cmd, ctx):
        d = real(state, cmd, ctx)
        if rng.random() < 0.03:
            seen.append(d.state)
        commands[0] += 1
        if commands[0] >= per_preset:
            raise _Enough
        return d

    monkeypatch.setattr(playouts, "outcome", keep)
    for preset in registry.BY_VARIANT:  # every registered preset: one bots-only match each, cut short
        commands[0] = 0
        with contextlib.suppress(_Enough):
            playouts.playout(preset, random.Random(1), playouts.players_of(preset)[0], 1)
    return seen


def test_every_game_state_round_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _states(monkeypatch)
    kinds = {type(s).__name__ for s in states}
    assert len(states) > 20 and {g.state_type.__name__ for g in registry.GAMES} <= kinds
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
