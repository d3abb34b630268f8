"""Check one block body against a block schema, recursively, unwrapping ``dynamic`` blocks."""

from __future__ import annotations

from collections.abc import Collection

from gpuplat.conformance.builtin import DYNAMIC
from gpuplat.conformance.hclread import Block, Body, unquote
from gpuplat.conformance.report import Collector, suggest
from gpuplat.conformance.schema import BlockSchema, BlockType, NestedAttributes


def _at(path: str, name: str) -> str:
    return f"`{path}{name}`"


class BodyChecker:
    """Checks bodies of one top-level block, reporting under its address."""

    def __init__(self, out: Collector, address: str) -> None:
        """Create a checker.

        Args:
            out: Where findings go.
            address: The top-level block's address, e.g. ``google_container_node_pool.this``.
        """
        self.out = out
        self.address = address

    def check(
        self,
        body: Body,
        schema: BlockSchema,
        line: int,
        path: str = "",
        meta: Collection[str] = (),
    ) -> None:
        """Check a body: attribute and block names, computed-only, required, block counts.

        Args:
            body: The body to check.
            schema: Its schema.
            line: The line of the block that owns the body (for missing things).
            path: Dotted path of the body inside the top-level block, ending in ``.`` or empty.
            meta: Attribute and block names handled by the caller (meta-arguments).
        """
        self._attributes(body, schema, line, path, meta)
        counts: dict[str, list[int]] = {}
        dynamic: set[str] = set()
        for block in body.blocks:
            if block.type in meta:
                continue
            if block.type == "dynamic":
                target = self._dynamic(block, schema, path)
                if target:
                    dynamic.add(target)
                continue
            block_type = schema.block_types.get(block.type)
            if block_type is None:
                written = schema.attributes.get(block.type)
                if written is not None and written.as_blocks is not None and not block.labels:
                    self.check(block.body, written.as_blocks, block.line, f"{path}{block.type}.")
                else:
                    self._not_a_block(block.type, block.line, schema, path, meta)
                continue
            counts.setdefault(block.type, []).append(block.line)
            self._labels(block, block_type, path)
            self.check(block.body, block_type.block, block.line, f"{path}{block.type}.")
        for name, block_type in schema.block_types.items():
            self._count(name, block_type, counts.get(name, []), name in dynamic, line, path)

    def _attributes(
        self, body: Body, schema: BlockSchema, line: int, path: str, meta: Collection[str]
    ) -> None:
        seen: set[str] = set()
        for attr in body.attributes:
            if attr.name in seen:
                self.out.add(
                    attr.line,
                    "duplicate-attribute",
                    self.address,
                    f"{_at(path, attr.name)} set twice",
                )
            seen.add(attr.name)
            if attr.name in meta:
                continue
            spec = schema.attributes.get(attr.name)
            if spec is None:
                if attr.name in schema.block_types:
                    self.out.add(
                        attr.line,
                        "attribute-is-block",
                        self.address,
                        f"{_at(path, attr.name)} is a nested block; write `{attr.name} {{ ... }}`"
                        " (or a `dynamic` block), not `=`",
                    )
                else:
                    self.out.add(
                        attr.line,
                        "unknown-attribute",
                        self.address,
                        f"unknown attribute {_at(path, attr.name)}"
                        + suggest(attr.name, [*schema.names(), *meta]),
                    )
            elif spec.computed_only:
                self.out.add(
                    attr.line,
                    "computed-only",
                    self.address,
                    f"{_at(path, attr.name)} is computed by the provider and cannot be set",
                )
            elif spec.nested is not None:
                self._nested(attr.value, spec.nested, attr.line, f"{path}{attr.name}.")
        for name, spec in schema.attributes.items():
            if spec.required and name not in seen and not (spec.as_blocks and body.blocks_of(name)):
                self.out.add(
                    line, "missing-required", self.address, f"required attribute {_at(path, name)}"
                )

    def _nested(self, value: object, nested: NestedAttributes, line: int, path: str) -> None:
        """Check literal objects given to a plugin-framework nested attribute (keys only)."""
        if nested.nesting_mode == "single":
            objects = [value]
        elif nested.nesting_mode == "map":
            objects = list(value.values()) if isinstance(value, dict) else []
        else:
            objects = list(value) if isinstance(value, list) else []
        for obj in objects:
            if not isinstance(obj, dict):
                continue  # an expression: its keys are only known after evaluation
            keys = {unquote(str(k)): v for k, v in obj.items()}
            for key, sub in keys.items():
                spec = nested.attributes.get(key)
                if spec is None:
                    self.out.add(
                        line,
                        "unknown-attribute",
                        self.address,
                        f"unknown attribute {_at(path, key)}" + suggest(key, nested.attributes),
                    )
                elif spec.computed_only:
                    self.out.add(
                        line,
                        "computed-only",
                        self.address,
                        f"{_at(path, key)} is computed by the provider and cannot be set",
                    )
                elif spec.nested is not None:
                    self._nested(sub, spec.nested, line, f"{path}{key}.")
            for name, spec in nested.attributes.items():
                if spec.required and name not in keys:
                    self.out.add(
                        line,
                        "missing-required",
                        self.address,
                        f"required attribute {_at(path, name)} missing in object",
                    )

    def _not_a_block(
        self, name: str, line: int, schema: BlockSchema, path: str, meta: Collection[str]
    ) -> None:
        if name in schema.attributes:
            self.out.add(
                line,
                "block-is-attribute",
                self.address,
                f"{_at(path, name)} is an attribute; write `{name} = ...`, not a block",
            )
        else:
            self.out.add(
                line,
                "unknown-block",
                self.address,
                f"unknown block {_at(path, name)}" + suggest(name, [*schema.names(), *meta]),
            )

    def _labels(self, block: Block, block_type: BlockType, path: str) -> None:
        want = 1 if block_type.nesting_mode == "map" else 0
        if len(block.labels) != want:
            self.out.add(
                block.line,
                "block-labels",
                self.address,
                f"block {_at(path, block.type)} takes {want} label(s), got {len(block.labels)}",
            )

    def _dynamic(self, block: Block, schema: BlockSchema, path: str) -> str | None:
        """Check a ``dynamic "x"`` block; return ``x`` when it names a nested block type."""
        if len(block.labels) != 1:
            self.out.add(
                block.line,
                "block-labels",
                self.address,
                f"`{path}dynamic` takes 1 label (the block type), got {len(block.labels)}",
            )
            return None
        name = block.labels[0]
        where = f"{path}dynamic.{name}."
        self.check(block.body, DYNAMIC, block.line, where, meta=("content",))
        contents = block.body.blocks_of("content")
        if not contents:
            self.out.add(
                block.line,
                "missing-required",
                self.address,
                f"`{path}dynamic.{name}` has no `content` block",
            )
        for extra in contents[1:]:
            self.out.add(extra.line, "block-count", self.address, f"`{where}content` given twice")
        block_type = schema.block_types.get(name)
        written = schema.attributes.get(name)
        if block_type is None and written is not None and written.as_blocks is not None:
            for content in contents:
                self.check(content.body, written.as_blocks, content.line, f"{path}{name}.")
            return name
        if block_type is None:
            self._not_a_block(name, block.line, schema, path, ())
            return None
        for content in contents:
            self.check(content.body, block_type.block, content.line, f"{path}{name}.")
        return name

    def _count(
        self,
        name: str,
        block_type: BlockType,
        lines: list[int],
        dynamic: bool,
        line: int,
        path: str,
    ) -> None:
        count, low, high = len(lines), block_type.min_items, block_type.limit
        if count == 0 and low > 0 and not dynamic:
            self.out.add(
                line,
                "missing-required",
                self.address,
                f"required block {_at(path, name)} (min_items={low})",
            )
        elif 0 < count < low and not dynamic:
            self.out.add(
                lines[0],
                "block-count",
                self.address,
                f"block {_at(path, name)} given {count} time(s); at least {low} required",
            )
        if high and count > high:
            self.out.add(
                lines[high],
                "block-count",
                self.address,
                f"block {_at(path, name)} given {count} times; at most {high} allowed",
            )
