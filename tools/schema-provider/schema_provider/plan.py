"""PlanResourceChange for the stand-in: the planned state is the proposed one, computed values unknown.

Terraform sends the proposed new state (the configuration merged with the prior state). A real
provider would fill in defaults and what the API computes; the stand-in knows neither, so every
computed attribute the configuration leaves null becomes unknown, exactly as a provider that
defers those values to apply would plan them, and everything else is planned as configured.
That is enough for ``terraform plan`` + ``terraform show -json`` to give the attributes a
configuration sets, offline. Nothing is ever applied: ApplyResourceChange stays refused.

Values are MessagePack as described in Terraform's docs/plugin-protocol/object-wire-format.md:
a block is a map of attribute and block-type names; an unknown value is extension code 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgpack

from . import wire

UNKNOWN = msgpack.ExtType(0, b"\x00")
_SINGLE, _LIST, _SET, _MAP, _GROUP = 1, 2, 3, 4, 5


@dataclass
class Attribute:
    computed: bool
    nested: Block | None = None
    nesting: int = 0


@dataclass
class Block:
    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: dict[str, tuple[int, Block]] = field(default_factory=dict)


def _text(value: bytes | int) -> str:
    assert isinstance(value, bytes)
    return value.decode("utf-8")


def _flag(msg: dict[int, list[bytes | int]], number: int) -> bool:
    return bool(msg.get(number, [0])[0])


def _attribute(payload: bytes) -> tuple[str, Attribute]:
    msg = wire.fields(payload)
    attr = Attribute(computed=_flag(msg, 6))
    if 10 in msg:  # nested_type: Schema.Object{attributes = 1, nesting = 3}
        obj = wire.fields(_bytes(msg[10][0]))
        nested = Block()
        for entry in obj.get(1, []):
            name, sub = _attribute(_bytes(entry))
            nested.attributes[name] = sub
        attr.nested, attr.nesting = nested, int(obj.get(3, [_SINGLE])[0])
    return _text(msg[1][0]), attr


def _bytes(value: bytes | int) -> bytes:
    assert isinstance(value, bytes)
    return value


def block(payload: bytes) -> Block:
    """A Schema.Block message (attributes = 2, block_types = 3) as a Block."""
    msg = wire.fields(payload)
    out = Block()
    for entry in msg.get(2, []):
        name, attr = _attribute(_bytes(entry))
        out.attributes[name] = attr
    for entry in msg.get(3, []):
        nb = wire.fields(_bytes(entry))  # NestedBlock{type_name = 1, block = 2, nesting = 3}
        inner = block(_bytes(nb[2][0])) if 2 in nb else Block()
        out.blocks[_text(nb[1][0])] = (int(nb.get(3, [_SINGLE])[0]), inner)
    return out


def resource_blocks(schema_response: bytes) -> dict[str, Block]:
    """Managed resource type -> its block schema, from a GetProviderSchema.Response."""
    out: dict[str, Block] = {}
    for entry in wire.fields(schema_response).get(2, []):
        pair = wire.fields(_bytes(entry))  # map entry: key = 1, value = Schema{block = 2}
        schema = wire.fields(_bytes(pair[2][0]))
        out[_text(pair[1][0])] = block(_bytes(schema[2][0])) if 2 in schema else Block()
    return out


def _each(nesting: int, value: object, fn: object) -> object:
    """Apply ``fn`` to every element of a nested value of the given nesting mode."""
    assert callable(fn)
    if value is None or isinstance(value, msgpack.ExtType):
        return value
    if nesting in (_LIST, _SET) and isinstance(value, list):
        return [fn(v) for v in value]
    if nesting == _MAP and isinstance(value, dict):
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
                item = _each(attr.nesting, item, lambda v, n=nested: planned(n, v))
        elif name in schema.blocks:
            nesting, inner = schema.blocks[name]
            item = _each(nesting, item, lambda v, b=inner: planned(b, v))
        out[name] = item
    return out


def plan_response(request: bytes, schemas: dict[str, Block]) -> bytes:
    """PlanResourceChange.Response (planned_state = 1) for a PlanResourceChange.Request."""
    msg = wire.fields(request)
    type_name = _text(msg[1][0])
    proposed = wire.fields(_bytes(msg[3][0])) if 3 in msg else {}
    raw = _bytes(proposed[1][0]) if 1 in proposed else msgpack.packb(None)
    value = msgpack.unpackb(raw, raw=False)
    schema = schemas.get(type_name, Block())
    state = msgpack.packb(planned(schema, value), use_bin_type=True)
    return wire.length_delimited(1, wire.length_delimited(1, state))
