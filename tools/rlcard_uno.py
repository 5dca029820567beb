"""The UNO oracle: our engine's ``uno-rlcard`` preset and RLCard 1.2's ``UnoGame`` on the same
deals, move by move.

RLCard has no chance nodes: its randomness is ``np_random.shuffle`` (the dealer's deck, the stock
after a turned-up wild draw four, every reshuffle of the played cards) and ``np_random.choice``
(the colour of a turned-up or drawn wild). ``play_both`` plays one hand in the event engine
(``service.games.engine``, as the application does) and hands RLCard a ``Replay`` in place of its
``np_random``: each shuffle puts RLCard's cards in the order of our next recorded ShuffleCommitted
(by face: two copies of a face are alike; RLCard deals with ``deck.pop()``, so our top card goes
last), each choice returns the colour of our next recorded random colour (StarterTurned, or a drawn
wild's CardPlayed). At every decision the seat to move, the legal actions (as RLCard's action
strings), the target, the hand sizes and, at the end, the winner (and with two players the payoffs)
are compared; a difference raises ``Mismatch``. A hand where RLCard itself raises (a draw from an
empty stock: its ``pop`` from an empty list) is returned as ``RAISED`` and counted apart.

Used by tests/differential (a budgeted number of hands) and ``python -m bench.rlcard_uno`` (more);
it lives in tools/ because both use it (tests/test_no_cross_imports.py).
"""
from __future__ import annotations

import hashlib
import random
from collections import deque
from typing import Any

from service.games.engine import legal_actions, outcome
from service.games.kernel.model import Context, CreateMatch, JoinSeat, ScoreRound, StartMatch
from service.games.kernel.table import RULES_VERSION
from service.games.registry import resolve_options
from service.games.shedding.commands import Draw, Play
from service.games.uno.cards import COLOR, FACE, TRAIT

PRESET = "uno-rlcard"
T0 = 1_700_000_000_000
RAISED = -1


class Mismatch(AssertionError):
    pass


def _seeds(tag: str, k: int = 8) -> tuple[bytes, ...]:
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(k))


def rl_face(card: Any) -> str:
    """Our face of an RLCard card object (``R-5``; a wild's colour is not part of it)."""
    return card.trait if card.type == "wild" else f"{card.color.upper()}-{card.trait}"


def rl_action(a: dict[str, Any]) -> str:
    """Our action object as RLCard's action string (``R-5:0`` -> ``r-5``, a wild naming G -> ``g-wild``, ``draw``)."""
    if a["type"] == "draw":
        return "draw"
    face = FACE[a["card"]]
    return f"{a['called_suit'].lower()}-{face}" if COLOR[a["card"]] is None else face.lower()


class Replay:
    """RLCard's ``np_random``, answering from our recorded shuffles and colours."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.orders: deque[list[str]] = deque()
        self.colors: deque[str] = deque()

    def shuffle(self, deck: list[Any]) -> None:
        if not self.orders:
            raise Mismatch(f"{self.tag}: RLCard shuffles, our engine did not")
        order = self.orders.popleft()
        pool: dict[str, list[Any]] = {}
        for card in deck:
            pool.setdefault(rl_face(card), []).append(card)
        try:
            deck[:] = [pool[FACE[cid]].pop() for cid in reversed(order)]
        except (KeyError, IndexError):
            raise Mismatch(f"{self.tag}: RLCard shuffles other cards than ours") from None
        if any(pool.values()):
            raise Mismatch(f"{self.tag}: RLCard shuffles more cards than ours")

    def choice(self, options: list[str]) -> str:
        if not self.colors:
            raise Mismatch(f"{self.tag}: RLCard draws a colour, our engine did not")
        return self.colors.popleft().lower()


def _random_color(e: Any) -> bool:
    """A wild whose colour our engine drew (turned up as the starter, or drawn and played at once)."""
    wild = COLOR[e.data["card"]] is None
    return wild and bool(e.data["color"]) if e.type == "StarterTurned" else wild and bool(e.data.get("drawn"))


def _feed(replay: Replay, events: list[Any]) -> None:
    for e in events:
        if e.type == "ShuffleCommitted":
            replay.orders.append(list(e.secret["order"]))
        elif e.type in ("StarterTurned", "CardPlayed") and _random_color(e):
            replay.colors.append(e.data["color"])


def _compare(tag: str, step: int, state: Any, game: Any) -> None:
    rnd = state.rnd
    seat = rnd.current
    if game.is_over():
        raise Mismatch(f"{tag} step {step}: RLCard's game is over, ours waits for seat {seat}")
    if game.round.current_player != rnd.seats.index(seat):
        raise Mismatch(f"{tag} step {step}: to move ours {seat}, RLCard {game.round.current_player}")
    target = game.round.target
    ours = f"{rnd.color.lower()}-{TRAIT[rnd.target]}"
    if f"{target.color}-{target.trait}" != ours:
        raise Mismatch(f"{tag} step {step}: target ours {ours}, RLCard {target.color}-{target.trait}")
    sizes = [len(rnd.hands[s]) for s in rnd.seats]
    if sizes != [len(p.hand) for p in game.players]:
        raise Mismatch(f"{tag} step {step}: hand sizes ours {sizes}, RLCard {[len(p.hand) for p in game.players]}")
    mine = {rl_action(a) for a in legal_actions(state, seat, T0)}
    theirs = set(game.get_legal_actions())
    if mine != theirs:
        raise Mismatch(f"{tag} step {step}: legal ours {sorted(mine)}, RLCard {sorted(theirs)}")


def play_both(uno_game: type, players: int, rng: random.Random, tag: str) -> int:
    """One hand on both engines with random legal actions; the number of decisions, or RAISED when
    RLCard raised before the hand ended."""
    opts, _ = resolve_options(PRESET, {}, 4)
    state: Any = None
    k = 0
    events: list[Any] = []

    def run(cmd: Any) -> None:
        nonlocal state, k
        k += 1
        d = outcome(state, cmd, Context(T0, _seeds(f"{tag}/{k}")))
        state = d.state
        events.extend(d.events)

    run(CreateMatch(tag, PRESET, opts, 4, rules_version=RULES_VERSION))
    for i in range(players):
        run(JoinSeat(f"p{i}"))
    events.clear()
    run(StartMatch())
    replay = Replay(tag)
    _feed(replay, events)
    game = uno_game(num_players=players)
    game.np_random = replay
    game.init_game()
    decisions = 0
    while state.rnd.phase == "play":
        _compare(tag, decisions, state, game)
        seat = state.rnd.current
        acts = legal_actions(state, seat, T0)
        a = acts[int(rng.random() * len(acts))]
        events.clear()
        run(Play(seat, a["card"], a.get("called_suit")) if a["type"] == "play" else Draw(seat))
        _feed(replay, events)
        decisions += 1
        try:
            game.step(rl_action(a))
        except IndexError:
            if state.rnd.phase == "play" or not game.is_over():
                return RAISED
        if replay.orders or replay.colors:
            raise Mismatch(f"{tag} step {decisions}: RLCard left our randomness unused")
    if not game.is_over():
        raise Mismatch(f"{tag}: our hand ended, RLCard's goes on")
    winner = state.rnd.winner
    if game.round.winner != [state.rnd.seats.index(winner)]:
        raise Mismatch(f"{tag}: winner ours {winner}, RLCard {game.round.winner}")
    run(ScoreRound(1))
    if players == 2:
        points = dict(state.scores[0].points)
        if [points[s] for s in state.rnd.seats] != game.get_payoffs():
            raise Mismatch(f"{tag}: payoffs ours {points}, RLCard {game.get_payoffs()}")
    return decisions


def run_cases(uno_game: type, n: int, seed: int = 0) -> tuple[int, int, int]:
    """n hands with 2, 3 and 4 players in turn: (hands compared, hands RLCard raised in, decisions)."""
    rng = random.Random(seed)
    games = raised = decisions = 0
    for i in range(n):
        got = play_both(uno_game, 2 + i % 3, rng, f"uno{seed}/{i}")
        if got == RAISED:
            raised += 1
        else:
            games += 1
            decisions += got
    return games, raised, decisions
