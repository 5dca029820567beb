"""The spec reads right in every generator (service/api/spec_shape.py; docs/typed-clients.md).

Derived from the spec the app serves, whatever blueprint added a schema, never from a list:

- no ``allOf`` of one ``$ref`` (openapi-typescript makes ``Omit<…, "type">`` of a discriminated
  union's member: the tag is gone);
- no ``default: null`` (openapi-typescript makes such a field required);
- no ``oneOf`` of objects that each pin their ``type`` to values of their own without a
  ``discriminator`` on ``type`` whose mapping names every member's values (nor any discriminator whose
  mapping misses a member or names a value its member does not hold).

Each rule is shown failing on a violation planted in a copy of the spec.
"""
from __future__ import annotations

import copy
from functools import cache
from typing import Any

from service.api.spec_shape import REF, body_schemas, resolve, tag_values

Json = dict[str, Any]


@cache
def live_spec() -> Json:
    from service.api.app import create_app
    from service.settings import Settings

    app = create_app(Settings(redis_url=None))
    return app.extensions["meow.api"].spec.to_dict()


def _nodes(node: Any, path: str = "#") -> Any:
    """Every JSON object in the document with its JSON pointer."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _nodes(v, f"{path}/{str(k).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, f"{path}/{i}")


def violations(doc: Json) -> list[str]:
    """What in ``doc`` a generator reads wrongly, each with where it is."""
    schemas = doc.get("components", {}).get("schemas", {})
    out = []
    for path, node in _nodes(doc):
        all_of = node.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict) and "$ref" in all_of[0]:
            out.append(f"{path}: allOf one $ref ({all_of[0]['$ref']}): use the $ref (nullable: oneOf [$ref, null])")
        if "default" in node and node["default"] is None:
            out.append(f"{path}: default: null (a generator makes the field required): leave it out")
        one_of = node.get("oneOf")
        if isinstance(one_of, list):
            out += _union(path, node, one_of, schemas)
    for name in body_schemas(doc):
        for prop, spec in schemas[name].get("properties", {}).items():
            if isinstance(spec, dict) and "default" in spec:
                out.append(f"#/components/schemas/{name}/properties/{prop}: a request body's default "
                           "(openapi-typescript makes the field required): say it in the description")
    return out


def _union(path: str, node: Json, members: list[Any], schemas: Json) -> list[str]:
    tagged = [m for m in members if isinstance(m, dict) and tag_values(m, "type", schemas)]
    disc = node.get("discriminator")
    if disc is None:
        if len(tagged) >= 2 and len(tagged) == len(members):
            return [f"{path}: oneOf {len(members)} objects tagged by `type` without a discriminator"]
        return []
    prop, mapping = disc.get("propertyName"), disc.get("mapping") or {}
    out = []
    for m in members:
        values = tag_values(m, prop, schemas) if isinstance(m, dict) else None
        name = m.get("$ref", "?") if isinstance(m, dict) else "?"
        if values is None:
            out.append(f"{path}: member {name} holds no required enum `{prop}` to discriminate by")
            continue
        for v in values:
            if mapping.get(v) != m.get("$ref"):
                out.append(f"{path}: discriminator mapping of {v!r} is {mapping.get(v)!r}, not {name}")
    for v, target in mapping.items():
        if not any(isinstance(m, dict) and m.get("$ref") == target for m in members):
            out.append(f"{path}: discriminator maps {v!r} to {target}, not a member")
    return out


def test_the_served_spec_reads_right() -> None:
    found = violations(live_spec())
    assert not found, "\n".join(found[:20])


def test_the_view_and_the_create_body_are_told_apart_by_variant() -> None:
    """Each game's view and create body pin `variant` to the game's variants (tagged unions)."""
    from service.games import registry

    schemas = live_spec()["components"]["schemas"]
    for name in ("GameView", "CreateGame"):
        disc = schemas[name]["discriminator"]
        assert disc["propertyName"] == "variant"
        assert set(disc["mapping"]) == set(registry.BY_VARIANT), name


def test_a_view_s_always_present_fields_are_required() -> None:
    """Every member of the view requires what every game's view holds (GameView.OPTIONAL aside)."""
    from service.api.schemas import GameView

    schemas = live_spec()["components"]["schemas"]
    always = set(GameView().fields) - set(GameView.OPTIONAL)
    for member in schemas["GameView"]["oneOf"]:
        target = resolve(member, schemas)
        assert always <= set(target["required"]), (member, always - set(target["required"]))


def _plant(where: str, schema: Json) -> list[str]:
    doc = copy.deepcopy(live_spec())
    props = doc["components"]["schemas"]["EventsPage"]["properties"]
    props[where] = schema
    return [v for v in violations(doc) if "/EventsPage/" in v]


def test_the_guard_fails_on_a_list_item_wrapped_in_all_of() -> None:
    found = _plant("planted", {"type": "array", "items": {"allOf": [{"$ref": REF + "Event"}]}})
    assert found and "allOf one $ref" in found[0], found


def test_the_guard_fails_on_a_default_null() -> None:
    found = _plant("planted", {"type": "integer", "nullable": True, "default": None})
    assert found and "default: null" in found[0], found


def test_the_guard_fails_on_a_default_in_a_request_body() -> None:
    doc = copy.deepcopy(live_spec())
    name = sorted(body_schemas(doc))[0]
    doc["components"]["schemas"][name].setdefault("properties", {})["planted"] = {"type": "boolean", "default": False}
    found = [v for v in violations(doc) if "/planted" in v]
    assert found and "request body's default" in found[0], found


def test_the_guard_fails_on_a_union_of_typed_objects_without_a_discriminator() -> None:
    schemas = live_spec()["components"]["schemas"]
    union = next(s for s in schemas.values() if s.get("discriminator", {}).get("propertyName") == "type")
    members = union["oneOf"][:2]  # two objects tagged by `type`, whichever union has them
    first = tag_values(members[0], "type", schemas)[0]
    found = _plant("planted", {"oneOf": members})
    assert found and "without a discriminator" in found[0], found
    wrong = {"propertyName": "type", "mapping": {first: members[1]["$ref"]}}
    found = _plant("planted", {"oneOf": members, "discriminator": wrong})
    assert any(f"mapping of {first!r}" in v for v in found), found


def test_the_guard_passes_a_property_named_default() -> None:
    """A property called `default` (the catalogue's OptionInfo has one) is no `default: null`."""
    assert not _plant("planted", {"type": "object", "properties": {"default": {"type": "integer"}}})
