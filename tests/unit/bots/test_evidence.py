"""Opponent modelling from the public record (service/games/shedding/bots/evidence.py, posterior.py).

The reference "true" acquisition order comes from the engine's events (``to_seat`` of
``CardsDealt`` and ``CardDrawn``), which no bot ever sees: only the tests use it, to check that the
record explains a medium opponent's real hand exactly, and better than a random guess.
"""
import math
import random

import pytest

from service.games.engine import seat_view
from service.games.shedding.bots import easy, medium
from service.games.shedding.bots.determinize import Determinizer
from service.games.shedding.bots.evidence import MISS, Evidence
from service.games.shedding.bots.posterior import Posterior
from service.games.shedding.cards import RANK, SUIT
from service.games.shedding.core import rules_from_options
from service.games.shedding.state import TURN_PHASES
from tests.unit.rules.helpers import Game, to_command


def true_priorities(events, seat):
    """Deal = 0, then 1, 2, ... per draw of the seat this round: its real acquisition order, for
    the cards it holds and for each of its plays (key (card, n), n-th play of the round)."""
    prio, k, plays = {}, 0, 0
    start = max(j for j, e in enumerate(events) if e.type == "RoundStarted")
    for e in events[start:]:
        if e.type == "CardsDealt":
            for c in e.to_seat.get(seat, {}).get("cards", ()):
                prio[c] = 0
        elif e.type == "CardDrawn" and e.seat == seat:
            k += 1
            for c in e.to_seat[seat]["cards"]:
                prio[c] = k
        elif e.type == "CardPlayed" and e.seat == seat:
            prio[(e.data["card"], plays)] = prio[e.data["card"]]
            plays += 1
    return prio


def states(variant, games, policies, every=3, players=None, strength="medium"):
    """(game, view of the seat to move, evidence) at every ``every``-th decision; every seat is a
    bot of ``strength`` (public: the evidence picks its model by it) played by ``policies``."""
    for i in range(games):
        n = players or 2 + i % 3
        g = Game(n, seed=f"ev{variant}{i}", variant=variant, bots=n, bot_strength=strength)
        g.start()
        rng = random.Random(i)
        for k in range(150):
            if g.m.rnd.phase not in TURN_PHASES:
                break
            seat = g.m.rnd.current
            view = seat_view(g.m, seat, g.now)
            if k % every == every - 1:
                yield g, view, Evidence(view, rules_from_options(view.public["options"]))
            g.do(to_command(seat, policies[seat % len(policies)].choose(view, rng)))
            g.now += 2000


@pytest.mark.deep
def test_the_record_explains_a_medium_opponents_real_hand_exactly():
    """Every scored decision of a medium seat is medium's move (or one of its ties) on the hand
    rebuilt from the record, for prsi and Mau-Mau: the record is complete."""
    scored = 0
    for variant in ("prsi", "mau-mau-classic-full"):
        for g, _view, ev in states(variant, 8, [medium]):
            for seat in ev.walks:
                assert ev.model[seat] == "medium"
                terms = ev.explain(seat, g.m.rnd.hands[seat], true_priorities(g.events, seat))
                assert ev.log_miss[seat] not in terms, (variant, seat, terms)
                scored += len(terms)
    assert scored > 1000


def test_random_guesses_explain_the_record_worse_than_the_real_hand():
    real, guessed, n = 0.0, 0.0, 0
    for g, view, ev in states("prsi", 6, [medium], every=5, players=2):
        det = Determinizer(view)
        rng = random.Random(n)
        for seat, k in det.opp_counts:
            prio = true_priorities(g.events, seat)
            real += ev.log_likelihood(seat, g.m.rnd.hands[seat], prio)
            pool = list(det.unseen)
            rng.shuffle(pool)
            guessed += ev.log_likelihood(seat, pool[:k], {c: rng.random() for c in det.unseen})
            n += 1
    assert n > 20
    assert real / n > guessed / n + 1.0  # a random hand needs more than one miss more on average


def test_easy_opponents_plays_say_little_their_draws_say_all():
    checked = caught = 0
    for g, view, ev in states("prsi", 6, [easy], every=4, players=2, strength="easy"):
        seat = 1 - view.seat
        assert ev.model[seat] == "easy"
        real = list(g.m.rnd.hands[seat])
        prio = true_priorities(g.events, seat)
        terms = ev.explain(seat, real, prio)
        # the real hand: every play is one of his legal cards (-log n), never a miss
        assert all(t > math.log(MISS["easy"]) for t in terms)
        checked += len(terms)
        # a guess holding, since the deal, a card of the suit he last drew on: that draw is a miss
        draws = [dec for kind, _, dec in ev.walks[seat] if dec is not None and dec.observed == ("draw",)
                 and dec.table.phase == "play"]
        if not draws or len(real) < 2:
            continue
        d = draws[0]  # the newest
        suit = d.sit_args["called"] or SUIT[d.sit_args["top"]]
        extra = next(c for c in Determinizer(view).unseen
                     if SUIT[c] == suit and RANK[c] != "J" and c not in real)
        guess = real[:-1] + [extra]
        bad = ev.explain(seat, guess, {**prio, extra: -1.0})
        assert min(bad) == math.log(MISS["easy"])
        caught += 1
    assert checked > 50 and caught > 5


def _profile_error(hand, real):
    def prof(cards):
        p = {}
        for c in cards:
            key = "J" if RANK[c] == "J" else SUIT[c]
            p[key] = p.get(key, 0) + 1
        return p
    a, b = prof(hand), prof(real)
    return sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b))


@pytest.mark.deep
def test_the_posterior_moves_towards_the_real_hand():
    """Metropolis steps raise the chains' likelihood and bring their suits closer to the truth."""
    before_ll = after_ll = before_err = after_err = 0.0
    n = 0
    for g, view, ev in states("prsi", 6, [medium], every=7, players=2):
        if ev.n_decisions < 6:
            continue
        det = Determinizer(view)
        seat = det.opp_counts[0][0]
        real = g.m.rnd.hands[seat]
        post = Posterior(det.unseen, det.opp_counts, ev, random.Random(n), 8, det.deal)
        before_ll += sum(sum(c[3].values()) for c in post.chains) / 8
        before_err += sum(_profile_error(c[0][seat], real) for c in post.chains) / 8
        for _ in range(600):
            post.step()
        after_ll += sum(sum(c[3].values()) for c in post.chains) / 8
        after_err += sum(_profile_error(c[0][seat], real) for c in post.chains) / 8
        hands = post.hands(random.Random(0))
        assert sorted(hands) == [s for s, _ in det.opp_counts]
        assert all(len(hands[s]) == k for s, k in det.opp_counts)
        assert not set(hands[seat]) & set(view.hand)  # never one of my own cards
        n += 1
    assert n >= 8
    assert after_ll > before_ll + 2 * n  # about two misses fewer per state
    assert after_err < before_err
