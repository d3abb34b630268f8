"""YAML loading that keeps every node's file, line and column.

PyYAML's composer (libyaml when present) gives nodes with marks; this module turns them into a
tree of :class:`Node` objects and reports, instead of silently accepting, the YAML features that
hide mistakes: duplicate keys, merge keys, custom tags and YAML 1.1 booleans such as ``on``.
Plain scalars are resolved with the YAML 1.2 core schema, so ``country: NO`` stays a string.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from gpuplat.spec.diagnostics import Diagnostic, KeyPath, Mark, Severity

MAX_BYTES = 8 * 1024 * 1024
"""Larger specs are refused: a GPU platform spec is kilobytes; megabytes means a mistake."""
MAX_NODES = 500_000
"""Guards against alias bombs (a few lines of anchors that expand to billions of nodes)."""
MAX_DEPTH = 64

Scalar = str | int | float | bool | None

_RESOLVER = yaml.resolver.Resolver()
_IMPLICIT: dict[tuple[str, tuple[bool, bool]], str] = {}
"""The tag PyYAML's resolver gives a scalar, by its text: a few hundred distinct texts (names,
machine types, counts) make up the thousands of scalars of a large spec, and the regular
expressions of each lookup are most of the parse (a spec's loader adds no path resolvers, so
a scalar's tag depends on its text alone)."""
_IMPLICIT_MAX = 1 << 16


def _implicit_tag(text: str, implicit: tuple[bool, bool]) -> str:
    key = (text, implicit)
    tag = _IMPLICIT.get(key)
    if tag is None:
        if len(_IMPLICIT) >= _IMPLICIT_MAX:
            _IMPLICIT.clear()
        tag = _IMPLICIT[key] = _RESOLVER.resolve(yaml.ScalarNode, text, implicit)  # type: ignore[no-untyped-call]
    return tag


def _resolve(self: yaml.resolver.BaseResolver, kind: type, value: object, implicit: object) -> str:
    if kind is yaml.ScalarNode and isinstance(value, str) and isinstance(implicit, tuple):
        return _implicit_tag(value, implicit)
    return yaml.resolver.Resolver.resolve(self, kind, value, implicit)  # type: ignore[no-untyped-call,no-any-return]


_Loader: type = type(
    "_Loader", (getattr(yaml, "CSafeLoader", yaml.SafeLoader),), {"resolve": _resolve}
)

_TAG = "tag:yaml.org,2002:"
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_SPECIAL_FLOAT = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}


@dataclass(slots=True)
class Node:
    """A YAML value with where it came from.

    ``value`` is a ``dict[str, Node]``, a ``list[Node]`` or a scalar. ``key_mark`` is where the
    key that holds this value was written (None for list items and the document root).
    ``raw`` keeps a scalar's source text, for hints such as "quote 1.30".
    """

    value: dict[str, Node] | list[Node] | Scalar
    mark: Mark
    key_mark: Mark | None = None
    raw: str | None = None
    quoted: bool = False

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list)

    def to_data(self) -> object:
        """Plain Python data (dicts, lists, scalars) for model validation."""
        if isinstance(self.value, dict):
            return {key: child.to_data() for key, child in self.value.items()}
        if isinstance(self.value, list):
            return [child.to_data() for child in self.value]
        return self.value

    def walk(self, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Node]]:
        """Every node under this one with its key path, this node first."""
        yield path, self
        if isinstance(self.value, dict):
            for key, child in self.value.items():
                yield from child.walk((*path, key))
        elif isinstance(self.value, list):
            for index, child in enumerate(self.value):
                yield from child.walk((*path, index))


@dataclass
class LoadResult:
    """A loaded document (None when it could not be read) and the problems found reading it."""

    root: Node | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    digest: str | None = None
    """sha256 of the bytes :func:`load_file` read (None when it could not read the file)."""


def load_file(path: Path, display: str, *, rank: int = 0, allow_empty: bool = False) -> LoadResult:
    """Read one YAML file into a located tree.

    Args:
        path: File to read.
        display: How the file is named in diagnostics (relative to the project folder).
        rank: Sort rank of this file among the files of one load (base spec first).
        allow_empty: An empty document is an empty mapping instead of an error (overlays).

    Returns:
        The root node, or None with the reasons when the file cannot be used.
    """
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return _fail(
                display,
                rank,
                f"file is {size / 1048576:.1f} MiB; a spec may be at most {MAX_BYTES // 1048576} MiB",
                "a GPU platform spec is usually a few kilobytes; check that this is the right file",
            )
        data = path.read_bytes()
    except OSError as exc:
        return _fail(display, rank, f"cannot read file: {exc.strerror or exc}", None)
    result = load_bytes(data, display, rank=rank, allow_empty=allow_empty)
    result.digest = hashlib.sha256(data).hexdigest()
    return result


def load_bytes(
    data: bytes, display: str, *, rank: int = 0, allow_empty: bool = False
) -> LoadResult:
    """Parse YAML bytes into a located tree; see :func:`load_file`."""
    if len(data) > MAX_BYTES:
        return _fail(
            display,
            rank,
            f"file is {len(data) / 1048576:.1f} MiB; a spec may be at most {MAX_BYTES // 1048576} MiB",
            "a GPU platform spec is usually a few kilobytes; check that this is the right file",
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data, exc.start)
        return _fail(
            display,
            rank,
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded",
            "a spec must be a UTF-8 YAML file; is this a binary file?",
            Mark(display, line, col),
        )
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Mark(display, mark.line + 1, mark.column + 1) if mark else Mark(display, 1, 1)
        problem = exc.problem or "invalid YAML"
        details: tuple[str, ...] = ()
        context = exc.context_mark
        if exc.context and context is not None and context.line != (mark.line if mark else -1):
            at = f"line {context.line + 1}, column {context.column + 1}"
            details = (f"{exc.context.removeprefix('while ')} that starts at {at}",)
        hint = "fix the YAML syntax at this position, or where the details point"
        if not details:
            hint = "fix the YAML syntax at this position"
        return _fail(display, rank, f"invalid YAML: {problem}", hint, where, details)
    except yaml.reader.ReaderError as exc:
        line, col = _text_line_col(text, exc.position)
        return _fail(
            display,
            rank,
            f"invalid YAML: {exc.reason} (U+{_codepoint(exc.character):04X})",
            "remove the control character; a spec must be plain text",
            Mark(display, line, col),
        )
    except yaml.YAMLError as exc:  # pragma: no cover - libyaml raises the two above
        return _fail(display, rank, f"invalid YAML: {exc}", None)
    if node is None:
        if allow_empty:
            return LoadResult(Node({}, Mark(display, 1, 1)))
        return _fail(
            display,
            rank,
            "file is empty",
            "run `gpuplat init` to write a working spec to start from",
        )
    builder = _Builder(display, rank)
    root = builder.build(node, depth=0, key_mark=None)
    if builder.aborted or root is None:
        return LoadResult(None, builder.diagnostics)
    return LoadResult(root, builder.diagnostics)


class _Builder:
    def __init__(self, display: str, rank: int) -> None:
        self.display = display
        self.rank = rank
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.aborted = False

    def mark(self, node: yaml.Node) -> Mark:
        return Mark(self.display, node.start_mark.line + 1, node.start_mark.column + 1)

    def error(self, message: str, mark: Mark, hint: str | None, path: KeyPath = ()) -> None:
        self.diagnostics.append(
            Diagnostic(Severity.ERROR, message, mark, path, hint, file_rank=self.rank)
        )

    def build(
        self, node: yaml.Node, depth: int, key_mark: Mark | None, path: KeyPath = ()
    ) -> Node | None:
        if self.aborted:
            return None
        self.count += 1
        mark = self.mark(node)
        if self.count > MAX_NODES or depth > MAX_DEPTH:
            self.aborted = True
            reason = (
                f"document expands to more than {MAX_NODES:,} values"
                if self.count > MAX_NODES
                else f"values are nested more than {MAX_DEPTH} levels deep"
            )
            self.error(
                reason,
                mark,
                "this usually comes from YAML anchors/aliases that refer to each other; "
                "write the values out or split the spec into environment overlays",
                path,
            )
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, depth, key_mark, path, mark)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _TAG + "seq":
                self._bad_tag(node.tag, mark, path)
            items = [
                self.build(child, depth + 1, None, (*path, i)) for i, child in enumerate(node.value)
            ]
            return Node([item for item in items if item is not None], mark, key_mark)
        assert isinstance(node, yaml.ScalarNode)
        return self._scalar(node, mark, key_mark, path)

    def _mapping(
        self, node: yaml.MappingNode, depth: int, key_mark: Mark | None, path: KeyPath, mark: Mark
    ) -> Node:
        if node.tag != _TAG + "map":
            self._bad_tag(node.tag, mark, path)
        out: dict[str, Node] = {}
        first: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            kmark = self.mark(key_node)
            if key_node.tag == _TAG + "merge":
                self.error(
                    "YAML merge keys (<<) are not supported",
                    kmark,
                    "write the keys out, or keep shared settings in gpuplat.yaml and put the "
                    "differences in envs/<env>.yaml overlays",
                    path,
                )
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.error("a key must be a plain string, not a list or mapping", kmark, None, path)
                continue
            key = unicodedata.normalize("NFC", str(key_node.value))
            if key in first:
                prev = first[key]
                self.error(
                    f'duplicate key "{key}" (first defined at line {prev.line}, column {prev.col})',
                    kmark,
                    "YAML keeps only one of them; delete or rename one",
                    (*path, key),
                )
                continue
            first[key] = kmark
            child = self.build(value_node, depth + 1, kmark, (*path, key))
            if child is not None:
                out[key] = child
        return Node(out, mark, key_mark)

    def _scalar(
        self, node: yaml.ScalarNode, mark: Mark, key_mark: Mark | None, path: KeyPath
    ) -> Node:
        # Terraform turns every string into Unicode NFC; doing it here keeps what the spec
        # says and what Terraform stores identical.
        text: str = unicodedata.normalize("NFC", node.value)
        if node.style not in ("", None):  # quoted or block scalar: always a string
            if node.tag != _TAG + "str":
                self._bad_tag(node.tag, mark, path)
            return Node(text, mark, key_mark, text, quoted=True)
        implicit = _implicit_tag(text, (True, False))
        if node.tag == implicit:
            return Node(_core_scalar(text), mark, key_mark, text)
        # An explicit tag such as !!str or !!int on a plain scalar.
        explicit = node.tag.removeprefix(_TAG)
        if explicit == "str":
            return Node(text, mark, key_mark, text, quoted=True)
        value = _core_scalar(text)
        expected = {"int": int, "float": float, "bool": bool, "null": type(None)}.get(explicit)
        if expected is None:
            self._bad_tag(node.tag, mark, path)
            return Node(text, mark, key_mark, text)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not expected:
            self.error(f"value {text!r} is not a valid !!{explicit}", mark, None, path)
        return Node(value, mark, key_mark, text)

    def _bad_tag(self, tag: str, mark: Mark, path: KeyPath) -> None:
        self.error(
            f"YAML tag {tag.replace(_TAG, '!!')} is not supported",
            mark,
            "remove the tag; a spec holds plain mappings, lists, strings, numbers and booleans",
            path,
        )


def _core_scalar(text: str) -> Scalar:
    """Resolve a plain scalar by the YAML 1.2 core schema."""
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT10.match(text):
        return int(text, 10)
    if _INT8.match(text):
        return int(text[2:], 8)
    if _INT16.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return float(text)
    lowered = text.lower()
    if lowered in _SPECIAL_FLOAT:
        return _SPECIAL_FLOAT[lowered]
    return text


def _fail(
    display: str,
    rank: int,
    message: str,
    hint: str | None,
    mark: Mark | None = None,
    details: tuple[str, ...] = (),
) -> LoadResult:
    where = mark or Mark(display, 1, 1)
    diag = Diagnostic(Severity.ERROR, message, where, (), hint, details, file_rank=rank)
    return LoadResult(None, [diag])


def _codepoint(character: object) -> int:
    if isinstance(character, int):
        return character
    if isinstance(character, str) and len(character) == 1:
        return ord(character)
    return 0


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


def _text_line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
