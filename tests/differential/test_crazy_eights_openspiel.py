"""Crazy Eights against OpenSpiel (open_spiel pinned in the dev extra): the same deals, every
decision's legal actions, the final hands and scores compared (tools/openspiel_c8.py). A rule
broken on purpose must make the comparison fail."""
from __future__ import annotations

import pyspiel
import pytest

import service.games.crazy_eights.actions as actions
from tools.openspiel_c8 import Mismatch, cases, run_cases

GAMES = 600


@pytest.mark.deep
def test_500_and_more_hands_agree_with_openspiel_move_by_move():
    cover = cases(GAMES)
    assert {p for p, _ in cover} == {2, 3, 4, 5}
    assert {o["use_special_cards"] for _, o in cover} == {True, False}
    assert len({o["max_draw_cards"] for _, o in cover}) >= 4
    games, decisions = run_cases(pyspiel, GAMES, seed=0)
    assert games == GAMES and decisions > GAMES * 20


def _broken_draw_limit(m, seat):
    rnd = m.rnd
    return bool(rnd.stock) and (rnd.owed > 0 or rnd.drawn <= int(m.options["max_draw_cards"]))


def _forgotten_stack(m, seat, _orig=actions.legal_cards):
    return [] if m.rnd.owed else _orig(m, seat)


def _pass_one_draw_early(m, seat):
    rnd = m.rnd
    return not rnd.owed and (not rnd.stock or rnd.drawn >= int(m.options["max_draw_cards"]) - 1)


@pytest.mark.parametrize("name, broken", [("may_draw", _broken_draw_limit), ("legal_cards", _forgotten_stack),
                                          ("may_pass", _pass_one_draw_early)])
def test_a_broken_rule_is_caught(monkeypatch, name, broken):
    monkeypatch.setattr(actions, name, broken)
    with pytest.raises(Mismatch):
        run_cases(pyspiel, 200, seed=0)
