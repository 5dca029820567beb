"""The UNO playout core against the event engine, move for move: the core is fed the engine's own
shuffles (the deck, a wild draw four sent back, every reshuffle) and random colours; after every
move both list the same actions for the same seat, and both end the hand with the same winner and
the same hands."""
from __future__ import annotations

import hashlib
import random

import pytest

from service.games.engine import legal_actions, outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Pass, Play
from service.games.uno.cards import COLOR, COLORS, DECK
from service.games.uno.options import printed
from service.games.uno.playout import DRAW, PASS, WILD, Uno, playout

T0 = 1_700_000_000_000
INDEX = {c: i for i, c in enumerate(DECK)}


def _as_ints(acts):
    out = []
    for a in acts:
        if a["type"] == "draw":
            out.append(DRAW)
        elif a["type"] == "pass":
            out.append(PASS)
        elif a.get("called_suit"):
            out.append(WILD + INDEX[a["card"]] * 4 + COLORS.index(a["called_suit"]))
        else:
            out.append(INDEX[a["card"]])
    return out


PRESETS = {"uno-rlcard": {}, "uno": {"uno_call": False}}
"""The core has no UNO call: the ``uno`` preset's hand is checked without it."""


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("trial", range(60))
def test_the_core_plays_the_engines_hand(trial, preset):
    """Both presets at today's rules version; ``uno`` also at 2-10 seats, and at version 3 (RLCard's
    going out and reshuffle) every fourth trial, as its older histories replay."""
    rng = random.Random(trial)
    seats = 4 if preset == "uno-rlcard" else 10
    players = 2 + trial % (seats - 1)
    version = 3 if preset == "uno" and trial % 4 == 0 else RULES_VERSION
    dealt = 7 if trial % 2 else rng.choice([1, 3, 7])
    opts, _ = resolve_options(preset, {"cards_dealt": dealt, **PRESETS[preset]}, seats)
    k = 0
    orders: list[list[int]] = []
    colors: list[int] = []

    def step(m, cmd):
        nonlocal k
        k += 1
        seeds = tuple(hashlib.sha256(f"sim{trial}/{k}/{i}".encode()).digest() for i in range(8))
        d = outcome(m, cmd, Context(T0, seeds))
        for e in d.events:
            if e.type == "ShuffleCommitted":
                orders.append([INDEX[c] for c in e.secret["order"]])
            elif e.type in ("StarterTurned", "CardPlayed") and COLOR[e.data["card"]] is None and e.data["color"] \
                    and (e.type == "StarterTurned" or e.data.get("drawn")):
                colors.append(COLORS.index(e.data["color"]))
        return d.state

    m = step(None, CreateMatch("s", preset, opts, seats, rules_version=version))
    for i in range(players):
        m = step(m, JoinSeat(f"p{i}"))
    m = step(m, StartMatch())
    fed, hues = iter(orders), iter(colors)
    g = Uno(players, lambda cards: next(fed), lambda: next(hues), dealt, preset == "uno", preset == "uno",
            printed(preset, version))
    moves = 0
    while m.rnd.phase == "play":
        assert g.current == m.rnd.current and not g.over
        acts = legal_actions(m, m.rnd.current, T0)
        assert g.legal() == _as_ints(acts)
        a = acts[int(rng.random() * len(acts))]
        seat = m.rnd.current
        m = step(m, Play(seat, a["card"], a.get("called_suit")) if a["type"] == "play"
                 else Pass(seat) if a["type"] == "pass" else Draw(seat))
        g.act(_as_ints([a])[0])
        moves += 1
    assert g.over and g.winner == m.rnd.winner
    assert [sorted(DECK[c] for c in h) for h in g.hands] == [sorted(m.rnd.hands[s]) for s in range(players)]
    assert moves > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_random_playouts_end(preset):
    opts, _ = resolve_options(preset, {}, 4)
    rng = random.Random(5)
    assert all(playout(opts, n, rng) > 0 for n in (2, 3, 4) for _ in range(20))


@pytest.mark.parametrize("printed_rules", [True, False])
def test_the_core_plays_the_printed_going_out_and_reshuffle(printed_rules):
    """The core's own case of the printed rules (rules version 4, ``uno``): a last draw two still
    makes the next seat draw; a reshuffle leaves the top card on the table. Without ``printed``: RLCard's."""
    g = Uno(3, lambda cards: list(cards), lambda: 0, 7, True, True, printed_rules)
    g.hands = [[INDEX["Y-draw_2:0"]], [INDEX["G-9:0"]], [INDEX["B-5:0"]]]
    g.stock, g.discard = [INDEX["R-7:0"]], [INDEX["Y-1:0"], INDEX["Y-4:0"]]
    g.target, g.color, g.current, g.direction = INDEX["Y-4:0"], "Y", 0, 1
    g.act(INDEX["Y-draw_2:0"])
    assert g.over and g.winner == 0
    assert [DECK[c] for c in g.hands[1]] == (["G-9:0", "R-7:0", "Y-1:0"] if printed_rules else ["G-9:0"])
    assert [DECK[c] for c in g.discard] == (["Y-draw_2:0"] if printed_rules else ["Y-1:0", "Y-4:0", "Y-draw_2:0"])
