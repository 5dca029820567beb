"""The Crazy Eights playout core against the event engine, move for move: the core is fed the
engine's own shuffles (the deck, an eight sent back, a reshuffled discard) and its dealer; after
every move both list the same actions, and both end the hand the same way with the same hands."""
from __future__ import annotations

import random

import pytest

from service.games.crazy_eights.playout import CALL, DRAW, PASS, CrazyEights, card_id, card_int, playout
from service.games.engine import legal_actions, outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Pass, Play
from tests.unit.crazy_eights.helpers import T0, seeds


def _as_ints(acts):
    out = []
    for a in acts:
        if a["type"] == "draw":
            out.append(DRAW)
        elif a["type"] == "pass":
            out.append(PASS)
        elif a.get("called_suit"):
            out.append(CALL + card_int(a["card"]) * 4 + "CDHS".index(a["called_suit"]))
        else:
            out.append(card_int(a["card"]))
    return out


@pytest.mark.parametrize("trial", range(120))
def test_the_core_plays_the_engines_hand(trial):
    rng = random.Random(trial)
    players = 2 + trial % 4
    over = {"use_special_cards": trial % 2 == 0, "reshuffle": trial % 3 != 1,
            "max_draw_cards": rng.choice([1, 2, 5]), "max_turns": rng.choice([40, 100])}
    opts, _ = resolve_options("crazy-eights", over, 5)
    k = 0
    orders: list[list[int]] = []

    def step(m, cmd):
        nonlocal k
        k += 1
        d = outcome(m, cmd, Context(T0, seeds(f"sim{trial}/{k}")))
        orders.extend([card_int(c) for c in e.secret["order"]] for e in d.events if e.type == "ShuffleCommitted")
        return d.state

    m = step(None, CreateMatch("s", "crazy-eights", opts, 5, rules_version=RULES_VERSION))
    for i in range(players):
        m = step(m, JoinSeat(f"p{i}"))
    m = step(m, StartMatch())
    fed = iter(orders)
    g = CrazyEights(players, opts, lambda cards: next(fed), m.dealer)
    moves = 0
    while m.rnd.phase == "play":
        assert g.current == m.rnd.current and not g.over
        acts = legal_actions(m, m.rnd.current, T0)
        assert g.legal() == _as_ints(acts)
        a = acts[int(rng.random() * len(acts))]
        seat = m.rnd.current
        m = step(m, Play(seat, a["card"], a.get("called_suit")) if a["type"] == "play"
                 else Draw(seat) if a["type"] == "draw" else Pass(seat))
        g.act(_as_ints([a])[0])
        moves += 1
    assert g.over and g.reason == m.rnd.end_reason and g.winner == m.rnd.winner
    assert [sorted(card_id(c) for c in h) for h in g.hands] == [sorted(m.rnd.hands[s]) for s in range(players)]
    assert moves > 0


def test_random_playouts_end():
    opts, _ = resolve_options("crazy-eights", {"use_special_cards": True}, 5)
    rng = random.Random(5)
    assert all(playout(opts, n, rng) > 0 for n in (2, 3, 4, 5) for _ in range(20))
