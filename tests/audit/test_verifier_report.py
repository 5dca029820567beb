"""`meow verify` speaks plainly (issue 29, item 6): each way a history goes wrong is planted in a
recorded golden history and the report is read back: a truncated or malformed file is named first
with the file's right line, an unfinished game before any replay error, a changed seed as a broken
commitment, a forged event by the path of its first differing field with both values (taken from
the history), the scores as JSON, the chain head to compare, and ``--json``'s stable shape."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.verifier import report
from service.verifier.cli import run
from service.verifier.primitives import sha256_hex
from tests.audit.goldens import GOLDEN, GOLDENS, rechain

PROBLEM = "BAD "


def _golden(name: str = "prsi") -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def prsi() -> list[dict]:
    return _golden()["history"]


def _ndjson(events: list[dict]) -> str:
    return "\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n"


def _verify(tmp_path: Path, text: str, capsys, *args: str) -> tuple[int, list[str]]:
    path = tmp_path / "history.ndjson"
    path.write_text(text, encoding="utf-8")
    code = run([str(path), *args])
    return code, capsys.readouterr().out.splitlines()


def _doc(tmp_path: Path, text: str, capsys, *args: str) -> tuple[int, dict]:
    code, lines = _verify(tmp_path, text, capsys, "--json", *args)
    return code, json.loads("\n".join(lines))


def _bad(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(PROBLEM)]


# ------------------------------------------------------------------ truncated and malformed files

def test_a_file_cut_mid_record_is_named_truncated_first_with_its_line(tmp_path: Path, prsi: list[dict], capsys) -> None:
    text = _ndjson(prsi)
    lines = text.splitlines()
    cut = "\n".join(lines[:299]) + "\n" + lines[299][: len(lines[299]) // 2]  # line 300 ends half-way
    code, out = _verify(tmp_path, cut, capsys)
    bad = _bad(out)
    assert code == 1 and out[-1] == "NOT VERIFIED: the history is truncated", out
    assert bad[0].startswith("BAD line 300 (truncated): the history ends mid-record at line 300"), bad
    assert "(unfinished): the game is unfinished" in bad[1], bad
    assert not [b for b in bad if "(replay)" in b or "(commitment)" in b], bad  # never a replay error first
    code, doc = _doc(tmp_path, cut, capsys)
    assert doc["verdict"] == "truncated" and doc["events"] == 299
    assert [(p["kind"], p["line"]) for p in doc["problems"]] == [("truncated", 300), ("unfinished", None)]
    assert doc["checks"] == {"chain": "ok", "commitments": "not run", "permutations": "not run", "replay": "not run"}


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_a_history_cut_at_a_records_end_is_named_unfinished_before_any_replay_error(
        tmp_path: Path, path: Path, capsys) -> None:
    history = json.loads(path.read_text())["history"]
    code, out = _verify(tmp_path, _ndjson(history[: len(history) // 2]), capsys)
    bad = _bad(out)
    assert code == 1 and out[-1] == "NOT VERIFIED: the history is unfinished", out
    assert len(bad) == 1 and bad[0].startswith("BAD the history (unfinished): the game is unfinished: the history "
                                               f"ends at event {len(history) // 2} "), bad


def test_a_json_body_cut_short_is_named_truncated_at_its_last_line(tmp_path: Path, prsi: list[dict], capsys) -> None:
    body = json.dumps({"events": prsi}, indent=1)
    cut = body[: len(body) // 3]
    code, doc = _doc(tmp_path, cut, capsys)
    assert code == 1 and doc["verdict"] == "truncated"
    assert doc["problems"][0]["line"] == cut.count("\n") + 1, doc["problems"]
    assert doc["checks"] == dict.fromkeys(report.CHECKS, "not run")


def test_a_syntax_error_names_the_files_own_line(tmp_path: Path, prsi: list[dict], capsys) -> None:
    """Pretty JSON with blank lines before it, and NDJSON: the line where the file goes wrong."""
    body = "\n\n" + json.dumps({"events": prsi}, indent=1)
    lines = body.split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip() == '"seq": 40,')
    lines[at] = lines[at].replace(",", ",,")
    code, out = _verify(tmp_path, "\n".join(lines), capsys)
    assert code == 1 and _bad(out)[0].startswith(f"BAD line {at + 1} (unreadable): line {at + 1} is not valid JSON"), out
    records = _ndjson(prsi).splitlines()
    records[99] = records[99].replace('"seq"', "seq", 1)
    code, doc = _doc(tmp_path, "\n".join(records), capsys)
    assert code == 1 and doc["verdict"] == "unreadable" and doc["problems"][0]["line"] == 100, doc["problems"]
    assert doc["checks"] == dict.fromkeys(report.CHECKS, "not run")  # nothing of a broken file is vouched for


# ------------------------------------------------------------------ seeds: broken commitments

def test_a_changed_match_seed_is_named_a_broken_commitment(tmp_path: Path, prsi: list[dict], capsys) -> None:
    events = copy.deepcopy(prsi)
    events[-1]["data"]["match_seed"] = "22" * 32
    for forged in (events, rechain(copy.deepcopy(events))):
        code, doc = _doc(tmp_path, _ndjson(forged), capsys)
        first = doc["problems"][0]
        assert code == 1 and first["kind"] == "commitment" and first["seq"] == 1, doc["problems"]
        assert first["detail"].startswith(f"broken commitment: the match seed revealed at event {len(prsi)} ")
        assert first["field"] == "data.match_seed_commitment"
        assert first["expected"] == prsi[0]["data"]["match_seed_commitment"] and first["found"] == sha256_hex("22" * 32)


def test_a_changed_shuffle_seed_is_named_a_broken_commitment(tmp_path: Path, prsi: list[dict], capsys) -> None:
    shuffle = next(e for e in prsi if e["type"] == "ShuffleCommitted")
    events = copy.deepcopy(prsi)
    events[-1]["data"]["shuffle_seeds"][str(shuffle["seq"])] = "11" * 32
    code, out = _verify(tmp_path, _ndjson(rechain(events)), capsys)
    assert code == 1 and out[-1] == f"FAILED: first bad event {shuffle['seq']}", out
    assert _bad(out)[0].startswith(f"BAD event {shuffle['seq']} (commitment): broken commitment: the seed event "
                                   f"{len(prsi)} (SeedsRevealed) does not hash"), out
    code, doc = _doc(tmp_path, _ndjson(events), capsys)
    first = doc["problems"][0]
    assert (first["field"], first["expected"], first["found"]) == \
        ("data.commitment", shuffle["data"]["commitment"], sha256_hex("11" * 32))


# ------------------------------------------------------------------ a forged event: the field that differs

def _scalar_fields(event: dict) -> list[tuple[str, str, object]]:
    return [(part, key, value) for part in ("data",) for key, value in sorted(event.get(part, {}).items())
            if isinstance(value, (int, str)) and not isinstance(value, bool)]


def _changed(value: int | str) -> int | str:
    return value + 1 if isinstance(value, int) else value[:-1] + ("0" if value[-1:] != "0" else "1")


SKIP = {"SeedsRevealed", "ShuffleCommitted", "MatchCreated"}  # seeds and commitments: named above


@pytest.mark.parametrize("name", [p.stem for p in GOLDENS])
def test_a_forged_field_is_named_by_its_path_with_both_values(tmp_path: Path, name: str, capsys) -> None:
    """One scalar field of one event of each type, forged and re-chained: the report names that
    event, the field's path, the value the history holds and the one the rules give, and both
    values are ones the (original or forged) history holds: nothing else comes out."""
    history = _golden(name)["history"]
    seen: set[str] = set()
    named: list[str] = []
    for i, e in enumerate(history):
        fields = _scalar_fields(e)
        if e["type"] in seen or e["type"] in SKIP or not fields:
            continue
        seen.add(e["type"])
        part, key, value = fields[0]
        events = copy.deepcopy(history)
        events[i][part][key] = _changed(value)
        code, doc = _doc(tmp_path, _ndjson(rechain(events)), capsys)
        first = doc["problems"][0]
        assert code == 1 and first["seq"] == i + 1, (e["type"], key, doc["problems"])
        if first["kind"] != "replay":  # the game's own module followed the card first (a permutation)
            continue
        named.append(e["type"])
        assert (first["field"], first["expected"], first["found"]) == (f"{part}.{key}", value, events[i][part][key])
        assert first["detail"].startswith(f"{e['type']}: {part}.{key} differs from the replay: the history has "
                                          f"{json.dumps(events[i][part][key])}, the rules give {json.dumps(value)}")
    assert len(named) >= 3, (seen, named)


def test_a_forged_private_card_names_its_place(tmp_path: Path, prsi: list[dict], capsys) -> None:
    events = copy.deepcopy(prsi)
    dealt = next(e for e in events if e["type"] == "CardsDealt" and e.get("private"))
    seat, part = sorted(dealt["private"].items())[1]
    was = part["cards"][2]
    part["cards"][2] = "XX:9"
    code, doc = _doc(tmp_path, _ndjson(rechain(events)), capsys)
    first = doc["problems"][0]
    assert code == 1 and (first["seq"], first["kind"]) == (dealt["seq"], "replay"), doc["problems"]
    assert (first["field"], first["expected"], first["found"]) == (f"private.{seat}.cards[2]", was, "XX:9")


# ------------------------------------------------------------------ scores, chain head, --json

@pytest.mark.parametrize("name", [p.stem for p in GOLDENS])
def test_the_final_scores_print_as_json_with_every_seats_total(tmp_path: Path, name: str, capsys) -> None:
    golden = _golden(name)
    code, out = _verify(tmp_path, _ndjson(golden["history"]), capsys)
    assert code == 0 and out[-1] == "OK", out
    scores = json.loads(next(line for line in out if line.startswith("final scores: ")).removeprefix("final scores: "))
    assert scores["standings"] == golden["expected"]["standings"]
    assert scores["totals"] == {str(s["seat"]): s["total"] for s in golden["expected"]["standings"]}


def test_the_chain_head_is_printed_and_a_given_head_is_found(tmp_path: Path, prsi: list[dict], capsys) -> None:
    head = prsi[-1]["hash"]
    code, out = _verify(tmp_path, _ndjson(prsi), capsys)
    assert code == 0 and f"chain head: {head} (event {len(prsi)})" in out, out
    code, out = _verify(tmp_path, _ndjson(prsi), capsys, "--head", head.upper())
    assert code == 0 and "  the given --head is this head: the server's game is this history" in out, out
    code, doc = _doc(tmp_path, _ndjson(prsi), capsys, "--head", prsi[99]["hash"])  # noted during play
    assert code == 0 and doc["chain_head"] == {"seq": len(prsi), "hash": head,
                                               "given": {"hash": prsi[99]["hash"], "seq": 100}}
    code, doc = _doc(tmp_path, _ndjson(prsi), capsys, "--head", "ab" * 32)  # another game's
    assert code == 1 and doc["verdict"] == "failed" and [p["kind"] for p in doc["problems"]] == ["head"]


def test_the_json_document_keeps_its_shape(tmp_path: Path, prsi: list[dict], capsys) -> None:
    """The shape docs/audit.md describes, literally: a change here is a change of the format."""
    assert report.FORMAT == "meow-verify/1"
    assert report.KEYS == ("format", "source", "verdict", "ok", "events", "variant", "checks", "first_bad_seq",
                           "problems", "notes", "chain_head", "scores")
    assert report.PROBLEM_KEYS == ("seq", "line", "kind", "field", "expected", "found", "detail")
    assert report.VERDICTS == ("verified", "failed", "unfinished", "truncated", "unreadable")
    code, good = _doc(tmp_path, _ndjson(prsi), capsys)
    assert code == 0 and tuple(good) == report.KEYS
    assert (good["verdict"], good["ok"], good["events"], good["variant"], good["first_bad_seq"], good["problems"]) == \
        ("verified", True, len(prsi), "prsi", None, [])
    assert good["checks"] == dict.fromkeys(report.CHECKS, "ok") and tuple(good["checks"]) == \
        ("chain", "commitments", "permutations", "replay")
    assert good["chain_head"] == {"seq": len(prsi), "hash": prsi[-1]["hash"], "given": None}
    assert good["scores"]["standings"] == _golden()["expected"]["standings"]
    events = copy.deepcopy(prsi)
    events[10]["data"] = {**events[10]["data"], "tampered": 1}
    code, bad = _doc(tmp_path, _ndjson(events), capsys, "--independent")
    assert code == 1 and tuple(bad) == report.KEYS and bad["verdict"] in report.VERDICTS
    assert (bad["verdict"], bad["ok"], bad["first_bad_seq"], bad["scores"]) == ("failed", False, 11, None)
    assert bad["checks"]["chain"] == "failed" and bad["checks"]["replay"] == "not run"
    assert [tuple(p) for p in bad["problems"]] == [report.PROBLEM_KEYS]
    assert bad["problems"][0]["kind"] == "chain" and bad["problems"][0]["field"] == "hash"


def test_a_source_that_cannot_be_opened_is_still_one_document(tmp_path: Path, capsys) -> None:
    assert run([str(tmp_path / "missing.ndjson"), "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert tuple(doc) == report.KEYS and doc["verdict"] == "unreadable" and doc["checks"] == dict.fromkeys(
        report.CHECKS, "not run")
    assert [p["kind"] for p in doc["problems"]] == ["unreadable"] and "cannot read" in doc["problems"][0]["detail"]


def test_docs_audit_describes_every_member_of_the_json_document() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text(encoding="utf-8")
    section = doc.split("### `--json`", 1)[1].split("\n## ", 1)[0]
    missing = [k for k in (*report.KEYS, *report.PROBLEM_KEYS, *report.VERDICTS, *report.CHECKS, report.FORMAT)
               if f"`{k}`" not in section]
    assert missing == [], missing
