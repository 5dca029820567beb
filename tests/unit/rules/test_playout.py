"""Random playouts (OpenSpiel's random_sim_test, RULES §3.8.2) over every shedding preset and over
hypothesis-drawn valid option mixes: card conservation after every event, replay determinism
(the fold of the stream equals the live state, and re-deciding every recorded command yields
the same events), termination (every round within max_turns_per_round, every match within a
bounded number of rounds), every listed action accepted, illegal ones refused."""
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from service.games.engine import decide, evolve, legal_actions, outcome, pending_work, replay as _replay
from service.games.kernel.model import Context, DealRound, FireTimer, JoinSeat, LeaveSeat, RuleViolation, ScoreRound, StartMatch
from service.games.registry import resolve_options
from service.games.shedding.cards import RANKS, SHORT
from service.games.shedding.commands import Play
from service.games.shedding.game import GAME as SHEDDING_GAME
from service.games.shedding.options import CLASSIC_POINTS, CLASSIC_RANKS, PRSI_POINTS
from service.games.shedding.state import TURN_PHASES

from .helpers import Game, deck_of, to_command

SHEDDING = SHEDDING_GAME.variants  # every preset the shedding games serve
MATCHES = {"mau-mau-classic": 120, "mau-mau-classic-full": 120, "prsi": 160, "prsi-traditional": 240}
CHUNKS = 2
MAX_ROUNDS = 120


class Run:
    """A Game that records every command with its context, to re-decide the match at the end."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.log: list[tuple[Any, Context, int]] = []
        self.deck = deck_of(g.m)
        self.base = len(g.events)  # CreateMatch and the seats, decided by Game itself

    def step(self, cmd: Any, now: int | None = None) -> None:
        g = self.g
        ctx = g.ctx(now)
        evs = decide(g.state, cmd, ctx)
        self.log.append((cmd, ctx, len(evs)))
        for ev in evs:
            g.state = evolve(g.state, ev)
            _count_conserved(g.state, len(self.deck))
            g.events.append(ev)
        rnd = g.m.rnd
        if rnd is not None and rnd.phase != "dealing":
            cards = list(rnd.stock) + list(rnd.discard) + [c for h in rnd.hands for c in h]
            assert sorted(cards) == self.deck, cmd

    def redecide(self) -> None:
        """Replay determinism: the same commands and contexts give the same events."""
        state = replay(self.g.events[:self.base])
        events = iter(self.g.events[self.base:])
        for cmd, ctx, n in self.log:
            evs, decided = outcome(state, cmd, ctx)
            assert len(evs) == n
            for ev in evs:
                assert ev == next(events)
                state = evolve(state, ev)
            assert state == decided  # decide's own fold is the fold of its events
        assert state == self.g.m


def replay(events):
    """The fold of the stream, computed afresh."""
    return _replay(events)


def _count_conserved(m, size: int) -> None:
    rnd = m.rnd
    if rnd is None or rnd.phase == "dealing":
        return
    assert len(rnd.stock) + len(rnd.discard) + sum(len(h) for h in rnd.hands) == size


def _refused(g: Game, cmd, code: str) -> None:
    before = g.state
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx())
    assert exc.value.code == code, (exc.value.code, code, cmd)
    assert g.state is before


def _probe(g: Game, rng: random.Random) -> None:
    """Every listed action is accepted; a card not in hand, an illegal card, another seat: refused."""
    m = g.m
    rnd = m.rnd
    cur = rnd.current
    listed = legal_actions(m, cur, g.now)
    closing = [a for a in listed if a["type"] not in ("announce", "challenge")]  # §3.8.3: not closing
    hand = rnd.hands[cur]
    elsewhere = [c for c in sorted(set(rnd.stock) | set(rnd.discard)) if SHORT[c] not in {SHORT[h] for h in hand}]
    if elsewhere and closing:
        _refused(g, Play(cur, elsewhere[0], called_suit="S"), "card_not_in_hand")
    legal_short = {SHORT[a["card"]] for a in closing if a["type"] == "play"}
    wrong = [c for c in hand if SHORT[c] not in legal_short]
    if wrong and closing:
        _refused(g, Play(cur, rng.choice(wrong), called_suit="H"), "illegal_card")
    others = [s for s in m.active_seats() if s != cur and rnd.hands[s]]
    if others:
        s = rng.choice(others)
        _refused(g, Play(s, rnd.hands[s][0], called_suit="C"), "not_your_turn")
    for a in listed:
        decide(m, to_command(cur, a), g.ctx())


def play_match(run: Run, rng: random.Random, probe_every: int = 7, churn: float = 0.0,
               timeouts: float = 0.0) -> int:
    g = run.g
    run.step(StartMatch())
    moves = 0
    max_turns = g.m.rules.max_turns
    while g.m.status == "running":
        assert g.m.round_no <= MAX_ROUNDS, "the match does not end"
        work = pending_work(g.m)
        if work and work[0].kind in ("score", "deal"):
            w = work[0]
            g.now = max(g.now, w.due_at)
            if w.kind == "score":
                assert replay(g.events) == g.m
                run.step(ScoreRound(g.m.round_no))
            else:
                run.step(DealRound(g.m.round_no + 1))
            continue
        rnd = g.m.rnd
        assert rnd.phase in TURN_PHASES and rnd.turn_id <= max_turns
        if churn and rng.random() < churn:
            _churn(run, rng)
            continue
        timers = [d for d in work if d.kind == "timer"]
        if timers and timeouts and rng.random() < timeouts:
            _time_out(run, rng, timers)  # §2.7: the clock jumps past a deadline
            continue
        acts = [(s, a) for s in g.m.active_seats() for a in legal_actions(g.m, s, g.now)]
        assert acts, "the union of legal actions is never empty"
        if all(a["type"] in ("announce", "challenge") for _, a in acts) and rng.random() < 0.5:
            g.now += 2000  # let the window close unannounced after the grace
            continue
        if probe_every and moves % probe_every == 0:
            _probe(g, rng)
        s, a = rng.choice(acts)
        run.step(to_command(s, a))
        moves += 1
        g.now += rng.choice((0, 5, 400, 3000))
    assert replay(g.events) == g.m
    assert g.events[-1].type == "SeedsRevealed"
    return moves


def _time_out(run: Run, rng: random.Random, timers: list) -> None:
    """Jump the clock to a due timer (a turn's deadline, or an absence's removal) and fire it;
    firing it again, or early, does nothing."""
    g = run.g
    due = rng.choice(timers)
    if due.due_at > g.now:
        with pytest.raises(RuleViolation) as early:
            decide(g.state, FireTimer(due.key), g.ctx(due.due_at - 1))
        assert early.value.code == "nothing_to_do"
    g.now = max(g.now, due.due_at)
    run.step(FireTimer(due.key))
    with pytest.raises(RuleViolation) as again:
        decide(g.state, FireTimer(due.key), g.ctx())
    assert again.value.code == "nothing_to_do"


def _churn(run: Run, rng: random.Random) -> None:
    """§3.10: a seat leaves, or a newcomer asks for a seat (accepted or refused by the rules)."""
    g = run.g
    if rng.random() < 0.5:
        run.step(LeaveSeat(rng.choice(g.m.active_seats())))
        return
    try:
        decide(g.state, JoinSeat("late"), g.ctx())
    except RuleViolation as rv:
        assert rv.code in ("joining_closed", "game_full")
        return
    run.step(JoinSeat("late"))


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("preset", SHEDDING)
@pytest.mark.deep
def test_random_playouts_of_every_preset(preset, chunk):
    total = 0
    limit = {} if preset == "prsi-traditional" else {"penalty_limit": 50}
    for seed in range(chunk, MATCHES[preset], CHUNKS):
        rng = random.Random(seed)
        g = Game(rng.randint(2, 5 if preset != "mau-mau-classic-full" else 4), seed=f"{preset}/{seed}",
                 variant=preset, max_turns_per_round=200, max_consecutive_timeouts=rng.randint(1, 3),
                 absent_policy=rng.choice(("default_actions", "bot_autopilot")), **limit)
        run = Run(g)
        total += play_match(run, rng, timeouts=0.05 if seed % 2 else 0.0)
        if seed % 8 == chunk:
            run.redecide()
    assert total > 0


# ------------------------------------------------------------------ hypothesis: option mixes

DECKS = {"32": (CLASSIC_RANKS, 1, CLASSIC_POINTS), "52": (list(RANKS), 1, PRSI_POINTS),
         "104": (list(RANKS), 2, PRSI_POINTS)}
FLAGS = ("jack_wild", "seven_draw_penalty", "eight_skips", "nine_reverses", "ace_plays_again",
         "queen_only_king_same_suit")
BOOLS = ("jack_requires_no_match", "jack_on_jack_allowed", "jack_calls_suit_on_match",
         "jack_ends_round_doubles", "seven_answerable", "final_seven_penalty", "skip_counterable",
         "ace_followup_optional", "ace_last_card_wins", "queen_lock_allows_jack",
         "must_play_drawn_if_legal", "reshuffle_discard", "announce_required", "allow_join_between_rounds",
         "announce_penalty_requires_challenge")
ENUMS = {
    "starter_special_policy": ("ignore", "cover", "apply"),
    "play_after_draw": ("none", "drawn_card_only", "any"),
    "voluntary_draw_mode": ("ends_like_forced", "disabled", "draw_then_continue"),
    "blocked_round_rule": ("lowest_hand_wins", "all_score"),
    "seven_stacking": ("transfer", "accumulate"),
    "final_seven_amount": ("fixed", "accumulated"),
    "reverse_two_player_mode": ("no_effect", "acts_as_skip"),
    "announce_mode": ("flag_or_window", "flag_only", "auto"),
    "match_end_mode": ("limit_reached", "elimination", "single_round"),
    "penalty_limit_comparison": ("gte", "gt"),
    "tie_break": ("shared", "last_round_score"),
    "dealer_rotation": ("clockwise", "loser_deals", "winner_deals"),
    "first_dealer": ("random", "creator"),
    "leaver_policy": ("strike", "replace_with_bot"),
    "joiner_initial_score": ("worst_active", "zero", "average_active"),
}
INTS = {"max_draws_per_turn": (1, 3), "seven_draw_count": (1, 4), "jack_end_multiplier": (2, 4),
        "announce_penalty_cards": (0, 3), "penalty_limit": (50, 250), "max_turns_per_round": (50, 150),
        "max_consecutive_timeouts": (1, 3), "false_challenge_penalty_cards": (0, 2)}
EFFECT_RANKS = ("wild_rank", "draw_rank", "skip_rank", "reverse_rank", "extra_card_rank", "lock_rank",
                "lock_target_rank")


@st.composite
def option_mixes(draw) -> tuple[str, dict[str, Any], int]:
    """A preset plus explicit overrides that pass §8.5: effect ranks pairwise distinct, a deck
    with points for every rank, a table the deck can deal to; any other option maybe inherited."""
    preset = draw(st.sampled_from(SHEDDING))
    ranks, copies, points = DECKS[draw(st.sampled_from(sorted(DECKS)))]
    hand = draw(st.integers(5 if preset.startswith("mau") else 4, 7))
    max_players = draw(st.integers(2, min(5, (len(ranks) * 4 * copies - 4) // hand)))
    effect = draw(st.permutations(ranks))[:len(EFFECT_RANKS)]
    o: dict[str, Any] = {"deck_ranks": list(ranks), "deck_copies": copies, "card_points": dict(points),
                         "hand_size": hand, **dict(zip(EFFECT_RANKS, effect)),
                         "announce_grace_ms": draw(st.sampled_from((0, 1500))), "round_intermission_s": 0}
    for name in FLAGS + BOOLS:
        if draw(st.integers(0, 9)) < 8:
            o[name] = draw(st.booleans())
    for name, values in ENUMS.items():
        if draw(st.integers(0, 9)) < 8:
            o[name] = draw(st.sampled_from(values))
    for name, (lo, hi) in INTS.items():
        o[name] = draw(st.integers(lo, hi))
    return preset, o, max_players


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mix=option_mixes(), seed=st.integers(0, 2**16))
@pytest.mark.deep
def test_random_playouts_of_valid_option_mixes(mix, seed):
    preset, overrides, max_players = mix
    resolved, _ = resolve_options(preset, overrides, max_players)  # the strategy only draws valid mixes
    rng = random.Random(seed)
    g = Game(rng.randint(2, max_players), seed=f"mix/{seed}", variant=preset, max_players=max_players,
             **overrides)
    assert dict(g.m.options) == resolved
    run = Run(g)
    play_match(run, rng, probe_every=11, churn=0.002, timeouts=0.02)
    run.redecide()
