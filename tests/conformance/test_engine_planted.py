"""The suite can fail: for every registered game, a planted violation makes its check raise.

Each plant swaps the game's registry entry for a copy with one part broken (the engine and the
registry look games up by state type and by variant), drives a few matches, and expects the
suite's AssertionError naming the broken property.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest

from service.games import engine, registry
from service.games.kernel.model import RuleViolation
from service.games.kernel.table import Decided
from tests.conformance.client_checks import carded_types
from tests.conformance.drive import Profile, playout
from tests.conformance.mixes import mix_for, seat_counts

GAMES = {g.name: g for g in registry.GAMES}


def drive(game: Any, matches: int = 6, profile: Profile | None = None, **kw: Any) -> None:
    """Play a few matches of the game's first variant (the plant must trip a check)."""
    variant = game.variants[0]
    for seed in range(matches):
        players = seat_counts(variant)[seed % len(seat_counts(variant))]
        playout(mix_for(variant, players, seed), seed, profile or Profile(), **kw)


@pytest.mark.parametrize("name", GAMES)
def test_an_unplayable_listed_action_is_caught(name, plant):
    """(c) legal_actions lists an action decide refuses."""
    game = GAMES[name]
    real = game.legal_actions
    kind = min(game.actions)

    def padded(state, seat, now):
        out = real(state, seat, now)
        if not out:
            return out
        bogus = {"type": kind, **dict.fromkeys(registry.ACTIONS[kind].required, "bogus")}
        hand = engine.private_view(state, seat, now)["hand"]
        if kind in carded_types(game) and hand:  # listed as docs/clients.md says (its hand card named)
            bogus["card"] = hand[0]
        return out + [bogus]
    plant(game, legal_actions=padded)
    with pytest.raises(AssertionError, match=r"refused|legal actions"):
        drive(game)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_accepted_is_caught(name, plant):
    """(d) decide lets a refused seat command through (as a game without a guard would)."""
    game = GAMES[name]
    real = game.decide
    commands = tuple(spec.command for spec in game.actions.values())

    def lax(state, cmd, ctx):
        try:
            return real(state, cmd, ctx)
        except RuleViolation:
            if isinstance(cmd, commands):
                return Decided((), state)
            raise
    plant(game, decide=lax)
    with pytest.raises(AssertionError, match="was accepted"):
        drive(game, profile=Profile(illegal_every=1))


@pytest.mark.parametrize("name", GAMES)
def test_a_fold_that_drops_an_event_is_caught(name, plant):
    """(a) evolve ignores one kind of event the live decide folds: the replay differs."""
    game = GAMES[name]
    real = game.evolve
    dropped = "RoundEnded"

    def forgetful(state, event):
        return dataclasses.replace(state, version=event.seq) if event.type == dropped else real(state, event)
    plant(game, evolve=forgetful)
    with pytest.raises(AssertionError, match="differs"):
        drive(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_card_that_vanishes_is_caught(name, plant):
    """(b) the cards in play shrink mid-round (as a fold that loses a card reports them)."""
    game = GAMES[name]
    real = game.cards_in_play

    def leaky(state):
        cards = real(state)
        if cards is None or state.version % 5:
            return cards
        return cards - Counter({min(cards): 1})
    plant(game, cards_in_play=leaky)
    with pytest.raises(AssertionError, match="not conserved"):
        drive(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_without_cards_in_play_is_caught(name, plant):
    game = GAMES[name]
    plant(game, cards_in_play=None)
    with pytest.raises(AssertionError, match="no cards_in_play"):
        drive(game, matches=1)


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_that_plays_an_illegal_action_is_caught(name, plant):
    """(f) a bot answers with an action not among its view's legal actions."""
    game = GAMES[name]

    def rogue(view, rng, **kw):
        return {"type": "not-an-action"}
    plant(game, bots=MappingProxyType(dict.fromkeys(game.bots, rogue)))
    with pytest.raises(AssertionError, match="not a legal action"):
        drive(game, profile=Profile(bot_share=1.0))


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_that_reads_more_than_its_view_is_caught(name, plant):
    """(f) a bot whose choice depends on something besides its view and its seed."""
    game = GAMES[name]
    outside = random.Random(0)

    def peeking(view, rng, **kw):
        return dict(outside.choice(view.legal_actions))
    plant(game, bots=MappingProxyType(dict.fromkeys(game.bots, peeking)))
    with pytest.raises(AssertionError, match="then"):
        drive(game, profile=Profile(bot_share=1.0, view_every=1))


@pytest.mark.parametrize("name", GAMES)
def test_a_timeout_that_plays_no_legal_default_is_caught(name, plant):
    """(e) a timeout records a default action the seat could not have taken."""
    game = GAMES[name]
    real = game.decide

    def careless(state, cmd, ctx):
        got = real(state, cmd, ctx)
        events = tuple(dataclasses.replace(e, data={**e.data, "default_action": {"type": "bogus"}, "chain": None})
                       if e.type == "TimedOut" else e for e in got.events)
        return Decided(events, got.state)
    plant(game, decide=careless)
    with pytest.raises(AssertionError, match="timeout of seat"):
        drive(game, profile=Profile(bot_share=0.0, sleeper=1.0))


@pytest.mark.parametrize("name", GAMES)
def test_a_table_whose_timers_are_forgotten_is_caught(name, plant):
    """(e) pending_work drops every timer: a seat that never acts stalls the table."""
    game = GAMES[name]
    real = game.pending_work
    plant(game, pending_work=lambda state: tuple(d for d in real(state) if d.kind != "timer"))
    with pytest.raises(AssertionError, match="stalled"):
        drive(game, profile=Profile(bot_share=0.0, sleeper=1.0))


@pytest.mark.parametrize("name", GAMES)
def test_a_verifier_module_that_lists_other_items_is_caught(name, plant):
    """(g) the game's independent verifier module and its engine disagree on what a shuffle shuffled."""
    game = GAMES[name]
    real = game.verifier

    class Reversed:
        def __init__(self, options):
            self.real = real.Shuffles(options)

        def expected(self, what):
            items = self.real.expected(what)
            return items[::-1] if items and len(set(items)) > 1 else items

        def see(self, event):
            self.real.see(event)
    plant(game, verifier=SimpleNamespace(__name__="planted", VARIANTS=real.VARIANTS, Shuffles=Reversed))
    with pytest.raises(AssertionError, match="shuffle is not of the items"):
        drive(game, matches=1)
