"""Turn ``terraform providers schema -json`` documents into tfplugin6 protobuf messages.

The JSON is Terraform's own rendering of the Schema messages a provider sent
(internal/command/jsonprovider), so the mapping back is one to one:

==========================  =====================================================
JSON                        tfplugin6
==========================  =====================================================
``version``, ``block``      Schema.version (1), Schema.block (2)
block ``attributes``        Schema.Block.attributes (2), sorted by name
block ``block_types``       Schema.Block.block_types (3) as Schema.NestedBlock
attribute ``type``          Schema.Attribute.type (2): the cty type JSON, verbatim
attribute ``nested_type``   Schema.Attribute.nested_type (10) as Schema.Object
``nesting_mode``            SINGLE/LIST/SET/MAP (+ GROUP for blocks)
``min_items/max_items``     Schema.NestedBlock 4/5 (Schema.Object 4/5, deprecated)
flags                       required 4, optional 5, computed 6, sensitive 7,
                            deprecated 9, write_only 11
``description(_kind)``      3 and 8 (attributes), 4 and 5 (blocks)
==========================  =====================================================

Unknown keys are an error rather than silently dropped: a newer JSON format with a field this
converter does not know must not quietly turn into a looser schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import wire

_STRING_KIND = {"plain": 0, "markdown": 1}
_BLOCK_NESTING = {"single": 1, "list": 2, "set": 3, "map": 4, "group": 5}
_OBJECT_NESTING = {"single": 1, "list": 2, "set": 3, "map": 4}

_ATTRIBUTE_KEYS = {
    "type",
    "nested_type",
    "description",
    "description_kind",
    "required",
    "optional",
    "computed",
    "sensitive",
    "deprecated",
    "write_only",
}
_BLOCK_KEYS = {"attributes", "block_types", "description", "description_kind", "deprecated"}
_BLOCK_TYPE_KEYS = {"nesting_mode", "block", "min_items", "max_items"}
_OBJECT_KEYS = {"attributes", "nesting_mode", "min_items", "max_items"}
_SCHEMA_KEYS = {"version", "block"}

Json = Mapping[str, Any]


class SchemaFormatError(ValueError):
    """The JSON is not a schema this converter understands."""


def _check_keys(obj: Json, allowed: set[str], where: str) -> None:
    extra = set(obj) - allowed
    if extra:
        raise SchemaFormatError(f"{where}: unknown schema keys {sorted(extra)}")


def _kind(obj: Json, where: str) -> int:
    kind = obj.get("description_kind", "plain")
    if kind not in _STRING_KIND:
        raise SchemaFormatError(f"{where}: unknown description_kind {kind!r}")
    return _STRING_KIND[kind]


def attribute(name: str, attr: Json, where: str) -> bytes:
    where = f"{where}.{name}"
    _check_keys(attr, _ATTRIBUTE_KEYS, where)
    has_type, has_nested = "type" in attr, "nested_type" in attr
    if has_type == has_nested:
        raise SchemaFormatError(f"{where}: exactly one of type and nested_type is required")
    cty_type = json.dumps(attr["type"], separators=(",", ":")).encode("utf-8") if has_type else None
    nested = nested_object(attr["nested_type"], where) if has_nested else None
    return b"".join(
        (
            wire.string(1, name),
            wire.raw(2, cty_type),
            wire.string(3, attr.get("description")),
            wire.boolean(4, attr.get("required")),
            wire.boolean(5, attr.get("optional")),
            wire.boolean(6, attr.get("computed")),
            wire.boolean(7, attr.get("sensitive")),
            wire.integer(8, _kind(attr, where)),
            wire.boolean(9, attr.get("deprecated")),
            wire.message(10, nested),
            wire.boolean(11, attr.get("write_only")),
        )
    )


def nested_object(obj: Json, where: str) -> bytes:
    _check_keys(obj, _OBJECT_KEYS, where)
    mode = obj.get("nesting_mode")
    if mode not in _OBJECT_NESTING:
        raise SchemaFormatError(f"{where}: unknown nested attribute nesting_mode {mode!r}")
    attrs = obj.get("attributes", {})
    return b"".join(
        (
            wire.repeated(1, (attribute(n, attrs[n], where) for n in sorted(attrs))),
            wire.integer(3, _OBJECT_NESTING[mode]),
            wire.integer(4, obj.get("min_items")),
            wire.integer(5, obj.get("max_items")),
        )
    )


def block(blk: Json, where: str) -> bytes:
    _check_keys(blk, _BLOCK_KEYS, where)
    attrs = blk.get("attributes", {})
    types = blk.get("block_types", {})
    clash = set(attrs) & set(types)
    if clash:
        raise SchemaFormatError(f"{where}: names are both attribute and block: {sorted(clash)}")
    return b"".join(
        (
            wire.repeated(2, (attribute(n, attrs[n], where) for n in sorted(attrs))),
            wire.repeated(3, (nested_block(n, types[n], where) for n in sorted(types))),
            wire.string(4, blk.get("description")),
            wire.integer(5, _kind(blk, where)),
            wire.boolean(6, blk.get("deprecated")),
        )
    )


def nested_block(name: str, nb: Json, where: str) -> bytes:
    where = f"{where}.{name}"
    _check_keys(nb, _BLOCK_TYPE_KEYS, where)
    mode = nb.get("nesting_mode")
    if mode not in _BLOCK_NESTING:
        raise SchemaFormatError(f"{where}: unknown block nesting_mode {mode!r}")
    return b"".join(
        (
            wire.string(1, name),
            wire.message(2, block(nb.get("block", {}), where)),
            wire.integer(3, _BLOCK_NESTING[mode]),
            wire.integer(4, nb.get("min_items")),
            wire.integer(5, nb.get("max_items")),
        )
    )


def schema(doc: Json, where: str) -> bytes:
    _check_keys(doc, _SCHEMA_KEYS, where)
    return wire.integer(1, doc.get("version")) + wire.message(2, block(doc.get("block", {}), where))


def _schema_map(docs: Json, where: str) -> list[tuple[str, bytes]]:
    return [(name, schema(docs[name], f"{where}.{name}")) for name in sorted(docs)]


def server_capabilities() -> bytes:
    # get_provider_schema_optional (2): Terraform may reuse a schema it already fetched within
    # one command instead of asking each new provider process again, as the real
    # SDKv2/framework providers allow.
    return wire.boolean(2, True)


def provider_schema_response(provider: Json, provider_config: Json) -> bytes:
    """GetProviderSchema.Response for one provider's entry of ``provider_schemas``."""
    known = {
        "provider",
        "resource_schemas",
        "data_source_schemas",
        "ephemeral_resource_schemas",
        "functions",
        "resource_identity_schemas",
        "version",
    }
    _check_keys(provider, known, "provider_schemas entry")
    if provider.get("functions"):
        raise SchemaFormatError("provider-defined functions are not supported by the stand-in")
    return b"".join(
        (
            wire.message(1, schema(provider_config, "provider")),
            wire.map_of_messages(2, _schema_map(provider.get("resource_schemas", {}), "resource")),
            wire.map_of_messages(3, _schema_map(provider.get("data_source_schemas", {}), "data")),
            # provider_meta (5): an empty block, as SDK providers send it.
            wire.message(5, wire.message(2, b"")),
            wire.message(6, server_capabilities()),
            wire.map_of_messages(
                8, _schema_map(provider.get("ephemeral_resource_schemas", {}), "ephemeral")
            ),
        )
    )


def metadata_response(provider: Json) -> bytes:
    """GetMetadata.Response: capabilities and the type names, without the schemas."""

    def names(field: int, key: str) -> bytes:
        return wire.repeated(field, (wire.string(1, n) for n in sorted(provider.get(key, {}))))

    return b"".join(
        (
            wire.message(1, server_capabilities()),
            names(3, "data_source_schemas"),
            names(4, "resource_schemas"),
            names(6, "ephemeral_resource_schemas"),
        )
    )


def load_provider(schema_file: Path, address: str | None = None) -> tuple[str, Json]:
    """The one (or the named) provider entry of a ``terraform providers schema -json`` file."""
    doc = json.loads(schema_file.read_text(encoding="utf-8"))
    entries = doc.get("provider_schemas")
    if not isinstance(entries, dict) or not entries:
        raise SchemaFormatError(f"{schema_file}: no provider_schemas")
    if address is None:
        if len(entries) != 1:
            raise SchemaFormatError(
                f"{schema_file}: {len(entries)} providers; name one of {sorted(entries)}"
            )
        address = next(iter(entries))
    if address not in entries:
        raise SchemaFormatError(f"{schema_file}: no schema for {address}")
    return address, entries[address]
