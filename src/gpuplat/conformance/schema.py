"""Provider schemas as typed records: attributes, blocks, and the index the checks read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Kind = Literal["resource", "data", "ephemeral"]
KIND_KEYS: dict[Kind, str] = {
    "resource": "resource_schemas",
    "data": "data_source_schemas",
    "ephemeral": "ephemeral_resource_schemas",
}
JsonObject = dict[str, object]


@dataclass(frozen=True)
class NestedAttributes:
    """The object type of a plugin-framework attribute with ``nested_type``."""

    nesting_mode: str
    attributes: Mapping[str, AttributeSchema]


@dataclass(frozen=True)
class AttributeSchema:
    """One attribute of a block schema."""

    required: bool = False
    optional: bool = False
    computed: bool = False
    deprecated: bool = False
    nested: NestedAttributes | None = None
    as_blocks: BlockSchema | None = None
    """For a list or set of objects: the block its elements may also be written as
    (Terraform's attributes-as-blocks, e.g. ``aws_security_group``'s ``ingress { ... }``),
    every object attribute optional."""

    @property
    def computed_only(self) -> bool:
        """True when the provider sets the value and configuration must not."""
        return self.computed and not self.optional and not self.required


@dataclass(frozen=True)
class BlockType:
    """A nested block type: how it nests, how many may appear, and its own schema."""

    nesting_mode: str
    block: BlockSchema
    min_items: int = 0
    max_items: int = 0

    @property
    def limit(self) -> int:
        """The effective maximum count, 0 meaning unlimited."""
        if self.nesting_mode in ("single", "group"):
            return 1
        return self.max_items


@dataclass(frozen=True)
class BlockSchema:
    """The attributes and nested block types allowed in one block body."""

    attributes: Mapping[str, AttributeSchema]
    block_types: Mapping[str, BlockType]

    def names(self) -> list[str]:
        """Every attribute and block name, for suggestions."""
        return [*self.attributes, *self.block_types]


@dataclass(frozen=True)
class ProviderInfo:
    """Where a provider's schema came from.

    Attributes:
        omitted: For a trimmed file, the types of each kind that exist in the provider but whose
            schemas were left out; empty for a full schema file.
    """

    name: str
    source: str
    version: str
    file: Path
    omitted: Mapping[Kind, frozenset[str]] = field(default_factory=dict)

    @property
    def trimmed(self) -> bool:
        """True when the file holds only some of the provider's types."""
        return bool(self.omitted)


def json_object(value: object) -> JsonObject:
    """``value`` when it is a JSON object, else an empty one (schema files are read loosely)."""
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def convert_attribute(raw: JsonObject) -> AttributeSchema:
    """Convert one JSON attribute schema."""
    nested_raw = raw.get("nested_type")
    nested = None
    if isinstance(nested_raw, dict):
        attrs = json_object(nested_raw.get("attributes"))
        nested = NestedAttributes(
            str(nested_raw.get("nesting_mode", "single")),
            {name: convert_attribute(json_object(a)) for name, a in attrs.items()},
        )
    return AttributeSchema(
        required=raw.get("required") is True,
        optional=raw.get("optional") is True,
        computed=raw.get("computed") is True,
        deprecated=raw.get("deprecated") is True,
        nested=nested,
        as_blocks=None if nested is not None else _object_blocks(raw.get("type")),
    )


def _object_blocks(type_: object) -> BlockSchema | None:
    """The block schema of a ``list(object)`` / ``set(object)`` type, else None.

    Terraform (``internal/lang/blocktoattr``) lets such an attribute be written as blocks, one
    per element, each object attribute an optional block argument (and, recursively, a list
    or set of objects inside one a nested block).
    """
    if not (isinstance(type_, list) and len(type_) == 2 and type_[0] in ("list", "set")):
        return None
    element = type_[1]
    if not (isinstance(element, list) and len(element) >= 2 and element[0] == "object"):
        return None
    fields = element[1] if isinstance(element[1], dict) else {}
    return BlockSchema(
        {
            name: AttributeSchema(optional=True, as_blocks=_object_blocks(t))
            for name, t in fields.items()
        },
        {},
    )


def convert_block(raw: JsonObject) -> BlockSchema:
    """Convert one JSON block schema (the value under ``"block"``), recursively."""
    attributes = {
        n: convert_attribute(json_object(a)) for n, a in json_object(raw.get("attributes")).items()
    }
    block_types: dict[str, BlockType] = {}
    for name, bt_raw in json_object(raw.get("block_types")).items():
        bt = json_object(bt_raw)
        block_types[name] = BlockType(
            nesting_mode=str(bt.get("nesting_mode", "list")),
            block=convert_block(json_object(bt.get("block"))),
            min_items=_int(bt.get("min_items")),
            max_items=_int(bt.get("max_items")),
        )
    return BlockSchema(attributes, block_types)


class ProviderSchemas:
    """Index of provider schemas: resource/data type -> provider and block schema.

    JSON is converted to :class:`BlockSchema` lazily, one type at a time, and memoised.
    """

    def __init__(self, providers: Iterable[tuple[ProviderInfo, JsonObject]]) -> None:
        """Build the index.

        Args:
            providers: Each provider's info and its raw ``provider_schemas`` entry.
        """
        self._raw: dict[str, JsonObject] = {}
        self._info: dict[str, ProviderInfo] = {}
        self._owner: dict[tuple[Kind, str], str] = {}
        self._omitted: dict[tuple[Kind, str], str] = {}
        self._converted: dict[tuple[str, str], BlockSchema | None] = {}
        self._builtin: dict[tuple[Kind, str], BlockSchema] = {}
        for info, raw in providers:  # a later file for the same provider replaces the earlier
            self._raw[info.name] = raw
            self._info[info.name] = info
        for name, raw in self._raw.items():
            for kind, key in KIND_KEYS.items():
                for type_name in json_object(raw.get(key)):
                    self._owner[(kind, type_name)] = name
                for type_name in self._info[name].omitted.get(kind, ()):
                    self._omitted[(kind, type_name)] = name

    def add_builtin(self, kind: Kind, type_name: str, schema: BlockSchema) -> None:
        """Register a type that Terraform itself implements (provider ``terraform``)."""
        self._builtin[(kind, type_name)] = schema

    @property
    def providers(self) -> Mapping[str, ProviderInfo]:
        """The loaded providers by local name."""
        return dict(self._info)

    def lookup(self, kind: Kind, type_name: str) -> tuple[str, BlockSchema] | None:
        """Return the provider local name and block schema of a type, or None if unknown."""
        if (kind, type_name) in self._builtin:
            return "terraform", self._builtin[(kind, type_name)]
        provider = self._owner.get((kind, type_name))
        if provider is None:
            return None
        key = (f"{kind}:{provider}", type_name)
        if key not in self._converted:
            types = json_object(self._raw[provider].get(KIND_KEYS[kind]))
            self._converted[key] = convert_block(
                json_object(json_object(types.get(type_name)).get("block"))
            )
        schema = self._converted[key]
        return None if schema is None else (provider, schema)

    def omitted(self, kind: Kind, type_name: str) -> ProviderInfo | None:
        """The trimmed provider that has this type but whose file left its schema out, if any."""
        provider = self._omitted.get((kind, type_name))
        return None if provider is None else self._info[provider]

    def type_names(self, kind: Kind, provider: str) -> list[str]:
        """Every type of one kind that a provider (or ``terraform``) offers, trimmed or not."""
        if provider == "terraform":
            return [name for k, name in self._builtin if k == kind]
        kept = list(json_object(self._raw.get(provider, {}).get(KIND_KEYS[kind])))
        info = self._info.get(provider)
        return kept + sorted(info.omitted.get(kind, ())) if info else kept

    def knows_provider(self, name: str) -> bool:
        """True when a schema for provider ``name`` (or the built-in ``terraform``) is loaded."""
        return name in self._raw or name == "terraform"

    def provider_config(self, name: str) -> BlockSchema | None:
        """The schema of the provider's own configuration block, when the file has one."""
        key = ("provider", name)
        if key not in self._converted:
            raw = self._raw.get(name, {}).get("provider")
            self._converted[key] = (
                convert_block(json_object(json_object(raw).get("block"))) if raw else None
            )
        return self._converted[key]
