"""Golden histories replay forever; the independent verifier names exactly the broken event."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from service.app import audit
from service.verifier.check import verify
from tests.audit.goldens import GOLDEN, GOLDENS, rechain


def _load(path: Path) -> dict:
    return json.loads(path.read_text())



@pytest.fixture(scope="module")
def prsi() -> list[dict]:
    return _load(GOLDEN / "prsi.json")["history"]


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_golden_history_replays_to_identical_state(path: Path) -> None:
    golden = _load(path)
    report = audit.verify(golden["history"])
    assert report.ok, report.as_dict()["problems"]
    assert report.final == golden["expected"]
    independent = verify(golden["history"])
    assert independent.first is None, independent.findings


def _mutate(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1:] != "0" else "1") if value else "x"
    if isinstance(value, list):
        return value[1:] if value else [1]
    if isinstance(value, dict):
        return {**value, "tampered": True}
    return "x"


def _edit(event: dict, rng: random.Random, data_only: bool) -> str:
    fields = [k for k in ("data", "private", "secret") if event.get(k)]
    if not data_only:
        fields += ["type", "round", "seat", "at_ms", "command"] if "command" in event else ["type", "round", "at_ms"]
    name = rng.choice(fields)
    if isinstance(event[name], dict) and event[name]:
        key = rng.choice(sorted(event[name]))
        event[name][key] = _mutate(event[name][key])
        return f"{name}.{key}"
    event[name] = _mutate(event[name])
    return name


def test_any_single_field_change_is_named(prsi: list[dict]) -> None:
    rng = random.Random(5)
    by_type: dict[str, list[int]] = {}
    for i, e in enumerate(prsi):
        by_type.setdefault(e["type"], []).append(i)
    picks = [rng.choice(ix) for ix in by_type.values()]  # one event of every type
    for i in picks:
        events = copy.deepcopy(prsi)
        what = _edit(events[i], rng, data_only=False)
        result = verify(events)
        assert result.first is not None and result.first.seq == i + 1, (i + 1, events[i]["type"], what, result.findings)


def test_a_forged_rechained_edit_is_still_named(prsi: list[dict]) -> None:
    rng = random.Random(9)
    candidates = [i for i, e in enumerate(prsi) if e["type"] not in ("SeedsRevealed",) and e.get("data")]
    for i in rng.sample(candidates, 12):
        events = copy.deepcopy(prsi)
        what = _edit(events[i], rng, data_only=True)
        result = verify(rechain(events))
        assert result.first is not None and result.first.seq == i + 1, (i + 1, events[i]["type"], what, result.findings)


def test_swapped_and_dropped_events_are_named(prsi: list[dict]) -> None:
    for i in (3, 200, len(prsi) - 2):
        swapped = copy.deepcopy(prsi)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        assert verify(swapped).first.seq == i + 1
        dropped = copy.deepcopy(prsi)
        del dropped[i]
        assert verify(dropped).first.seq == i + 1


def test_a_replaced_seed_is_named(prsi: list[dict]) -> None:
    shuffle = next(e for e in prsi if e["type"] == "ShuffleCommitted")
    events = copy.deepcopy(prsi)
    revealed = events[-1]
    assert revealed["type"] == "SeedsRevealed"
    revealed["data"]["shuffle_seeds"][str(shuffle["seq"])] = "11" * 32
    assert verify(copy.deepcopy(events)).first.seq == shuffle["seq"]  # the commitment no longer matches
    chain_only = verify(copy.deepcopy(events))
    assert any(f.seq == revealed["seq"] and f.check == "chain" for f in chain_only.findings)
    forged = verify(rechain(events))
    assert forged.first.seq == shuffle["seq"] and forged.first.check == "commitment"


def test_a_restacked_deck_with_its_own_seed_is_caught(prsi: list[dict]) -> None:
    """Swap two cards in a recorded deck order: the seed no longer yields that order."""
    events = copy.deepcopy(prsi)
    deck = next(e for e in events if e["type"] == "ShuffleCommitted" and e["data"]["what"] == "deck")
    order = deck["secret"]["order"]
    order[0], order[1] = order[1], order[0]
    result = verify(rechain(events))
    assert result.first.seq == deck["seq"] and result.first.check == "permutation"


def test_the_cli_exits_non_zero_naming_the_event(tmp_path: Path, prsi: list[dict], capsys) -> None:
    from service.cli import main

    good = tmp_path / "good.json"
    good.write_text(json.dumps({"events": prsi}))
    assert main(["verify", str(good)]) == 0
    bad = copy.deepcopy(prsi)
    bad[10]["data"] = {**bad[10]["data"], "tampered": 1}
    path = tmp_path / "bad.ndjson"
    path.write_text("\n".join(json.dumps(e) for e in bad))
    assert main(["verify", str(path)]) == 1
    assert "first bad event 11" in capsys.readouterr().out


def test_the_version_2_golden_needs_version_2_to_verify() -> None:
    """Issue 12 h: the golden of an empty voluntary draw that kept the move verifies under the
    version it records; the same history claiming version 1 (re-chained, as a forger would) is
    re-decided with the old behaviour and fails at that draw."""
    golden = _load(GOLDEN / "mau-mau-classic-draw-keeps-move.json")
    created = golden["history"][0]
    assert created["type"] == "MatchCreated" and created["data"]["rules_version"] == 2
    kept = [e for e in golden["history"] if e["type"] == "DrawShortfall" and e["data"]["reason"] == "turn"]
    assert kept, "the golden no longer holds an empty voluntary draw"
    old = json.loads(json.dumps(golden["history"]))
    del old[0]["data"]["rules_version"]
    for e in old:
        if e.get("command", {}).get("type") == "CreateMatch":
            e["command"]["rules_version"] = 1
    report = audit.verify(rechain(old))
    assert not report.ok
    assert report.problems[0].seq >= kept[0]["seq"] - 8, report.as_dict()["problems"][:2]


def test_the_printed_uno_golden_needs_version_4_to_verify() -> None:
    """Issue 42 item 9: the ``uno`` golden of rules version 4 (a reshuffle that kept the top card, a
    hand that ended on a +2/+4 still drawn) verifies under its version; the same history claiming
    version 3 (re-chained) is re-decided with RLCard's rules and fails at the first of them."""
    golden = _load(GOLDEN / "uno-printed.json")
    assert golden["history"][0]["data"]["rules_version"] == 4
    first = min(e["seq"] for e in golden["history"] if e["type"] == "StockReshuffled" and e["data"].get("kept"))
    old = json.loads(json.dumps(golden["history"]))
    old[0]["data"]["rules_version"] = 3
    for e in old:
        if e.get("command", {}).get("type") == "CreateMatch":
            e["command"]["rules_version"] = 3
    report = audit.verify(rechain(old))
    assert not report.ok
    assert report.problems[0].seq <= first, report.as_dict()["problems"][:2]


def test_a_variant_no_games_verifier_module_checks_is_named(prsi: list[dict]) -> None:
    events = copy.deepcopy(prsi)
    events[0]["data"]["variant"] = "no-such-variant"
    result = verify(rechain(events), replay=False)
    assert result.first.seq == 1 and result.first.check == "game", result.findings


def test_a_record_the_games_module_cannot_follow_is_named_not_a_crash(prsi: list[dict]) -> None:
    """An event whose fields the game's verifier module needs is cut down (re-chained): a finding at
    that event, from the independent checks alone."""
    events = copy.deepcopy(prsi)
    played = next(e for e in events if e["type"] == "CardPlayed")
    del played["data"]["card"]
    result = verify(rechain(events), replay=False)
    assert result.first.seq == played["seq"] and result.first.check == "permutation", result.findings
