"""Random playouts over seeded matches: conservation, replay, listed actions accepted, illegal refused."""
import random

import pytest

from service.rules.cards import SHORT
from service.rules.engine import decide, evolve, legal_actions, pending_work, replay
from service.rules.model import DealRound, Play, RuleViolation, ScoreRound, StartMatch
from service.rules.state import TURN_PHASES

from .helpers import Game, conserved, to_command

MATCHES = 240
CHUNKS = 4


def _step_events(g: Game, cmd, now=None):
    evs = decide(g.state, cmd, g.ctx(now))
    for ev in evs:
        g.state = evolve(g.state, ev)
        assert conserved(g.state), ev
        g.events.append(ev)
    return evs


def _refused(g: Game, cmd, code: str) -> None:
    before = g.state
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx())
    assert exc.value.code == code, (exc.value.code, code, cmd)
    assert g.state is before


def _probe_illegal(g: Game, rng: random.Random) -> None:
    m = g.m
    rnd = m.rnd
    cur = rnd.current
    listed = legal_actions(m, cur, g.now)
    closing = [a for a in listed if a["type"] != "announce"]
    hand = rnd.hands[cur]
    not_in_hand = next(c for c in sorted(set(rnd.stock) | set(rnd.discard)) if c not in hand) \
        if (rnd.stock or rnd.discard[:-1]) else None
    if not_in_hand and closing:
        _refused(g, Play(cur, not_in_hand, called_suit="S"), "card_not_in_hand")
    legal_short = {SHORT[a["card"]] for a in closing if a["type"] == "play"}
    wrong = [c for c in hand if SHORT[c] not in legal_short]
    if wrong and closing:
        _refused(g, Play(cur, rng.choice(wrong), called_suit="H"), "illegal_card")
    others = [s for s in m.active_seats() if s != cur and rnd.hands[s]]
    if others:
        s = rng.choice(others)
        _refused(g, Play(s, rnd.hands[s][0], called_suit="C"), "not_your_turn")
    for a in listed:  # every listed action is accepted by decide
        decide(m, to_command(cur, a), g.ctx())


def play_match(seed: int) -> int:
    rng = random.Random(seed)
    g = Game(rng.randint(2, 5), seed=seed, penalty_limit=50, max_turns_per_round=200)
    _step_events(g, StartMatch())
    moves = 0
    while g.m.status == "running":
        work = pending_work(g.m)
        if work and work[0].kind in ("score", "deal"):
            w = work[0]
            if w.kind == "score":
                assert replay(g.events) == g.m
                _step_events(g, ScoreRound(g.m.round_no), max(g.now, w.due_at))
            else:
                g.now = max(g.now, w.due_at)
                _step_events(g, DealRound(g.m.round_no + 1))
            continue
        assert g.m.rnd.phase in TURN_PHASES
        acts = [(s, a) for s in g.m.active_seats() for a in legal_actions(g.m, s, g.now)]
        assert acts, "the union of legal actions is never empty"
        if all(a["type"] == "announce" for _, a in acts) and rng.random() < 0.5:
            g.now += 2000  # let the window close unannounced after the grace
            continue
        if moves % 7 == 0:
            _probe_illegal(g, rng)
        s, a = rng.choice(acts)
        _step_events(g, to_command(s, a))
        moves += 1
        g.now += rng.choice((0, 5, 400, 3000))
    assert replay(g.events) == g.m
    assert g.events[-1].type == "SeedsRevealed"
    return moves


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk):
    total = 0
    for seed in range(chunk, MATCHES, CHUNKS):
        total += play_match(seed)
    assert total > 0
