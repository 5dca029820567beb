"""The spec as every generator reads it right: one pass over the whole OpenAPI document, run each
time it is written out (``/openapi.json``, ``/openapi.yaml``, ``meow openapi``), so every schema of
every blueprint gets it, whoever added it.

apispec writes a marshmallow field that points at a component (``fields.Nested``, or the ``to()``
metadata of service/api/components.py) as ``allOf`` one ``$ref`` (or, nullable, ``anyOf`` it and an
empty nullable object), and an optional field with ``load_default=None`` as ``default: null``.
Generators read those wrongly: openapi-typescript turns ``allOf`` a discriminated union into
``Omit<…, "type">`` (the tag is gone), ``{type: object, nullable: true}`` into a ``Record<string,
never>`` member, and ``default: null`` into a required field. So, here:

- ``allOf: [$ref]`` becomes the plain ``$ref`` (a description stays beside it); nullable, it becomes
  ``oneOf: [$ref, NULL]`` where ``NULL`` accepts only null (``T | null`` in TypeScript);
- ``default: null`` is dropped (the field stays optional; leaving it out means null);
- a nullable ``enum`` lists null among its values (validators check the enum on null too);
- a ``oneOf`` of objects that each pin one property to their own values (``type: {enum: [play]}``,
  ``variant: {enum: [prsi, ...]}``) gets a ``discriminator`` on it, with the mapping;
- a request body's property loses its ``default`` into its description ("Default: false."):
  openapi-typescript (``defaultNonNullable``, on by default) makes a property with a default
  required, so a body that leaves ``private`` out would not type-check.

tests/test_spec_shape.py fails on any of them in the spec, whatever added it.
"""
from __future__ import annotations

from typing import Any

import orjson
from apispec import APISpec

Json = dict[str, Any]
REF = "#/components/schemas/"
NULL: Json = {"nullable": True, "enum": [None]}
"""Only null (OpenAPI 3.0.3: `nullable` applies where a `type` or `enum` stands beside it)."""
TAGS = ("type", "variant")
"""The properties a union may be told apart by, the first that fits: an event's or an action's
``type``, a view's or a create body's ``variant``."""
_WRAPPER_KEYS = {"allOf", "nullable", "description"}


def shape(doc: Json) -> Json:
    """The whole document with the three rules above applied (in place; returned)."""
    schemas = doc.get("components", {}).get("schemas", {})
    _walk(doc, schemas)
    for name in body_schemas(doc):
        for prop in schemas[name].get("properties", {}).values():
            if isinstance(prop, dict) and "default" in prop:
                said = f"Default: {orjson.dumps(prop.pop('default')).decode()}."
                text = str(prop.get("description") or "").rstrip()
                prop["description"] = f"{text}{'' if not text or text.endswith('.') else '.'} {said}".strip()
    return doc


def body_schemas(doc: Json) -> set[str]:
    """The components a request body is (through $ref, oneOf, anyOf and allOf; not their fields')."""
    schemas = doc.get("components", {}).get("schemas", {})
    found: set[str] = set()

    def add(node: Any) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF) and ref[len(REF):] not in found:
            found.add(ref[len(REF):])
            add(schemas.get(ref[len(REF):]))
        for key in ("oneOf", "anyOf", "allOf"):
            for member in node.get(key, []):
                add(member)

    for ops in doc.get("paths", {}).values():
        for op in ops.values():
            body = op.get("requestBody") if isinstance(op, dict) else None
            for content in (body or {}).get("content", {}).values():
                add(content.get("schema"))
    return found


def _walk(node: Any, schemas: Json) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, schemas)
        return
    if not isinstance(node, dict):
        return
    _unwrap(node)
    if "default" in node and node["default"] is None:
        del node["default"]
    if node.get("nullable") is True and isinstance(node.get("enum"), list) and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]  # a validator checks `enum` on null too
    if isinstance(node.get("oneOf"), list) and "discriminator" not in node:
        tag = discriminator(node["oneOf"], schemas)
        if tag is not None:
            node["discriminator"] = tag
    for value in node.values():
        _walk(value, schemas)


def _single_ref(node: Json) -> Json | None:
    """The ``$ref`` a schema wraps: ``allOf`` one ref, or apispec's nullable ``anyOf`` of a ref and
    an empty nullable object."""
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and set(all_of[0]) == {"$ref"} and set(node) <= _WRAPPER_KEYS:
        return all_of[0]
    any_of = node.get("anyOf")
    if (isinstance(any_of, list) and len(any_of) == 2 and set(any_of[0]) == {"$ref"}
            and any_of[1] == {"type": "object", "nullable": True} and set(node) <= {"anyOf", "nullable", "description"}):
        return any_of[0]
    return None


def _unwrap(node: Json) -> None:
    ref = _single_ref(node)
    if ref is None:
        return
    description = node.get("description")
    nullable = node.get("nullable") or "anyOf" in node
    node.clear()
    if nullable:
        node["oneOf"] = [dict(ref), dict(NULL)]
    else:
        node.update(ref)
    if description:
        node["description"] = description


def resolve(schema: Json, schemas: Json) -> Json:
    """A ``$ref`` followed (to a component of this document)."""
    seen = 0
    while "$ref" in schema and seen < 32:
        ref = schema["$ref"]
        if not ref.startswith(REF):
            return schema
        schema = schemas.get(ref[len(REF):], {})
        seen += 1
    return schema


def tag_values(member: Json, prop: str, schemas: Json) -> list[Any] | None:
    """The values a union member pins ``prop`` to (a required property with an ``enum``)."""
    target = resolve(member, schemas)
    p = (target.get("properties") or {}).get(prop)
    if not isinstance(p, dict) or prop not in (target.get("required") or ()):
        return None
    enum = resolve(p, schemas).get("enum")
    return list(enum) if isinstance(enum, list) and enum else None


def discriminator(members: list[Any], schemas: Json) -> Json | None:
    """A discriminator for a ``oneOf`` of refs whose targets pin one property to values of their
    own (none shared), or None where no property does."""
    if len(members) < 2 or not all(isinstance(m, dict) and set(m) == {"$ref"} for m in members):
        return None
    for prop in TAGS:
        mapping: dict[str, str] = {}
        for m in members:
            values = tag_values(m, prop, schemas)
            if values is None or any(v in mapping or not isinstance(v, str) for v in values):
                break
            mapping.update(dict.fromkeys(values, m["$ref"]))
        else:
            return {"propertyName": prop, "mapping": mapping}
    return None


class ShapedSpec(APISpec):
    """flask-smorest's ``APISpec`` whose document comes out shaped (``MeowApi._init_spec``)."""

    def to_dict(self) -> dict[str, Any]:
        # a copy: apispec's document shares its component dicts with the spec being built
        return shape(orjson.loads(orjson.dumps(super().to_dict())))


def install(spec: APISpec) -> None:
    """Make ``spec`` (flask-smorest's own, built by its ``Api``) write its document shaped."""
    spec.__class__ = ShapedSpec
