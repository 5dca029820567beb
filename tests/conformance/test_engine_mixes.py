"""The suite's own inputs: it covers exactly the registry's variants, every game declares what the
checks need, and the option mixes are valid, reproducible and seldom refused."""
from __future__ import annotations

import pytest

from service.games import registry
from tests.conformance import mixes as mx


def test_the_suite_covers_every_registered_variant():
    assert set(mx.variants()) == set(registry.BY_VARIANT)
    for v in mx.variants():
        assert mx.seat_counts(v), f"{v} admits no seat count"


def test_every_game_lists_its_cards_in_play():
    """(b) needs it: a game without ``cards_in_play`` fails the suite (kernel/game.py)."""
    assert [g.name for g in registry.GAMES if g.cards_in_play is None] == []


@pytest.mark.parametrize("variant", mx.variants())
def test_option_mixes_are_valid_reproducible_and_seldom_refused(variant):
    before = (mx.REFUSALS.drawn.get(variant, 0), mx.REFUSALS.refused.get(variant, 0))
    changed = set()
    for players in mx.seat_counts(variant):
        for seed in range(1, 16):
            mix = mx.mix_for(variant, players, seed)
            assert mix == mx.mix_for(variant, players, seed)  # the seed is enough to rebuild it
            resolved, _ = registry.resolve_options(variant, mix.overrides, mix.max_players)
            assert resolved == mix.options
            assert players <= mix.max_players and resolved.get("min_players", players) <= players
            defaults = registry.preset_defaults(variant)
            changed |= {k for k, v in mix.overrides.items() if defaults.get(k) != v}
    drawn = mx.REFUSALS.drawn[variant] - before[0]
    refused = mx.REFUSALS.refused.get(variant, 0) - before[1]
    assert refused <= drawn / 2, f"{variant}: resolve_options refused {refused} of {drawn} drawn mixes"
    options = {o["name"] for o in mx.catalogue()[variant]["options"]}
    assert len(changed) >= len(options) / 3, f"{variant}: the mixes only ever change {sorted(changed)}"
