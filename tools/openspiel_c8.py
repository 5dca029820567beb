"""The Crazy Eights oracle: our engine and OpenSpiel's ``crazy_eights`` on the same deals, move by move.

``play_both`` plays one hand in the event engine (``service.games.engine``, as the application
does) and in ``pyspiel`` side by side. Every chance outcome pyspiel needs comes from our engine's
own events: the dealer (RoundStarted), the deal in our dealing order (the deck's ShuffleCommitted),
each turned-up starter (StarterTurned: an eight goes back into pyspiel's deck as into our stock) and
every card drawn (CardDrawn's private cards, penalty draws included). At every decision both sides'
legal actions are compared (play each card, draw, pass, and after an eight each suit it may name),
and the seat to move; at the end the final hands, and pyspiel's returns against pyspiel's own scoring
formula on those hands (its ``ScoreUp`` counts ``card + 2`` for 2..10, where the documented rule is
face value: see docs/games/crazy-eights.md). A difference raises ``Mismatch``.

Used by tests/differential (a few hundred hands) and ``python -m bench.openspiel_c8`` (more); it lives
in tools/ because both use it (tests/test_no_cross_imports.py).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

from service.games.crazy_eights.playout import card_int
from service.games.engine import legal_actions, outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Pass, Play

DRAW, PASS, NOMINATE, DEALER = 52, 53, 54, 52
SUITS = "CDHS"
T0 = 1_700_000_000_000


class Mismatch(AssertionError):
    pass


def _seeds(tag: str, k: int = 8) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


def pyspiel_score(hand: list[int]) -> int:
    """pyspiel 1.6.15's ScoreUp on one hand, as it is written (``card + 2`` below the jack)."""
    out = 0
    for c in hand:
        r = c // 4
        out -= 50 if r == 6 else 10 if r >= 9 else c + 2
    return out


def _ours(acts: list[dict[str, Any]]) -> set[int]:
    return {DRAW if a["type"] == "draw" else PASS if a["type"] == "pass" else card_int(a["card"]) for a in acts}


def _hand(state: Any, player: int) -> list[int]:
    t = state.observation_tensor(player)
    return [c for c in range(52) if t[c * 2 + 1] == 1.0]


def play_both(game: Any, players: int, overrides: dict[str, Any], rng: random.Random, tag: str) -> int:
    """One hand on both engines with random legal actions; returns the number of decisions."""
    opts, _ = resolve_options("crazy-eights", overrides, 5)
    state: Any = None
    k = 0
    events: list[Any] = []

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        d = outcome(state, cmd, Context(T0, _seeds(f"{tag}/{k}")))
        state = d.state
        events.extend(d.events)

    run(CreateMatch(tag, "crazy-eights", opts, 5, rules_version=RULES_VERSION))
    for i in range(players):
        run(JoinSeat(f"p{i}"))
    events.clear()
    run(StartMatch())
    s = game.new_initial_state()
    s.apply_action(DEALER + state.dealer)
    deck = next(e for e in events if e.type == "ShuffleCommitted").secret["order"]
    size = 7 if players == 2 else 5
    for cid in deck[:size * players]:
        s.apply_action(card_int(cid))
    for e in events:
        if e.type == "StarterTurned":
            s.apply_action(card_int(e.data["card"]))
    decisions = 0
    while state.rnd.phase == "play":
        if s.is_chance_node() or s.is_terminal():
            raise Mismatch(f"{tag}: ours waits for seat {state.rnd.current}, pyspiel is "
                           f"{'terminal' if s.is_terminal() else 'at a chance node'}")
        seat = state.rnd.current
        if s.current_player() != seat:
            raise Mismatch(f"{tag}: seat to move ours {seat}, pyspiel {s.current_player()}")
        acts = legal_actions(state, seat, T0)
        mine, theirs = _ours(acts), set(s.legal_actions())
        if mine != theirs:
            raise Mismatch(f"{tag} decision {decisions}: legal ours {sorted(mine)} pyspiel {sorted(theirs)}")
        a = acts[int(rng.random() * len(acts))]
        events.clear()
        if a["type"] == "play":
            run(Play(seat, a["card"], a.get("called_suit")))
            s.apply_action(card_int(a["card"]))
            calls = sorted(x["called_suit"] for x in acts if x.get("card") == a["card"] and x.get("called_suit"))
            if calls:
                named = sorted(SUITS[x - NOMINATE] for x in s.legal_actions())
                if named != calls:
                    raise Mismatch(f"{tag}: suits ours {calls} pyspiel {named}")
                s.apply_action(NOMINATE + SUITS.index(a["called_suit"]))
        elif a["type"] == "draw":
            run(Draw(seat))
            s.apply_action(DRAW)
            for e in events:
                if e.type == "CardDrawn":
                    for cid in e.to_seat[seat]["cards"]:
                        if not s.is_chance_node():
                            raise Mismatch(f"{tag}: ours drew {cid}, pyspiel deals no card")
                        s.apply_action(card_int(cid))
        else:
            run(Pass(seat))
            s.apply_action(PASS)
        decisions += 1
    if not s.is_terminal():
        raise Mismatch(f"{tag}: our hand ended ({state.rnd.end_reason}), pyspiel goes on")
    revealed = next(e for e in events if e.type == "HandsRevealed").data["hands"]
    returns = s.returns()
    run(ScoreRound(1))
    points = state.scores[0].points
    for p in range(players):
        ours = sorted(card_int(c) for c in revealed[str(p)])
        theirs = _hand(s, p)
        if ours != theirs:
            raise Mismatch(f"{tag}: final hand of {p}: ours {ours} pyspiel {theirs}")
        if returns[p] != pyspiel_score(theirs):
            raise Mismatch(f"{tag}: pyspiel's return {returns[p]} for {p} is not its formula {pyspiel_score(theirs)}")
        face = -sum(50 if c // 4 == 6 else 10 if c // 4 >= 9 else c // 4 + 2 for c in ours)
        if dict(points)[p] != face:
            raise Mismatch(f"{tag}: our score {dict(points)[p]} for {p}, face value {face}")
    return decisions


def cases(n: int, seed: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """n (players, options) pairs: 2-5 players, with and without special cards and reshuffling,
    several draw limits and some short max_turns."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        o = {"use_special_cards": i % 2 == 0, "reshuffle": i % 4 in (0, 3),
             "max_draw_cards": rng.choice([1, 2, 3, 5, 8]),
             "max_turns": rng.choice([100, 100, 100, 30, 500])}
        out.append((2 + i % 4, o))
    return out


def load(pyspiel: Any, players: int, o: dict[str, Any]) -> Any:
    return pyspiel.load_game("crazy_eights", {"players": players, "max_draw_cards": o["max_draw_cards"],
                                              "max_turns": o["max_turns"], "reshuffle": o["reshuffle"],
                                              "use_special_cards": o["use_special_cards"]})


def run_cases(pyspiel: Any, n: int, seed: int = 0) -> tuple[int, int]:
    rng = random.Random(seed)
    decisions = 0
    games: dict[tuple[Any, ...], Any] = {}
    for i, (players, o) in enumerate(cases(n, seed)):
        key = (players, *sorted(o.items()))
        game = games.get(key) or games.setdefault(key, load(pyspiel, players, o))
        decisions += play_both(game, players, o, rng, f"c8-{seed}-{i}")
    return n, decisions
