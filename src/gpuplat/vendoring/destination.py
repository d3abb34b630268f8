"""What a repository's own Terraform says: version constraints and local module sources.

Read with python-hcl2, every value with the file, line and column it was written at, so a
conflict or a rewritten ``source`` names the place in the repository.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hcl2.api import parses
from hcl2.rules.base import AttributeRule, BlockRule, BodyRule
from hcl2.utils import SerializationOptions

_PLAIN = SerializationOptions(with_comments=False, strip_string_quotes=True)
SKIPPED_DIRS = frozenset({".git", ".terraform", "node_modules", "cdktf.out", ".gpuplat"})
"""Folders never read: tool state and caches, not the repository's own Terraform."""


@dataclass(frozen=True)
class Located:
    """A string value in a .tf file."""

    file: Path
    line: int
    col: int
    value: str
    start: int = 0
    """Character offsets of the quoted literal in the file's text (for rewriting it)."""
    end: int = 0

    def where(self, root: Path) -> str:
        """``file:line:col`` relative to ``root``."""
        return f"{_rel(self.file, root)}:{self.line}:{self.col}"


@dataclass(frozen=True)
class ProviderPin:
    """One ``required_providers`` entry."""

    name: str
    source: str
    """Fully qualified: ``registry.terraform.io/hashicorp/aws``."""
    version: Located | None


@dataclass(frozen=True)
class ModuleSource:
    """The ``source`` of one ``module`` block."""

    label: str
    source: Located


@dataclass
class TerraformFile:
    """What one .tf file declares."""

    path: Path
    required_version: list[Located]
    providers: list[ProviderPin]
    modules: list[ModuleSource]


@dataclass(frozen=True)
class Unreadable:
    """A .tf file python-hcl2 could not read: its constraints were not checked."""

    path: Path
    line: int
    reason: str


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def qualify(source: str) -> str:
    """A provider source address with its registry host: ``registry.terraform.io/a/b``."""
    parts = source.lower().split("/")
    if len(parts) == 1:
        parts = ["hashicorp", *parts]
    if len(parts) == 2:
        parts = ["registry.terraform.io", *parts]
    return "/".join(parts)


def tf_files(root: Path, skip: tuple[Path, ...] = ()) -> Iterator[Path]:
    """Every .tf file under ``root``, in a stable order, outside tool folders and ``skip``."""
    skipped = {p.resolve() for p in skip}
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and (here / d).resolve() not in skipped
        )
        for name in sorted(files):
            if name.endswith(".tf"):
                yield here / name


def _string(node: object, path: Path, text: str) -> Located | None:
    """The literal string an expression is, with its place; None for anything else."""
    inner = next((c for c in getattr(node, "children", ()) if c is not None), None)
    if type(inner).__name__ != "StringRule":
        return None
    value = str(inner.serialize(_PLAIN))  # type: ignore[union-attr]
    if "${" in value or "%{" in value:
        return None
    meta = inner._meta  # type: ignore[union-attr]
    return Located(
        path, int(meta.line), int(meta.column), value, int(meta.start_pos), int(meta.end_pos)
    )


def _object(node: object) -> dict[str, object]:
    """``{key: value expression}`` of an object expression (empty for anything else)."""
    inner = next((c for c in getattr(node, "children", ()) if c is not None), None)
    if type(inner).__name__ != "ObjectRule":
        return {}
    out: dict[str, object] = {}
    for elem in inner.children:  # type: ignore[union-attr]
        if type(elem).__name__ == "ObjectElemRule":
            key = str(elem.children[0].serialize(_PLAIN)).strip('"')
            out[key] = elem.children[2]
    return out


def _blocks(body: BodyRule, type_: str) -> Iterator[BlockRule]:
    for child in body.children:
        if isinstance(child, BlockRule) and str(child.labels[0].serialize(_PLAIN)) == type_:
            yield child


def _attributes(body: BodyRule) -> Iterator[tuple[str, AttributeRule]]:
    for child in body.children:
        if isinstance(child, AttributeRule):
            yield str(child.identifier.serialize(_PLAIN)), child


def read_file(path: Path, text: str) -> TerraformFile:
    """The constraints and module sources of one file's text.

    Raises:
        ValueError: python-hcl2 cannot read the text (the message says where, when it can).
    """
    try:
        start = parses(text)
    except Exception as exc:  # lark raises several unrelated exception types
        line = getattr(exc, "line", 1)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{line if isinstance(line, int) else 1}\0{first}") from exc
    found = TerraformFile(path, [], [], [])
    for block in _blocks(start.body, "terraform"):
        for name, attr in _attributes(block.body):
            if name == "required_version":
                located = _string(attr.expression, path, text)
                if located is not None:
                    found.required_version.append(located)
        for req in _blocks(block.body, "required_providers"):
            for name, attr in _attributes(req.body):
                fields = _object(attr.expression)
                if fields:
                    src = _string(fields["source"], path, text) if "source" in fields else None
                    ver = _string(fields["version"], path, text) if "version" in fields else None
                    source = qualify(src.value if src else name)
                else:  # the old form: aws = "~> 4.0"
                    ver, source = _string(attr.expression, path, text), qualify(name)
                found.providers.append(ProviderPin(name, source, ver))
    for block in _blocks(start.body, "module"):
        label = str(block.labels[1].serialize(_PLAIN)) if len(block.labels) > 1 else ""
        for name, attr in _attributes(block.body):
            if name == "source":
                located = _string(attr.expression, path, text)
                if located is not None:
                    found.modules.append(ModuleSource(label, located))
    return found


def read_repository(
    root: Path, skip: tuple[Path, ...] = ()
) -> tuple[list[TerraformFile], list[Unreadable]]:
    """Every .tf file of a repository, read; and those that could not be.

    Raises:
        OSError: A file could not be read.
    """
    files: list[TerraformFile] = []
    unreadable: list[Unreadable] = []
    for path in tf_files(root, skip):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            unreadable.append(Unreadable(path, 1, "not UTF-8"))
            continue
        try:
            files.append(read_file(path, text))
        except ValueError as exc:
            line, _, reason = str(exc).partition("\0")
            unreadable.append(Unreadable(path, int(line) if line.isdigit() else 1, reason))
    return files, unreadable
