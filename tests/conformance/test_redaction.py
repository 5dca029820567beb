"""The redaction oracle over every registered variant (tests/conformance/redaction.py and
redaction_api.py), and leaks planted in every game that it must catch. Variants and games come
from the registry: a new game is covered with no edit here. Deeper runs:
tests/conformance/redaction_faults.py (bench/faults.py)."""
from __future__ import annotations

import dataclasses
import random
from types import MappingProxyType
from typing import Any

import pytest

from service.app import feeds, queries, redaction
from service.games import engine, registry
from service.games.kernel.game import Game
from tests.conformance.redaction import VARIANTS, check_indistinguishable, resampler
from tests.conformance.redaction_api import close_table, make_table, play

# (seed, humans' moves at most, chance of each match-shortening option): a match played to its
# end (history and verify of a finished game), and one caught in its middle
RUNS = ((0, 150, 1.0), (1, 30, 0.0))


@pytest.mark.parametrize(("variant", "seed", "moves", "short"),
                         [(v, *run) for v in VARIANTS for run in RUNS],
                         ids=[f"{v}-seed{run[0]}" for v in VARIANTS for run in RUNS])
def test_every_answer_is_the_projection_of_the_truth(variant: str, seed: int, moves: int, short: float) -> None:
    figures = play(variant, seed, moves, resamples=2, short=short)
    assert figures["moves"] > 0 and figures["answers"] > 10 * figures["moves"], figures
    if short == 1.0:  # a finished game's history and verify were checked
        assert figures["finished"], f"{variant} seed {seed}: not over in {moves} moves even shortened"
    assert figures["resamples that moved cards"] > 0, "the resample hook never dealt a hidden card elsewhere"


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_every_game_can_be_resampled(game: Game) -> None:
    """The oracle's first proof needs the hook (kernel/game.py); a game without it fails here."""
    assert callable(resampler(game))


def test_a_game_without_a_resample_hook_fails_the_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.GAMES[0]
    _swap(monkeypatch, dataclasses.replace(game, resample=None))
    with pytest.raises(AssertionError, match="no resample hook"):
        play(game.variants[0], 0, 5, resamples=1, short=0.0)


def _swap(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    """Serve ``game`` in place of the registered entry of its state type (every lookup by state)."""
    by_state = MappingProxyType({**registry.BY_STATE, game.state_type: game})
    monkeypatch.setattr(registry, "BY_STATE", by_state)
    monkeypatch.setattr(engine, "BY_STATE", by_state)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_a_leak_planted_in_the_public_view_is_caught(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's hand written into the view's ``name`` (an existing string field: the answers still
    match openapi.yaml, and the app and the oracle's reference both show it): the resamples see it."""
    real = game.public_view

    def leaky(state: Any, now: int, record: bool = False) -> dict[str, Any]:
        out = real(state, now, record)
        hand = game.private_view(state, 0, now)["hand"] if state.seats else []
        return {**out, "name": " ".join(hand)} if hand else out

    _swap(monkeypatch, dataclasses.replace(game, public_view=leaky))
    with pytest.raises(AssertionError, match="sees hidden cards"):
        play(game.variants[0], 1, 30, resamples=1, short=0.0)


@pytest.mark.parametrize(("where", "needles", "caught_by"), [
    ("app", True, "hidden values"), ("app", False, "feed of|write|long-poll|SSE"),
    ("redaction", True, "another seat's private part")])
@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_a_leak_planted_in_the_events_is_caught(game: Game, where: str, needles: bool, caught_by: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's private part of every event shown to everyone: in the app's feeds and write
    answers (the needles catch it; without them, the answers differ from the reference), or in
    project_event itself (the reference is leaky too: its own check catches it)."""
    real = redaction.project_event

    def leaky(event: Any, viewer: redaction.Viewer) -> dict[str, Any]:
        out = real(event, viewer)
        if event.to_seat:
            out["private"] = {str(k): dict(v) for k, v in event.to_seat.items()}
        return out

    for module in (queries, feeds) + ((redaction,) if where == "redaction" else ()):
        monkeypatch.setattr(module, "project_event", leaky)
    with pytest.raises(AssertionError, match=caught_by):
        play(game.variants[0], 1, 30, resamples=0, short=0.0, needles=needles)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_a_game_that_tells_in_public_what_it_hides_is_caught(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose events repeat their private part in their public data (a drawn card, a dealt
    hand): stored so, every answer is its projection and no needle is left; the oracle's look at
    each event catches it (the spec check is off: the planted field is not in openapi.yaml)."""
    real = game.decide

    def leaky(state: Any, command: Any, ctx: Any) -> Any:
        out = real(state, command, ctx)
        events = tuple(dataclasses.replace(e, data={**e.data, "told": dict(e.to_seat)}) if e.to_seat else e
                       for e in out.events)
        return out._replace(events=events)

    _swap(monkeypatch, dataclasses.replace(game, decide=leaky))
    with pytest.raises(AssertionError, match="shows in its public data what it hides"):
        play(game.variants[0], 1, 30, resamples=0, short=0.0, spec_check=False)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_the_pure_half_alone_catches_a_planted_view_leak(game: Game) -> None:
    """Without the API: a state's projection with seat 0's hand in its name differs between
    resamples for every other viewer (the check a new game's views get before any API test)."""
    rng = random.Random(3)
    table = make_table(3, spec_check=False)
    try:
        play_state = _started(table, game, rng)
    finally:
        close_table(table)
    real = game.public_view
    leaky = dataclasses.replace(game, public_view=lambda s, now, record=False: {
        **real(s, now, record), "name": " ".join(game.private_view(s, 0, now)["hand"])})
    check_indistinguishable(play_state, 0, rng, 2)  # the real views hide it
    with pytest.MonkeyPatch.context() as mp:
        _swap(mp, leaky)
        with pytest.raises(AssertionError, match="sees hidden cards"):
            check_indistinguishable(play_state, 0, rng, 2)


def _started(table: Any, game: Game, rng: random.Random) -> Any:
    """A running state of the game's first variant with a dealt hand in seat 0."""
    variant = game.variants[0]
    g = table.create(variant)
    for i in range(3):
        table.join(g["id"], f"p{i}", g["owner_token"] if i == 0 else None)
    table.start(g["id"], g["owner_token"])
    for _ in range(20):
        table.drain()
        state = table.service.load(g["id"])
        if game.private_view(state, 0, table.clock.now)["hand"]:
            return state
        table.clock.advance(1000)
    raise AssertionError(f"{variant}: seat 0 was never dealt a hand")
