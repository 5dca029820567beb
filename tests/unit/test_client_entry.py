"""The made-up catalogue entry the clients' unit tests draw (tests/unit/client_entry.py) has the
shape of every real one (GET /v1/variants, docs/clients.md), so those tests test what the clients
meet: the same keys, face fields, mark parts and mark fields, the vocabulary of marks, placeholders
of the same form, and an end event that every game records."""
from __future__ import annotations

import re

import pytest

from service.games import registry
from service.games.kernel.marks import KINDS, MARKS, SCOPES, SHOWS
from tests.unit.client_entry import ENTRY

CATALOGUE = registry.variants_catalog()
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)(?::([A-Za-z0-9_]+))?\}")


def _marks(entry: dict) -> list[dict]:
    out = []
    for part, fields in entry["marks"].items():
        for mark in fields.values():
            if part == "actions":
                out += list(mark.values())
            else:
                out += [mark, *mark.get("properties", {}).values()]
    return out


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["name"])
def test_the_made_up_entry_has_the_shape_of_a_real_one(entry: dict) -> None:
    assert set(ENTRY) <= set(entry)
    assert set(ENTRY["marks"]) == set(entry["marks"])
    assert all(set(c) == set(ENTRY["cards"][0]) for c in entry["cards"])
    assert all(set(s) == set(ENTRY["suits"][0]) for s in entry["suits"])
    assert all(set(m) - {"properties"} == set(MARKS) for m in _marks(entry))
    assert set(entry["words"]) == set(ENTRY["words"])
    assert entry["end_event"] == ENTRY["end_event"] and entry["end_event"] in registry.for_variant(entry["name"]).event_types
    for lang, words in entry["words"].items():
        assert set(words) == set(entry["words"]["en"]), lang


def test_the_made_up_entry_marks_with_the_kernels_vocabulary() -> None:
    for mark in _marks(ENTRY):
        assert set(mark) - {"properties"} <= set(MARKS)
        assert mark["show"] in SHOWS and mark.get("kind", "text") in KINDS and mark.get("scope", "public") in SCOPES
    for text in ENTRY["words"]["en"].values():
        for _, kind in PLACEHOLDER.findall(text):
            assert kind == "" or re.fullmatch(r"[A-Za-z0-9_]+", kind)


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["name"])
def test_placeholders_of_real_words_have_one_form(entry: dict) -> None:
    for text in entry["words"]["en"].values():
        for _, kind in PLACEHOLDER.findall(text):
            assert kind == "" or re.fullmatch(r"[A-Za-z0-9_]+", kind)
