"""Issue 25 findings 4, 5 (the server's half) and 6 (65-bit integers, invisible names): every option
checked, every number bounded before the encoder, names and text options that show what they say.
Cases come from the registry: every game's catalogue (its switches and their children, its text
options) and every action's fields; no test here names a game, a variant or an option."""
from __future__ import annotations

from typing import Any

import orjson

from service.games import registry
from tests.api.conftest import Table

BIG = 2**65  # past the encoder's 64 bits: a 500 before
HUGE = {"nested": [{"deep": ["x" * 500] * 4}], "n": 1}  # ~2 KB of JSON a child may not make the table keep
MARK = "x" * 500


def _catalogue() -> list[dict[str, Any]]:
    return registry.variants_catalog()


def _off(parent: dict[str, Any], options: dict[str, dict[str, Any]]) -> Any:
    """A value of the parent switch that does not enable its children (from the catalogue)."""
    spec = options[parent["option"]]
    values = spec.get("enum") or spec.get("range") or [False, True]
    return next(v for v in values if v != parent["value"])


def _switched(entry: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Every parent switch of the variant off, and the names of its children."""
    by_name = {o["name"]: o for o in entry["options"]}
    children = [o for o in entry["options"] if o.get("parent")]
    parents = {c["parent"]["option"]: _off(c["parent"], by_name) for c in children}
    return parents, [c["name"] for c in children if c["name"] not in parents]


def _stored_bytes(table: Table, gid: str) -> bytes:
    """What the store keeps of the game: each event's body and recorded command."""
    return b"".join(orjson.dumps([s.body, s.command]) for s in table.service.store.read_stored(gid))


def test_every_child_of_a_switched_off_parent_is_dropped_for_its_default(table: Table) -> None:
    """Every variant with switches: all of them off, every child given a blob. One table each
    (a table per child would test the same loop in resolve_options, 80 times slower)."""
    tested = 0
    for entry in _catalogue():
        parents, children = _switched(entry)
        if not children:
            continue
        variant, tested = entry["name"], tested + len(children)
        r = table.client.post("/v1/games", json={"variant": variant,
                                                 "options": {**parents, **dict.fromkeys(children, HUGE)}})
        assert r.status_code == 201, (variant, r.json)
        assert set(children) <= {w["option"] for w in r.json["warnings"]}, variant
        defaults = {o["name"]: o["default"] for o in entry["options"]}
        options = table.view(r.json["id"])["options"]
        assert {c: options[c] for c in children} == {c: defaults[c] for c in children}, variant
        stored = _stored_bytes(table, r.json["id"])
        assert MARK.encode() not in stored and len(stored) < 16_000, (variant, len(stored))
    assert tested, "no game declares a switch with children: nothing was tested"


def _option_names() -> list[tuple[str, str]]:
    return [(e["name"], o["name"]) for e in _catalogue() for o in e["options"]]


def test_a_65_bit_integer_in_any_option_is_400_never_500(table: Table) -> None:
    """Every option of every variant, its parent on or off, and the body's own numbers."""
    # a refused create counts against its network's create budget (the limits run before the body
    # is read): each request comes from a network of its own
    nets = (f"10.{i // 256 % 256}.{i % 256}.1" for i in range(1_000_000))
    for variant, name in _option_names():
        for value in (BIG, -BIG, [BIG], {"easy": [0, BIG]}, 2**53, 1e300):
            r = table.client.post("/v1/games", json={"variant": variant, "options": {name: value}},
                                  environ_base={"REMOTE_ADDR": next(nets)})
            assert (r.status_code, r.json["code"]) == (400, "invalid_json"), (variant, name, value, r.json)
            assert r.json["errors"][0]["field"].startswith(f"options.{name}")
    for body in ({"variant": "x", "max_players": BIG}, {"variant": BIG}, {"variant": "x", "name": [BIG]}):
        r = table.client.post("/v1/games", json=body)
        assert (r.status_code, r.json["code"]) == (400, "invalid_json"), body


def test_a_65_bit_integer_in_an_action_or_a_seat_is_400(table: Table) -> None:
    g = table.create()
    gid, owner = g["id"], g["owner_token"]
    fields = sorted({f for a in registry.ACTIONS.values() for f in a.fields} | {"expected_version"})
    for action_type in registry.ACTIONS:
        for field in fields:
            r = table.client.post(f"/v1/games/{gid}/actions", json={"type": action_type, field: BIG},
                                  headers={"Authorization": f"Bearer {owner}"})
            assert (r.status_code, r.json["code"]) == (400, "invalid_json"), (action_type, field, r.json)
    for body in ({"name": BIG}, {"bot": {"strength": BIG}}, {"name": "ann", "x": [[BIG]]}):
        r = table.client.post(f"/v1/games/{gid}/seats", json=body, headers={"Authorization": f"Bearer {owner}"})
        assert (r.status_code, r.json["code"]) == (400, "invalid_json"), body
    assert table.view(gid)["seats"] == [] and table.view(gid)["version"] == g["version"]


def test_numbers_inside_the_json_range_still_reach_the_schemas(table: Table) -> None:
    r = table.client.post("/v1/games", json={"variant": "prsi", "max_players": 2**53 - 1})
    assert (r.status_code, r.json["code"]) == (422, "invalid_request")


# Invisible, blank or reordering text the review found accepted (finding 6), and its relatives
INVISIBLE = [
    "\u200b", "alice\u200b", "ali\u200dce", "\u2060alice", "alice\ufeff", "al\u00adice",  # zero-width, joiners
    "\u115f", "\u1160", "\u3164", "\uffa0", "\u3164alice", "alice\uffa0",  # Hangul fillers
    "\U000e0061\U000e006c", "alice\U000e0041\U000e007f",  # tag characters
    "alice\ufe0f", "alice\U000e0100", "a\u034fb", "a\u180eb", "a\u17b4b",  # variation selectors, ignorables
    "\u2800", "\u0301\u0301", " \u3000 \u2800 ",  # blank braille, marks alone, only blanks
    "al\u202eice", "\u2066x\u2069", "nul\x00", "a\u2028b",  # bidi overrides and isolates, controls, separators
]
VISIBLE = ["Zden\u011bk", "\u7530\u4e2d\u3055\u3093", "Ivan \u0418\u0432\u0430\u043d", "\u2665 ann",
           "O'Brien-Smith", "\uae40\ubbfc\uc900", "\u0645\u0631\u064a\u0645"]


def test_invisible_or_blank_names_are_refused_everywhere(table: Table) -> None:
    gid = table.create()["id"]
    for name in INVISIBLE:
        r = table.client.post(f"/v1/games/{gid}/seats", json={"name": name})
        assert (r.status_code, r.json["code"]) == (422, "invalid_request"), (name, r.json)
        r = table.client.post("/v1/games", json={"variant": "prsi", "name": name})
        assert (r.status_code, r.json["code"]) == (422, "invalid_request"), name
        for variant, option in _text_options():  # announce_word and any text option a game declares
            r = table.client.post("/v1/games", json={"variant": variant, "options": {option: name}})
            assert (r.status_code, r.json["code"]) == (422, "invalid_option"), (variant, option, name, r.json)
            assert [e["option"] for e in r.json["errors"]] == [option]
    assert table.view(gid)["seats"] == []


def _text_options() -> list[tuple[str, str]]:
    return [(e["name"], o["name"]) for e in _catalogue() for o in e["options"] if o["type"] == "string"]


def test_visible_names_in_any_script_are_taken_and_text_options_are_stored_nfc(table: Table) -> None:
    for name in VISIBLE:
        gid = table.create(name=name)["id"]
        table.join(gid, name)
        view = table.view(gid)
        assert (view["name"], view["seats"][0]["name"]) == (name, name)
    assert _text_options(), "some game declares a text option (the announcement word)"
    for variant, option in _text_options():
        r = table.client.post("/v1/games", json={"variant": variant, "options": {option: "  Zdene\u030ck "}})
        assert r.status_code == 201, r.json
        assert table.view(r.json["id"])["options"][option] == "Zden\u011bk"
