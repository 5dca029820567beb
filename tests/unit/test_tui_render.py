"""The terminal table's pure pieces: cards, actions, keys, seats, table, turn and scores."""
from __future__ import annotations

import pytest

from service.tui import render
from service.tui.cli import parse_options
from service.tui.client import problem_of
from service.tui.game import Game
from tests.unit.client_entry import entry

JACK = [{"type": "play", "card": "JH:0", "called_suit": s} for s in "CDHS"]
LEGAL = JACK + [{"type": "play", "card": "7H:0"}, {"type": "draw"}, {"type": "take_penalty"}]


def _game(view: dict | None = None) -> Game:
    return Game(entry(), view=view or {"options": {"announce_word": "Mau"}})


@pytest.mark.parametrize("card, label", [("10S:1", "10♠S"), ("7H", "7♥H"), ("QD:0", "Q♦D"), ("AC:1", "A♣C"),
                                         ("cat:k2", "🐈 k2"), ("1S:0", "1S:0")])
def test_cards_read_by_their_face_symbol_and_letter(card, label):
    assert _game().card_label(card) == label


def test_cards_are_named_in_the_games_words():
    game = _game()
    assert game.card_name("QH:1") == "queen of hearts" and game.card_name("7S:0") == "7 of spades"
    assert game.card_name("cat:k2") == "cat k2" and game.card_name("zz:9") == "zz:9"


def test_red_hints_and_suit_labels():
    game = _game()
    assert game.is_red("7H:0") and game.is_red("KD:1") and not game.is_red("7S:0")
    assert not game.is_red("cat:k1")
    assert [game.suit_label(s) for s in "HDSC"] == ["♥H", "♦D", "♠S", "♣C"]
    assert game.suit_spoken("S") == "♠S (spades)" and game.suit_spoken("X") == "X"


def test_an_action_plays_the_card_its_marks_name():
    game = _game()
    assert game.card_of({"type": "play", "card": "JH:0", "called_suit": "S"}) == "JH:0"
    assert game.card_of({"type": "pass_card", "card": "cat:k2", "kind": "k2", "step": 4}) == "cat:k2"
    assert game.card_of({"type": "draw"}) is None
    assert game.card_of({"type": "unknown", "card": "JH:0"}) is None  # no mark: an argument, not a card


def test_card_actions_and_free_actions_split_the_legal_list():
    game, hand = _game(), ["JH:0", "7H:0", "8S:1"]
    assert render.actions_for(game, "JH:0", LEGAL) == JACK
    assert render.actions_for(game, "8S:1", LEGAL) == []
    assert render.free_actions(game, hand, LEGAL) == [{"type": "draw"}, {"type": "take_penalty"}]
    copies = [{"type": "pass_card", "card": "cat:k2", "kind": "k2", "step": 1}]  # equal ids: one card's copies
    assert render.actions_for(game, "cat:k2", copies) == copies and not render.free_actions(game, ["cat:k2"] * 2, copies)


def test_choices_say_what_tells_them_apart():
    game = _game()
    assert [render.choice_label(game, a, JACK) for a in JACK] == [
        "call ♣C (clubs)", "call ♦D (diamonds)", "call ♥H (hearts)", "call ♠S (spades)"]
    last = [{"type": "play", "card": "5S:0", "announce": True}, {"type": "play", "card": "5S:0", "announce": False}]
    assert [render.choice_label(game, a, last) for a in last] == ["say “Mau”", "without a word"]


def test_action_labels_are_the_games_words():
    game = _game()
    assert render.action_label(game, {"type": "take_penalty"}) == "Take the penalty"
    game.view = {"options": {"announce_word": "мяу-мяу"}}
    assert render.action_label(game, {"type": "announce"}) == "Say “мяу-мяу”"
    assert render.action_label(game, {"type": "pass_card", "card": "cat:k2", "kind": "k2", "step": 4}) == "Pass 🐈 k2"
    assert render.action_label(game, {"type": "play", "card": "JH:0", "called_suit": "S"}) == \
        "Play J♥H (call ♠S (spades))"
    assert render.action_label(game, {"type": "new_thing", "x_y": 3}) == "new thing (x y 3)"  # no words: as it is


def test_keys_come_from_the_actions_names_and_never_repeat_or_quit():
    actions = [{"type": "draw"}, {"type": "pass"}, {"type": "take_penalty"}, {"type": "accept_skip"},
               {"type": "announce"}, {"type": "quit_now"}]
    keys = [k for k, _ in render.assign_keys(actions)]
    assert keys == ["d", "p", "t", "a", "n", "u"]
    assert len(set(keys)) == len(keys) and "q" not in keys
    assert [a for _, a in render.assign_keys(actions)] == actions


def test_turn_line_counts_down_the_turns_timer_and_names_the_seat():
    view = {"status": "running", "phase": "play", "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bot 1"}],
            "turn": {"seat": 1, "deadline": 10_000}}
    game = _game(view)
    assert render.turn_line(game, view, 0, 2_500) == "bot 1's turn (8 s left)"
    view["turn"]["seat"] = 0
    assert render.turn_line(game, view, 0, 9_999) == "your turn (1 s left)"
    assert render.turn_line(game, view, 0, 20_000) == "your turn (0 s left)"
    view["turn"] = {"seat": None, "deadline": 5_000, "step": 3}
    assert render.turn_line(game, view, 0, 0) == "Everyone passes a cat (step 3) (5 s left)"
    view["turn"] = {"seat": 1, "deadline": None, "step": 3}
    assert render.turn_line(game, view, 0, 0) == "bot 1's turn — step: 3"
    view["turn"] = {"seat": None, "deadline": None}
    assert render.turn_line(game, view, 0, 0) == "everyone acts at once"
    view["turn"] = {"seat": 0, "turn_id": 7, "deadline": None, "draws_left": 2}
    assert render.turn_line(game, view, 0, 0) == "your turn — Draws left: 2"
    assert render.turn_line(game, dict(view, phase="intermission", turn=None, intermission_deadline=3_000), 0, 0) == \
        "round over: next deal in 3 s"
    assert render.turn_line(game, dict(view, phase="intermission", turn=None), 0, 0) == "between rounds"
    assert render.turn_line(game, {"status": "finished"}, 0, 0) == "the match is over"
    assert render.turn_line(game, {"status": "open", "seats": [{}, {}]}, 0, 0) == "waiting to start: 2 seated"


def test_table_lines_follow_the_marks():
    view = {"seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bea"}],
            "table": {"pending_draw": 4, "top_card": "JD:0", "called_suit": "S", "stock_count": 30,
                      "step_deadline": 123, "passed": [1], "dealer": 0, "race": None, "direction": -1,
                      "round_end": {"reason": "empty_hand", "winner": 1}, "unknown_thing": "x"}}
    assert render.table_lines(_game(view), view) == [
        "Top card: J♦D", "Called suit: ♠S (spades)", "Round over (a hand emptied); winner: bea", "Cards to draw: 4",
        "Stock: 30", "Direction: counter-clockwise ↺", "unknown thing: x"]
    assert render.table_lines(_game(), {"table": None}) == []


def test_seat_lines_show_counts_turn_you_and_the_per_seat_facts():
    view = {"status": "running", "turn": {"seat": 1}, "table": {"passed": [1], "dealer": 0,
                                                                "race": {"slaps": [1, 0]}},
            "seats": [{"seat": 0, "name": "ann", "kind": "human", "state": "active", "hand_count": 3, "score": 12},
                      {"seat": 1, "name": "bot 1", "kind": "bot", "strength": "easy", "state": "waiting",
                       "hand_count": 5, "score": 0, "parasites": ["par:flea"]}]}
    assert render.seat_lines(_game(view), view, 0) == [
        "  0: ann (you) · 3 cards · score 12; dealer; slapped #2",
        "▶ 1: bot 1 · bot easy [waiting] · 5 cards · score 0; passed ✓; slapped #1; Parasites: par:flea"]
    view["seats"][0]["hand_count"] = 1
    assert "· 1 card ·" in render.seat_lines(_game(view), view, 0)[0]


def test_scores_a_seat_per_row_by_round_with_totals_and_what_points_mean():
    view = {"seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bot 1"}],
            "scores": [{"round": 1, "points": {"0": 0, "1": 23}, "totals": {"0": 0, "1": 23}},
                       {"round": 2, "points": {"0": 7, "1": 0}, "totals": {"0": 7, "1": 23}}],
            "standings": [{"seat": 1, "name": "bot 1", "rank": 2, "total": 23},
                          {"seat": 0, "name": "ann", "rank": 1, "total": 7}]}
    lines = render.score_lines(_game(view), view)
    assert lines[0] == "penalty points: fewer is better"
    assert lines[1].split() == ["round", "1", "2", "total"]
    assert lines[2].split() == ["ann", "0", "7", "7"] and lines[3].split() == ["bot", "1", "23", "0", "23"]
    assert len(lines) == 4  # the standings are the summary's
    assert render.score_lines(_game(), {"scores": [], "standings": None}) == []


def test_scores_fit_the_width_with_the_latest_rounds_and_keep_a_total_for_a_seat_out_of_play():
    """Twelve rounds in 30 columns: the latest that fit, `…` for the rest, every line within the
    width; a seat knocked out after round 1 (absent from the later totals) keeps its last total."""
    view = {"seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "a very long name indeed"}],
            "scores": [{"round": 1, "points": {"0": 0, "1": 230}, "totals": {"0": 0, "1": 230}}]
            + [{"round": r, "points": {"0": r}, "totals": {"0": r * 10}} for r in range(2, 13)]}
    lines = render.score_lines(_game(view), view, width=30)
    assert all(len(line) <= 30 for line in lines[1:]), lines  # the caption wraps on screen
    assert lines[1].split()[:2] == ["round", "…"] and lines[1].split()[-2:] == ["12", "total"]
    assert lines[2].split()[-1] == "120" and lines[3].startswith("a very long…") and lines[3].split()[-1] == "230"


def test_event_lines_are_the_games_words():
    view = {"seats": [{"seat": 1, "name": "bot 1"}]}
    game = _game(view)
    event = {"seq": 12, "type": "CardPlayed", "seat": 1,
             "data": {"seat": 1, "card": "7H:0", "hand_size": 3, "deadline": 179619, "announce": False}}
    assert render.event_line(game, event) == "bot 1 played 7 of hearts"
    assert render.event_line(game, {"seq": 3, "type": "RoundStarted", "seat": None, "data": {"round": 2}}) == \
        "Round 2 dealt"
    assert render.event_line(game, {"seq": 4, "type": "TurnStarted", "seat": 1, "data": {}}) is None  # left out
    assert render.event_line(game, {"seq": 5, "type": "NewThing", "seat": 1, "data": {"card": "7H:0", "n_x": 2}}) == \
        "bot 1: new thing card 7H:0, n x 2"  # no words for it: its facts as they are, never a CamelCase name
    # an end names its winner, in the words of the game or after them
    game.words["event.RoundEnded"] = "Round over ({reason:end})"
    game.words["end.empty_hand"] = "a hand emptied"
    assert render.event_line(game, {"seq": 6, "type": "RoundEnded", "seat": None,
                                    "data": {"reason": "empty_hand", "winner": 1}}) == "Round over (a hand emptied) — bot 1 wins"


def test_the_end_of_a_round_and_of_the_match_are_told_with_the_winner_the_points_and_the_hands():
    view = {"status": "running", "round": 2, "turn": None, "intermission_deadline": 1, "end_reason": "empty_hand",
            "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bot 1"}],
            "scores": [{"round": 2, "points": {"0": 0, "1": 23}, "totals": {"0": 4, "1": 30}}], "standings": None}
    game = _game(view)
    assert render.between_rounds(view) and not render.between_rounds({**view, "turn": {"seat": 0}})
    lines = render.summary_lines(game, view, {"reason": "empty_hand", "winner": 0}, {"0": [], "1": ["7H:0", "cat:k2"]})
    assert lines == ["Round 2 over (a hand emptied): ann wins", "round 2, penalty points: fewer is better:",
                     "  ann: 0 (total 4)", "  bot 1: 23 (total 30)", "  bot 1 held: 7♥H 🐈 k2"]
    over = {**view, "status": "finished", "standings": [{"seat": 1, "name": "bot 1", "rank": 2, "total": 30},
                                                       {"seat": 0, "name": "ann", "rank": 1, "total": 4}]}
    assert render.summary_lines(game, over, None, None) == [
        "Game over (a hand emptied): ann wins", "penalty points: fewer is better:", "  1. ann — 4", "  2. bot 1 — 30"]
    assert render.summary_lines(game, over, {"reason": "x", "winners": [0, 1]}, None)[0] == "Game over (x): ann and bot 1 win"
    assert render.revealed_hands({"hands": {"0": ["7H:0"]}}) == {"0": ["7H:0"]}
    assert render.revealed_hands({"hands": 3}) is None and render.revealed_hands({}) is None


def test_a_cards_plays_split_by_what_they_say():
    game = _game()
    plays = [{"type": "play", "card": "JH:0", "called_suit": s, **extra} for s in "CD"
             for extra in ({}, {"announce": True})]
    plain, said = render.split_by_flags(game, plays)
    assert plain == [plays[0], plays[2]] and said == [plays[1], plays[3]]
    assert render.flag_words(game, said[0]) == "say “Mau”"


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


def test_with_no_catalogue_entry_a_view_still_renders_as_it_is():
    """A variant the catalogue does not describe (another server, a newer game): ids, field names
    and action types as they are, every card playable through its `card` field's absence of marks
    (an unmarked field is an argument, so its action is a button)."""
    view = {"status": "running", "phase": "play", "options": {},
            "seats": [{"seat": 0, "name": "ann", "kind": "human", "hand_count": 2, "score": 0}],
            "table": {"top_card": "8C:0", "drawn_this_turn": 1}, "turn": {"seat": 0, "draws_left": 2},
            "you": {"seat": 0, "hand": ["8S:0"], "legal_actions": [{"type": "play", "card": "8S:0"}, {"type": "draw"}]}}
    game = Game({}, view=view)
    assert render.table_lines(game, view) == ["top card: 8C:0", "drawn this turn: 1"]
    assert render.free_actions(game, view["you"]["hand"], view["you"]["legal_actions"]) == view["you"]["legal_actions"]
    assert render.action_label(game, {"type": "play", "card": "8S:0"}) == "play (card 8S:0)"
    assert render.turn_line(game, view, 0, 0) == "your turn — draws left: 2"


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


def test_a_list_of_words_is_told_word_by_word() -> None:
    """A `word` field holding a list (Sakapuss's cats in play, k0 ... by name) reads each item by its
    word, not as the list's repr ("['k0', 'k2']" before)."""
    catalogue = entry()
    catalogue["words"] = {**catalogue["words"], "en": {**catalogue["words"]["en"], "kinds.k0": "▲ ginger",
                                                       "kinds.k2": "■ Siamese"}}
    game = Game(catalogue, view={"options": {}})
    assert game.read_field("kinds", ["k0", "k2"], "word") == "▲ ginger, ■ Siamese"
    assert game.read_field("kinds", ["k0", "k9"], "word") == "▲ ginger, k9"  # a word it lacks: the id
