"""The terminal table's pure pieces: cards, actions, keys, seats, table, turn and scores."""
from __future__ import annotations

import pytest

from service.tui import render
from service.tui.cli import parse_options
from service.tui.client import problem_of

JACK = [{"type": "play", "card": "JH:0", "called_suit": s} for s in "CDHS"]
LEGAL = JACK + [{"type": "play", "card": "7H:0"}, {"type": "draw"}, {"type": "take_penalty"}]


@pytest.mark.parametrize("card, label", [("10S:1", "10♠S"), ("7H", "7♥H"), ("QD:0", "Q♦D"), ("AC:1", "A♣C"),
                                         ("cat:k2", "cat:k2"), ("1S:0", "1S:0")])
def test_cards_read_by_symbol_and_letter(card, label):
    assert render.card_label(card) == label


def test_red_suits_and_suit_labels():
    assert render.is_red("7H:0") and render.is_red("KD:1") and not render.is_red("7S:0")
    assert not render.is_red("cat:k1")
    assert [render.suit_label(s) for s in "HDSC"] == ["♥H", "♦D", "♠S", "♣C"]


def test_an_action_names_a_card_by_id_short_form_or_kind():
    assert render.refers_to({"type": "play", "card": "JH:0"}, "JH:0")
    assert render.refers_to({"type": "play", "card": "JH"}, "JH:1")
    assert not render.refers_to({"type": "play", "card": "JH:0"}, "JH:1")
    assert render.refers_to({"type": "pass_card", "kind": "k2", "step": 4}, "cat:k2")
    assert not render.refers_to({"type": "pass_card", "kind": "k2"}, "cat:k3")
    assert not render.refers_to({"type": "play", "card": "7H:0", "called_suit": "S"}, "cat:S")
    assert not render.refers_to({"type": "draw"}, "7H:0")


def test_card_actions_and_free_actions_split_the_legal_list():
    hand = ["JH:0", "7H:0", "8S:1"]
    assert render.actions_for("JH:0", LEGAL) == JACK
    assert render.actions_for("8S:1", LEGAL) == []
    assert render.free_actions(hand, LEGAL) == [{"type": "draw"}, {"type": "take_penalty"}]


def test_choices_say_what_tells_them_apart():
    assert [render.choice_label(a, JACK) for a in JACK] == ["call ♣C", "call ♦D", "call ♥H", "call ♠S"]
    last = [{"type": "play", "card": "5S:0", "announce": True}, {"type": "play", "card": "5S:0"}]
    assert [render.choice_label(a, last, {"announce_word": "Mau"}) for a in last] == [
        '+ announce "Mau"', "no announcement"]


def test_action_labels():
    assert render.action_label({"type": "take_penalty"}) == "take penalty"
    assert render.action_label({"type": "announce"}, {"announce_word": "мяу-мяу"}) == 'announce "мяу-мяу"'
    assert render.action_label({"type": "pass_card", "kind": "k2", "step": 4}) == "pass card (kind k2, step 4)"
    assert render.action_label({"type": "play", "card": "JH:0", "called_suit": "S"}) == \
        "play (card J♥H, called suit ♠S)"


def test_keys_come_from_the_actions_names_and_never_repeat_or_quit():
    actions = [{"type": "draw"}, {"type": "pass"}, {"type": "take_penalty"}, {"type": "accept_skip"},
               {"type": "announce"}, {"type": "quit_now"}]
    keys = [k for k, _ in render.assign_keys(actions)]
    assert keys == ["d", "p", "t", "a", "n", "u"]
    assert len(set(keys)) == len(keys) and "q" not in keys
    assert [a for _, a in render.assign_keys(actions)] == actions


def test_turn_line_counts_down_and_names_the_seat():
    view = {"status": "running", "phase": "play", "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bot 1"}],
            "turn": {"seat": 1, "deadline": 10_000}}
    assert render.turn_line(view, 0, 2_500) == "bot 1's turn (8 s left)"
    view["turn"]["seat"] = 0
    assert render.turn_line(view, 0, 9_999) == "your turn (1 s left)"
    assert render.turn_line(view, 0, 20_000) == "your turn (0 s left)"
    view["turn"] = {"seat": None, "deadline": 5_000, "step": 3}
    assert render.turn_line(view, 0, 0) == "everyone acts at once (5 s left) — step 3"
    view["turn"] = {"seat": 0, "turn_id": 7, "deadline": None, "draws_left": 2}
    assert render.turn_line(view, 0, 0) == "your turn — draws left 2"
    assert render.turn_line(dict(view, phase="intermission", turn=None, intermission_deadline=3_000), 0, 0) == \
        "round over: next deal in 3 s"
    assert render.turn_line({"status": "finished"}, 0, 0) == "the match is over"
    assert render.turn_line({"status": "open", "seats": [{}, {}]}, 0, 0) == "waiting to start: 2 seated"


def test_table_lines_put_top_card_and_called_suit_first_and_skip_per_seat_and_deadlines():
    view = {"table": {"pending_draw": 4, "top_card": "JD:0", "called_suit": "S", "stock_count": 30,
                      "step_deadline": 123, "parasites": {"0": []}, "passed": [1, 2], "race": None}}
    assert render.table_lines(view) == ["top card: J♦D", "called suit: ♠S (spades)", "pending draw: 4",
                                        "stock count: 30", "passed: 1, 2"]
    assert render.table_lines({"table": None}) == []


def test_seat_lines_show_counts_turn_you_and_extras():
    view = {"status": "running", "turn": {"seat": 1},
            "seats": [{"seat": 0, "name": "ann", "kind": "human", "state": "active", "hand_count": 3, "score": 12},
                      {"seat": 1, "name": "bot 1", "kind": "bot", "strength": "easy", "state": "waiting",
                       "hand_count": 5, "score": 0, "parasites": ["p:flea"]}]}
    assert render.seat_lines(view, 0) == [
        "  0: ann (you) — human — 3 cards — score 12",
        "▶ 1: bot 1 — bot easy [waiting] — 5 cards — score 0; parasites: p:flea"]


def test_scores_by_round_with_totals_then_standings():
    view = {"seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bot 1"}],
            "scores": [{"round": 1, "points": {"0": 0, "1": 23}, "totals": {"0": 0, "1": 23}},
                       {"round": 2, "points": {"0": 7, "1": 0}, "totals": {"0": 7, "1": 23}}],
            "standings": [{"seat": 1, "name": "bot 1", "rank": 2, "total": 23},
                          {"seat": 0, "name": "ann", "rank": 1, "total": 7}]}
    lines = render.score_lines(view)
    assert lines[0].split() == ["round", "ann", "bot", "1"]
    assert lines[1].split() == ["1", "0", "23"] and lines[2].split() == ["2", "7", "0"]
    assert lines[3].split() == ["total", "7", "23"]
    assert lines[4:] == ["standings:", "  1. ann — 7", "  2. bot 1 — 23"]
    assert render.score_lines({"scores": [], "standings": None}) == []


def test_event_lines_are_short_and_name_the_seat():
    view = {"seats": [{"seat": 1, "name": "bot 1"}]}
    event = {"seq": 12, "type": "CardPlayed", "seat": 1,
             "data": {"seat": 1, "card": "7H:0", "hand_size": 3, "deadline": 179619, "announce": False}}
    assert render.event_line(event, view) == "#12 bot 1: CardPlayed card 7♥H, hand size 3"
    assert render.event_line({"seq": 3, "type": "RoundStarted", "seat": None, "data": {}}, view) == \
        "#3 RoundStarted"


def test_problems_read_their_detail_and_code():
    exc = problem_of(409, '{"type": "about:blank", "status": 409, "code": "not_your_turn", "detail": "wait"}')
    assert (exc.status, exc.code, exc.detail) == (409, "not_your_turn", "wait")
    other = problem_of(502, "<html>bad gateway</html>")
    assert other.code == "http_error" and "502" in other.detail


def test_options_from_the_command_line():
    assert parse_options(["hand_size=4", 'bot_delay_ms={"easy":[0,300]}', "announce_word=Mau"]) == {
        "hand_size": 4, "bot_delay_ms": {"easy": [0, 300]}, "announce_word": "Mau"}
    with pytest.raises(SystemExit):
        parse_options(["hand_size"])


def test_a_game_this_client_has_never_seen_renders_from_its_view():
    """Crazy Eights' shape (being added to the registry): its own table fields, an eight calling a
    suit, draw and pass: no code here knows it."""
    view = {"status": "running", "phase": "play", "options": {},
            "seats": [{"seat": 0, "name": "ann", "kind": "human", "hand_count": 2, "score": 0}],
            "table": {"top_card": "8C:0", "called_suit": "D", "suit": "D", "drawn_this_turn": 1,
                      "max_draw_cards": 3, "plays": 12, "passes": 0},
            "turn": {"seat": 0, "turn_id": 4, "deadline": None, "draws_left": 2},
            "you": {"seat": 0, "hand": ["8S:0", "5D:0"],
                    "legal_actions": [{"type": "play", "card": "8S:0", "called_suit": s} for s in "CDHS"]
                    + [{"type": "play", "card": "5D:0"}, {"type": "draw"}, {"type": "pass"}]}}
    legal, hand = view["you"]["legal_actions"], view["you"]["hand"]
    assert render.table_lines(view) == ["top card: 8♣C", "called suit: ♦D (diamonds)", "suit: ♦D",
                                        "drawn this turn: 1", "max draw cards: 3", "plays: 12"]
    eights = render.actions_for("8S:0", legal)
    assert [render.choice_label(a, eights) for a in eights] == ["call ♣C", "call ♦D", "call ♥H", "call ♠S"]
    assert [k for k, _ in render.assign_keys(render.free_actions(hand, legal))] == ["d", "p"]
    assert render.turn_line(view, 0, 0) == "your turn — draws left 2"


def test_the_command_line_becomes_a_plan():
    import argparse

    from service.tui.cli import DEFAULT_SERVER, add_parser, plan_of
    from service.tui.session import Plan

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="cmd"))
    args = parser.parse_args(["play", "--variant", "prsi", "--bots", "easy,medium", "--option", "hand_size=4",
                              "--no-start", "--name", "ann"])
    assert args.server == DEFAULT_SERVER == "http://127.0.0.1:8000"
    assert plan_of(args) == Plan(variant="prsi", bots=("easy", "medium"), options={"hand_size": 4},
                                 name="ann", start=False)
    assert plan_of(parser.parse_args(["play", "--watch", "g1"])) == Plan(watch="g1")
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--watch", "g1", "--join", "g2"])
