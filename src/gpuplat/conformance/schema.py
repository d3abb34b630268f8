"""Load `terraform providers schema -json` files into a lazily converted, cached index."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

Kind = Literal["resource", "data", "ephemeral"]
_KIND_KEYS: dict[Kind, str] = {
    "resource": "resource_schemas",
    "data": "data_source_schemas",
    "ephemeral": "ephemeral_resource_schemas",
}
JsonObject = dict[str, object]
ENV_VAR = "GPUPLAT_PROVIDER_SCHEMAS"
BUNDLED = Path(__file__).resolve().parent / "schemas"
"""The trimmed schemas shipped with gpuplat (written by ``scripts/trim_schemas.py``)."""
TRIMMED_KEY = "gpuplat_trimmed"


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


def _obj(value: object) -> JsonObject:
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def convert_attribute(raw: JsonObject) -> AttributeSchema:
    """Convert one JSON attribute schema."""
    nested_raw = raw.get("nested_type")
    nested = None
    if isinstance(nested_raw, dict):
        attrs = _obj(nested_raw.get("attributes"))
        nested = NestedAttributes(
            str(nested_raw.get("nesting_mode", "single")),
            {name: convert_attribute(_obj(a)) for name, a in attrs.items()},
        )
    return AttributeSchema(
        required=raw.get("required") is True,
        optional=raw.get("optional") is True,
        computed=raw.get("computed") is True,
        deprecated=raw.get("deprecated") is True,
        nested=nested,
    )


def convert_block(raw: JsonObject) -> BlockSchema:
    """Convert one JSON block schema (the value under ``"block"``), recursively."""
    attributes = {n: convert_attribute(_obj(a)) for n, a in _obj(raw.get("attributes")).items()}
    block_types: dict[str, BlockType] = {}
    for name, bt_raw in _obj(raw.get("block_types")).items():
        bt = _obj(bt_raw)
        block_types[name] = BlockType(
            nesting_mode=str(bt.get("nesting_mode", "list")),
            block=convert_block(_obj(bt.get("block"))),
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
            for kind, key in _KIND_KEYS.items():
                for type_name in _obj(raw.get(key)):
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
            types = _obj(self._raw[provider].get(_KIND_KEYS[kind]))
            self._converted[key] = convert_block(_obj(_obj(types.get(type_name)).get("block")))
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
        kept = list(_obj(self._raw.get(provider, {}).get(_KIND_KEYS[kind])))
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
            self._converted[key] = convert_block(_obj(_obj(raw).get("block"))) if raw else None
        return self._converted[key]


def _local_name(source: str) -> str:
    return source.rstrip("/").rsplit("/", 1)[-1]


@lru_cache(maxsize=32)
def _read_json(path: str, mtime_ns: int, size: int) -> JsonObject:
    del mtime_ns, size  # part of the cache key only
    with Path(path).open("rb") as fh:
        return _obj(json.loads(fh.read()))


def read_schema_file(path: Path) -> list[tuple[ProviderInfo, JsonObject]]:
    """Read one schema file (cached per process by path, mtime and size).

    Args:
        path: A ``terraform providers schema -json`` output, whole or split per provider.

    Returns:
        Each provider in the file with its raw schema.

    Raises:
        ValueError: When the file has no ``provider_schemas`` object.
    """
    stat = path.stat()
    doc = _read_json(str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    providers = doc.get("provider_schemas")
    if not isinstance(providers, dict):
        raise ValueError(f"{path}: no provider_schemas object; not a providers schema file")
    stem_version = path.stem.rsplit("-", 1)[-1] if "-" in path.stem else ""
    omitted_by_source = _obj(_obj(doc.get(TRIMMED_KEY)).get("omitted"))
    out: list[tuple[ProviderInfo, JsonObject]] = []
    for source, raw in providers.items():
        version = _obj(raw).get("version")
        omitted = _obj(omitted_by_source.get(source))
        info = ProviderInfo(
            _local_name(source),
            source,
            version if isinstance(version, str) else stem_version,
            path,
            {
                kind: frozenset(str(n) for n in names)
                for kind, key in _KIND_KEYS.items()
                if isinstance(names := omitted.get(key), list) and names
            },
        )
        out.append((info, _obj(raw)))
    return out


@lru_cache(maxsize=8)
def _load(files: tuple[tuple[str, int, int], ...]) -> ProviderSchemas:
    from gpuplat.conformance import builtin  # late import: builtin imports this module

    entries: list[tuple[ProviderInfo, JsonObject]] = []
    for path, _, _ in files:
        entries.extend(read_schema_file(Path(path)))
    schemas = ProviderSchemas(entries)
    builtin.register(schemas)
    return schemas


def load_schemas(schema_dir: Path, extra: Iterable[Path] = ()) -> ProviderSchemas:
    """Load every ``*.json`` schema in a directory plus extra files (memoised per process).

    Later files win when two describe the same provider; ``extra`` files come last.

    Args:
        schema_dir: A directory of ``<name>-<version>.json`` schema files.
        extra: More schema files, e.g. one generated by real terraform in a test.

    Returns:
        The index.

    Raises:
        FileNotFoundError: When the directory or an extra file does not exist.
        ValueError: When a file is not a providers schema.
    """
    if not schema_dir.is_dir():
        raise FileNotFoundError(f"provider schema directory not found: {schema_dir}")
    paths = [*sorted(schema_dir.glob("*.json")), *extra]
    key = []
    for path in paths:
        stat = path.stat()
        key.append((str(path.resolve()), stat.st_mtime_ns, stat.st_size))
    return _load(tuple(key))


def find_schema_dir() -> Path:
    """The provider schemas to check against: ``$GPUPLAT_PROVIDER_SCHEMAS`` when set, else the
    trimmed set bundled with gpuplat.

    An override is returned as it is, even when it is not a directory: :func:`load_schemas`
    then says so, instead of checking against another set than the one asked for.
    """
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else BUNDLED
