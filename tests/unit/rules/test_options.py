import pytest

from service.api.codes import status_of
from service.games.kernel.model import RuleViolation
from service.games.registry import resolve_options, variants_catalog
from service.games.shedding.options import PRESETS, OptionError


def test_prsi_defaults_resolve_without_warnings():
    resolved, warnings = resolve_options("prsi", {}, 5)
    assert resolved["hand_size"] == 7 and resolved["deck_copies"] == 2
    assert resolved["card_points"]["J"] == 20 and resolved["penalty_limit"] == 200
    assert resolved["turn_timeout_s"] == 45 and resolved["bot_strength"] in ("easy", "medium")
    assert warnings == []


def test_every_bad_explicit_option_is_named():
    with pytest.raises(OptionError) as exc:
        resolve_options("prsi", {"nope": 1, "hand_size": 9, "jack_wild": "yes",
                                 "turn_timeout_s": 5, "bot_strength": "godlike"}, 5)
    names = {e["option"] for e in exc.value.errors}
    assert names == {"nope", "hand_size", "jack_wild", "turn_timeout_s", "bot_strength"}
    assert exc.value.code == "invalid_option" and status_of(exc.value.code) == 422


def test_unknown_variant():
    with pytest.raises(RuleViolation) as exc:
        resolve_options("no-such-variant", {}, 4)  # no game serves it (test_game_registry: BY_VARIANT)
    assert exc.value.code == "unknown_variant" and status_of(exc.value.code) == 422


def test_rule_1_deck_too_small_names_explicit_options():
    with pytest.raises(OptionError) as exc:
        resolve_options("prsi", {"deck_copies": 1, "deck_ranks": ["7", "8", "9", "10", "J", "Q", "K", "A"]}, 5)
    names = {e["option"] for e in exc.value.errors}
    assert names == {"deck_copies", "deck_ranks"}  # max_players 5 is the preset's: never named


def test_rule_2_effect_ranks_distinct():
    with pytest.raises(OptionError) as exc:
        resolve_options("prsi", {"skip_rank": "A"}, 4)
    assert [e["option"] for e in exc.value.errors] == ["skip_rank"]
    resolve_options("prsi", {"skip_rank": "A", "ace_plays_again": False}, 4)


def test_child_of_disabled_parent_is_dropped_not_rejected():
    resolved, warnings = resolve_options("prsi", {"seven_draw_penalty": False, "seven_draw_count": 99}, 4)
    assert resolved["seven_draw_count"] == PRESETS["prsi"]["seven_draw_count"]
    assert [w["option"] for w in warnings] == ["seven_draw_count"]


def test_zero_values_accepted_and_warning_for_low_limit():
    resolved, warnings = resolve_options("prsi", {"bot_delay_ms": {"easy": [0, 0]},
                                                  "announce_grace_ms": 0, "round_intermission_s": 0,
                                                  "penalty_limit": 50}, 3)
    assert resolved["bot_delay_ms"]["easy"] == [0, 0]
    assert [w["option"] for w in warnings] == ["penalty_limit"]


def test_max_players_range():
    with pytest.raises(OptionError):
        resolve_options("prsi", {}, 6)


def test_catalog():
    cat = variants_catalog()
    prsi = next(v for v in cat if v["name"] == "prsi")
    assert "easy" in prsi["bot_strengths"] and prsi["min_players"] == 2 and prsi["max_players"] == 5
    opt = {o["name"]: o for o in prsi["options"]}
    assert opt["hand_size"]["default"] == 7 and opt["hand_size"]["range"] == [4, 7]
    assert "prsi" in PRESETS
