"""PlanResourceChange for the stand-in: the planned state is the proposed one, computed values unknown.

Terraform sends the proposed new state (the configuration merged with the prior state). A real
provider would fill in defaults and what the API computes; the stand-in knows neither, so every
computed attribute the configuration leaves null becomes unknown, exactly as a provider that
defers those values to apply would plan them, and everything else is planned as configured.
That is enough for ``terraform plan`` + ``terraform show -json`` to give the attributes a
configuration sets, offline. Nothing is ever applied: ApplyResourceChange stays refused,
unless record mode (:mod:`schema_provider.record`) is on.

Values are MessagePack as described in Terraform's docs/plugin-protocol/object-wire-format.md:
a block is a map of attribute and block-type names; an unknown value is extension code 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import msgpack

from . import wire

UNKNOWN = msgpack.ExtType(0, b"\x00")
SINGLE, LIST, SET, MAP, GROUP = 1, 2, 3, 4, 5


@dataclass
class Attribute:
    computed: bool
    nested: Block | None = None
    nesting: int = 0
    type: object = None  # the cty type JSON, decoded ("string", ["list", "string"], ...)


@dataclass
class Block:
    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: dict[str, tuple[int, Block]] = field(default_factory=dict)


def text(value: bytes | int) -> str:
    """A decoded protobuf string field."""
    assert isinstance(value, bytes)
    return value.decode("utf-8")


def _flag(msg: dict[int, list[bytes | int]], number: int) -> bool:
    return bool(msg.get(number, [0])[0])


def _attribute(payload: bytes) -> tuple[str, Attribute]:
    msg = wire.fields(payload)
    attr = Attribute(computed=_flag(msg, 6))
    if 2 in msg:  # a nested attribute (nested_type) has no type of its own
        attr.type = json.loads(as_bytes(msg[2][0]))
    if 10 in msg:  # nested_type: Schema.Object{attributes = 1, nesting = 3}
        obj = wire.fields(as_bytes(msg[10][0]))
        nested = Block()
        for entry in obj.get(1, []):
            name, sub = _attribute(as_bytes(entry))
            nested.attributes[name] = sub
        attr.nested, attr.nesting = nested, int(obj.get(3, [SINGLE])[0])
    return text(msg[1][0]), attr


def as_bytes(value: bytes | int) -> bytes:
    """A decoded protobuf bytes or sub-message field."""
    assert isinstance(value, bytes)
    return value


def block(payload: bytes) -> Block:
    """A Schema.Block message (attributes = 2, block_types = 3) as a Block."""
    msg = wire.fields(payload)
    out = Block()
    for entry in msg.get(2, []):
        name, attr = _attribute(as_bytes(entry))
        out.attributes[name] = attr
    for entry in msg.get(3, []):
        nb = wire.fields(as_bytes(entry))  # NestedBlock{type_name = 1, block = 2, nesting = 3}
        inner = block(as_bytes(nb[2][0])) if 2 in nb else Block()
        out.blocks[text(nb[1][0])] = (int(nb.get(3, [SINGLE])[0]), inner)
    return out


RESOURCES, DATA_SOURCES = 2, 3  # GetProviderSchema.Response map fields


def resource_blocks(schema_response: bytes, kind: int = RESOURCES) -> dict[str, Block]:
    """Type name -> its block schema, from a GetProviderSchema.Response.

    ``kind`` picks the map: managed resources (the default) or data sources.
    """
    out: dict[str, Block] = {}
    for entry in wire.fields(schema_response).get(kind, []):
        pair = wire.fields(as_bytes(entry))  # map entry: key = 1, value = Schema{block = 2}
        schema = wire.fields(as_bytes(pair[2][0]))
        out[text(pair[1][0])] = block(as_bytes(schema[2][0])) if 2 in schema else Block()
    return out


def each(nesting: int, value: object, fn: object) -> object:
    """Apply ``fn`` to every element of a nested value of the given nesting mode."""
    assert callable(fn)
    if value is None or isinstance(value, msgpack.ExtType):
        return value
    if nesting in (LIST, SET) and isinstance(value, list):
        return [fn(v) for v in value]
    if nesting == MAP and isinstance(value, dict):
        return {k: fn(v) for k, v in value.items()}
    return fn(value)


def planned(schema: Block, value: object) -> object:
    """The planned value of one block: computed attributes left null become unknown."""
    if not isinstance(value, dict):
        return value
    out: dict[object, object] = {}
    for name, item in value.items():
        attr = schema.attributes.get(name)
        if attr is not None:
            if item is None and attr.computed:
                item = UNKNOWN
            elif attr.nested is not None:
                nested = attr.nested
                item = each(attr.nesting, item, lambda v, n=nested: planned(n, v))
        elif name in schema.blocks:
            nesting, inner = schema.blocks[name]
            item = each(nesting, item, lambda v, b=inner: planned(b, v))
        out[name] = item
    return out


def plan_response(request: bytes, schemas: dict[str, Block]) -> bytes:
    """PlanResourceChange.Response (planned_state = 1) for a PlanResourceChange.Request."""
    msg = wire.fields(request)
    type_name = text(msg[1][0])
    proposed = wire.fields(as_bytes(msg[3][0])) if 3 in msg else {}
    raw = as_bytes(proposed[1][0]) if 1 in proposed else msgpack.packb(None)
    value = msgpack.unpackb(raw, raw=False)
    schema = schemas.get(type_name, Block())
    state = msgpack.packb(planned(schema, value), use_bin_type=True)
    return wire.length_delimited(1, wire.length_delimited(1, state))
