"""UNO against RLCard 1.2 (rlcard pinned in the dev extra): the same deals and colours, every
decision's seat to move, legal actions, target and hand sizes, and the winner compared
(tools/rlcard_uno.py). A rule broken on purpose must make the comparison fail. The long run
(thousands of hands) is ``python -m bench.rlcard_uno``."""
from __future__ import annotations

import pytest
from rlcard.games.uno.game import UnoGame

import service.games.uno.actions as actions
import service.games.uno.flow as flow
import service.games.uno.moves as moves
import service.games.uno.play as play
from service.games.shedding.commands import Draw
from service.games.uno.cards import COLOR, TRAIT, WILD_DRAW_4
from tools.rlcard_uno import Mismatch, run_cases

GAMES = 300


@pytest.mark.deep
def test_hundreds_of_hands_agree_with_rlcard_move_by_move():
    games, raised, decisions = run_cases(UnoGame, GAMES, seed=0)
    assert games + raised == GAMES and games >= GAMES * 0.95
    assert decisions > GAMES * 20


def _four_any_time(m, seat, _orig=actions.legal_cards):
    """Wild draw four playable beside other cards (RLCard: only when nothing else is)."""
    fours = [c for c in m.rnd.hands[seat] if TRAIT[c] == WILD_DRAW_4]
    return list(dict.fromkeys(_orig(m, seat) + fours))


def _trait_matches_a_wild(m, seat, _orig=actions.legal_cards):
    """A low number playable on a wild whatever its colour (RLCard: on a wild only the colour matches)."""
    rnd = m.rnd
    if COLOR[rnd.target] is not None:
        return _orig(m, seat)
    extra = [c for c in rnd.hands[seat] if COLOR[c] is not None and TRAIT[c] in ("0", "1", "2")]
    return list(dict.fromkeys(_orig(m, seat) + extra))


def _drawn_match_kept(tx, cmd):
    """A drawn card of the colour in play kept, not played at once."""
    seat = cmd.seat
    play._own_turn(tx, seat, cmd.announce, 1)
    flow.draw_cards(tx, seat, 1, "draw", by=seat)
    rnd = tx.m.rnd
    flow.start_turn(tx, play.step(rnd.seats, seat, rnd.direction))


def _reverse_skips_with_two(tx, seat, card, _effect=play.effect):
    """A reverse with two players acting as a skip (printed rules; RLCard: the other player moves)."""
    rnd = tx.m.rnd
    if TRAIT[card] == "reverse" and len(rnd.seats) == 2:
        tx.emit("DirectionReversed", None, {"direction": -rnd.direction})
        flow.start_turn(tx, seat)
        return
    _effect(tx, seat, card)


@pytest.mark.parametrize("module, name, broken", [
    (actions, "legal_cards", _four_any_time),
    (actions, "legal_cards", _trait_matches_a_wild),
    (moves.SEAT, Draw, _drawn_match_kept),
    (play, "effect", _reverse_skips_with_two),
], ids=["wild-draw-4-any-time", "trait-on-a-wild", "drawn-match-kept", "reverse-skips-with-two"])
def test_a_broken_rule_is_caught(monkeypatch, module, name, broken):
    if module is moves.SEAT:
        monkeypatch.setitem(module, name, broken)
    else:
        monkeypatch.setattr(module, name, broken)
    if module is actions:
        monkeypatch.setattr(play, name, broken)
    with pytest.raises(Mismatch):
        run_cases(UnoGame, 150, seed=0)
