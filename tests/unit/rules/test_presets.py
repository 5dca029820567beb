"""§8.4 presets served by one engine (prsi-traditional's counterable ace skip and single round),
§8.5 validation rules 1-7, the variants catalog, and actions foreign to a shedding table."""
import pytest

from service.api.codes import status_of
from service.games.engine import decide, legal_actions
from service.games.kernel.model import RuleViolation, ScoreRound
from service.games.registry import resolve_options, variants_catalog
from service.games.sakapuss.commands import PassCard, Slap
from service.games.shedding.commands import AcceptSkip, Draw, Play, TakePenalty
from service.games.shedding.game import GAME as SHEDDING_GAME
from service.games.shedding.options import PRESETS, OptionError
from service.games.shedding.state import PLAY, RESPOND_SKIP

from .helpers import Game, crafted

SHEDDING = SHEDDING_GAME.variants  # every preset the shedding games serve
TRAD = "prsi-traditional"


def types(evs):
    return [e.type for e in evs]


def refused(g, cmd, code, status=422):
    with pytest.raises(RuleViolation) as exc:
        decide(g.state, cmd, g.ctx())
    assert (exc.value.code, status_of(exc.value.code)) == (code, status)
    return exc.value


def names(exc):
    return [e["option"] for e in exc.value.errors]


# ------------------------------------------------------------------ prsi-traditional


def test_traditional_preset_values():
    o = PRESETS[TRAD]
    assert (len(o["deck_ranks"]), o["deck_copies"], o["hand_size"], o["wild_rank"]) == (8, 1, 4, "Q")
    assert (o["skip_rank"], o["skip_counterable"], o["ace_plays_again"], o["nine_reverses"]) == ("A", True, False, False)
    assert o["match_end_mode"] == "single_round" and o["card_points"]["J"] == 2


def test_traditional_ace_skip_is_countered_by_an_ace_then_accepted():
    g = crafted(3, [["AH:0", "9S:0", "10C:0", "8C:0"], ["AS:0", "9D:0", "10D:0"],
                    ["8D:0", "9C:0", "KS:0"]], "10H:0", variant=TRAD)
    evs = g.do(Play(0, "AH"))
    assert types(evs) == ["CardPlayed", "TurnStarted"]
    assert evs[-1].data == {"seat": 1, "turn_id": 2, "phase": RESPOND_SKIP, "deadline": g.now + 45_000}
    assert legal_actions(g.m, 1, g.now) == [{"type": "play", "card": "AS:0"}, {"type": "accept_skip"}]
    g.do(Play(1, "AS"))
    assert (g.m.rnd.current, g.m.rnd.phase) == (2, RESPOND_SKIP)
    assert legal_actions(g.m, 2, g.now) == [{"type": "accept_skip"}]
    refused(g, Draw(2), "wrong_phase", 409)
    evs = g.do(AcceptSkip(2))
    assert types(evs) == ["SkipAccepted", "TurnStarted"] and evs[-1].data["seat"] == 0
    rnd = g.m.rnd
    assert (rnd.phase, rnd.pending_skip, rnd.top_live, rnd.turn_id) == (PLAY, False, False, 4)
    assert {"type": "play", "card": "9S:0"} in legal_actions(g.m, 0, g.now)  # plays on the spent ace


def test_traditional_two_players_accepted_skip_returns_to_the_ace_player():
    g = crafted(2, [["AH:0", "9S:0", "10C:0"], ["9D:0", "10D:0"]], "10H:0", variant=TRAD)
    g.do(Play(0, "AH"))
    evs = g.do(AcceptSkip(1))
    assert evs[-1].data["seat"] == 0 and g.m.rnd.phase == PLAY


def test_traditional_queen_is_the_wild_card_and_the_jack_is_not():
    g = crafted(2, [["QC:0", "JC:0", "8S:0", "KS:0"], ["9D:0", "10D:0"]], "10H:0", variant=TRAD)
    acts = legal_actions(g.m, 0, g.now)
    assert [a.get("called_suit") for a in acts if a.get("card") == "QC:0"] == ["C", "D", "H", "S"]
    assert not any(a.get("card") == "JC:0" for a in acts)
    g.do(Play(0, "QC", called_suit="D"))
    assert g.m.rnd.called_suit == "D"


def test_traditional_sevens_accumulate_and_draw_ends_the_turn():
    g = crafted(3, [["7H:0", "9S:0", "10C:0"], ["7S:0", "9D:0", "10D:0"], ["8D:0", "9C:0", "KS:0"]],
                "10H:0", variant=TRAD)
    g.do(Play(0, "7H"))
    g.do(Play(1, "7S"))
    evs = g.do(TakePenalty(2))
    assert evs[0].data["amount"] == 4 and evs[1].data["count"] == 4
    evs = g.do(Draw(0))
    assert types(evs) == ["CardDrawn", "TurnStarted"]  # play_after_draw = none


def test_traditional_single_round_first_out_wins_others_by_hand_points():
    g = crafted(4, [["9H:0"], ["AS:0", "KS:0"], ["10S:0", "8C:0"], ["AC:0", "KC:0"]], "10H:0",
                variant=TRAD)
    g.do(Play(0, "9H"))
    evs = g.do(ScoreRound(1))
    assert types(evs) == ["HandsRevealed", "RoundScored", "MatchEnded", "SeedsRevealed"]
    assert evs[1].data["intermission_deadline"] is None
    end = evs[2].data
    assert end["reason"] == "single_round" and end["winner"] == 0
    assert [(r["seat"], r["rank"]) for r in end["standings"]] == [(0, 1), (1, 2), (3, 2), (2, 4)]


def test_traditional_special_starters_are_covered():
    for i in range(300):
        g = Game(3, seed=f"trad-{i}", variant=TRAD)
        evs = g.start()
        covered = [e.data["covered"] for e in evs if e.type == "StarterCovered"]
        if covered:
            break
    assert covered and all(c[0] in "7QA" for c in covered)
    assert g.m.rnd.discard[-1][0] not in "7QA" and not g.m.rnd.top_live


# ------------------------------------------------------------------ foreign actions


@pytest.mark.parametrize("preset", SHEDDING)
def test_actions_of_another_game_are_invalid_actions(preset):
    g = Game(2, seed="foreign", variant=preset)
    g.start()
    seat = g.m.rnd.current
    for cmd in (Slap(seat, 0), PassCard(seat, "k0", 1)):
        refused(g, cmd, "invalid_action", 422)
    if not g.m.rules.skip_counterable:
        refused(g, AcceptSkip(seat), "invalid_action", 422)


# ------------------------------------------------------------------ §8.5 validation


@pytest.mark.parametrize("preset", SHEDDING)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_inherited_values_are_never_rejected(preset, players):
    resolved, warnings = resolve_options(preset, {}, players)
    assert resolved["max_players"] == players and warnings == []


def test_rule_1_names_explicit_options_only():
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic", {"hand_size": 6}, 5)
    assert names(exc) == ["hand_size"]
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic", {"hand_size": 6, "max_players": 5}, 5)
    assert names(exc) == ["max_players", "hand_size"]
    with pytest.raises(OptionError) as exc:
        resolve_options("prsi-traditional", {}, 7)
    assert names(exc) == ["max_players"]


def test_rule_2_enabled_effect_ranks_distinct():
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic-full", {"skip_rank": "Q"}, 4)
    assert names(exc) == ["skip_rank"]
    with pytest.raises(OptionError) as exc:
        resolve_options("prsi-traditional", {"ace_plays_again": True}, 4)
    assert names(exc) == ["ace_plays_again"]
    resolve_options("mau-mau-classic", {"skip_rank": "Q"}, 4)  # eights and queens are off


def test_rule_3_children_of_an_off_parent_are_dropped_for_the_default():
    bad = {"seven_draw_count": 99, "seven_stacking": "bogus", "final_seven_amount": 1}
    resolved, warnings = resolve_options("mau-mau-classic", bad, 4)
    assert {k: resolved[k] for k in bad} == {k: PRESETS["mau-mau-classic"][k] for k in bad}
    assert [w["option"] for w in warnings] == ["seven_draw_count", "seven_stacking", "final_seven_amount"]
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic-full", bad, 4)
    assert sorted(names(exc)) == sorted(bad)
    resolve_options("prsi", {"ace_plays_again": False, "ace_followup_optional": "x", "ace_last_card_wins": 3}, 4)


def test_rule_4_jack_and_queen_children():
    kids = {"jack_requires_no_match": "x", "jack_on_jack_allowed": 3, "jack_calls_suit_on_match": None}
    resolve_options("mau-mau-classic", {"jack_wild": False, **kids}, 4)
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic", kids, 4)
    assert sorted(names(exc)) == sorted(kids)
    resolve_options("mau-mau-classic", {"queen_lock_allows_jack": "x"}, 4)
    with pytest.raises(OptionError):
        resolve_options("mau-mau-classic-full", {"queen_lock_allows_jack": "x"}, 4)


def test_rule_5_max_draws_only_with_draw_then_continue():
    resolved, _ = resolve_options("prsi", {"max_draws_per_turn": 99}, 4)
    assert resolved["max_draws_per_turn"] == PRESETS["prsi"]["max_draws_per_turn"]
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic", {"max_draws_per_turn": 99}, 4)
    assert names(exc) == ["max_draws_per_turn"]


def test_one_422_names_every_bad_explicit_option():
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic-full", {"nope": 1, "hand_size": 9, "seven_draw_count": 0,
                                                 "skip_rank": "Q", "deck_ranks": ["7", "8", "2"]}, 5)
    assert exc.value.code == "invalid_option" and status_of(exc.value.code) == 422
    assert sorted(names(exc)) == ["deck_ranks", "hand_size", "nope", "seven_draw_count", "skip_rank"]


def test_classic_hand_size_is_five_to_seven():
    with pytest.raises(OptionError) as exc:
        resolve_options("mau-mau-classic", {"hand_size": 4}, 4)
    assert names(exc) == ["hand_size"]
    assert resolve_options("prsi", {"hand_size": 4}, 4)[0]["hand_size"] == 4


def test_rule_7_low_limit_is_a_warning_not_an_error():
    resolved, warnings = resolve_options("mau-mau-classic", {"penalty_limit": 50}, 4)
    assert resolved["penalty_limit"] == 50 and [w["option"] for w in warnings] == ["penalty_limit"]
    assert resolve_options("prsi-traditional", {"penalty_limit": 50}, 4)[1] == []  # single round


# ------------------------------------------------------------------ catalog


def test_catalog_lists_every_shedding_preset_with_type_default_and_range():
    cat = {v["name"]: v for v in variants_catalog()}
    assert set(SHEDDING) <= set(cat)
    for name in SHEDDING:
        entry = cat[name]
        assert (entry["min_players"], entry["max_players"]) == (2, 5)
        for opt in entry["options"]:
            assert {"name", "type", "default", "range"} <= set(opt), (name, opt)
            assert opt["default"] == PRESETS[name][opt["name"]]
    hs = {n: next(o for o in cat[n]["options"] if o["name"] == "hand_size") for n in SHEDDING}
    assert hs["mau-mau-classic"]["range"] == [5, 7] and hs["prsi"]["range"] == [4, 7]
    assert cat["mau-mau-classic-full"]["game"] == "mau-mau" and cat[TRAD]["game"] == "prsi"
    seven = next(o for o in cat["prsi"]["options"] if o["name"] == "seven_stacking")
    assert seven["range"] == ["transfer", "accumulate"] and seven["parent"]["option"] == "seven_draw_penalty"
