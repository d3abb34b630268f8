"""HCL expressions as the JSON-like values they stand for, each part with its line.

Literal objects, tuples, strings, numbers and booleans become Python values; anything Terraform
would have to evaluate (a function call, a ``for`` expression, a conditional, a reference) is an
:class:`~gpuplat.crds.Unknown` holding its text. The one exception is a reference to a module
variable (``var.name``, alone or inside a string template) when the caller of the module is
known: it is replaced by the literal argument the caller passes (or the variable's literal
default). That is substitution of literals, not evaluation: a variable passed an expression
stays unknown, and so does everything computed from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from hcl2.rules.containers import ObjectElemKeyRule, ObjectRule, TupleRule
from hcl2.rules.expressions import ExprTermRule
from hcl2.utils import SerializationOptions

from gpuplat.crds import Unknown
from gpuplat.crds.values import Path

_VALUES = SerializationOptions(with_comments=False)
_VAR = re.compile(r"^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z_][A-Za-z0-9_-]*)*)\}$")
_VAR_IN_TEMPLATE = re.compile(r"\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}")

Resolver = Callable[[str], "Located | None"]
"""A module variable's name -> what its caller passes, when it is a literal."""


@dataclass
class Located:
    """A value and the line of each part of it (the part's path inside the value)."""

    value: object
    lines: dict[Path, int] = field(default_factory=dict)
    origins: dict[Path, tuple[str, ...]] = field(default_factory=dict)
    """Where a module variable's value was put in: path -> (variable, attribute, ...)."""

    def line(self, path: Path, default: int) -> int:
        """The line of the deepest part of ``path`` that has one."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return default


def _line(node: object, default: int) -> int:
    meta = getattr(node, "_meta", None)
    line = getattr(meta, "line", None)
    return line if isinstance(line, int) else default


def _key(key: ObjectElemKeyRule) -> str:
    text = str(key.serialize(_VALUES))
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def located(expr: object, line: int, resolve: Resolver | None = None) -> Located:
    """The value of an HCL expression node of python-hcl2's rule tree, located.

    Args:
        expr: The expression node (an attribute's ``expression``).
        line: The line to use for parts that carry none.
        resolve: Module variables' literal values, when the module's caller is known.
    """
    out = Located(None)
    out.value = _walk(expr, line, (), out, resolve)
    return out


def _walk(node: object, line: int, at: Path, out: Located, resolve: Resolver | None) -> object:
    line = _line(node, line)
    lines = out.lines
    lines.setdefault(at, line)
    if isinstance(node, ExprTermRule) and not node.parentheses:
        return _walk(node.expression, line, at, out, resolve)
    if isinstance(node, ObjectRule):
        obj: dict[str, object] = {}
        for elem in node.elements:
            key = _key(elem.key)
            sub = (*at, key)
            lines[sub] = _line(elem, line)
            obj[key] = _walk(elem.expression, lines[sub], sub, out, resolve)
        return obj
    if isinstance(node, TupleRule):
        return [
            _walk(item, line, (*at, index), out, resolve)
            for index, item in enumerate(node.elements)
        ]
    try:
        value = node.serialize(_VALUES)  # type: ignore[attr-defined]
    except Exception:  # pragma: no cover - serialisation of exotic expressions
        return Unknown("an expression")
    return _scalar(value, at, out, resolve)


def _scalar(value: object, at: Path, out: Located, resolve: Resolver | None) -> object:
    if not isinstance(value, str):
        return value
    if len(value) >= 2 and value[0] == value[-1] == '"':
        text = value[1:-1]
        if "${" not in text and "%{" not in text:
            return text.replace('\\"', '"').replace("\\\\", "\\")
        resolved = _template(text, resolve)
        if not isinstance(resolved, Unknown):
            out.origins[at] = tuple(_VAR_IN_TEMPLATE.findall(text))[:1]
        return resolved
    match = _VAR.match(value)
    if match and resolve is not None:
        given = resolve(match.group(1))
        attrs = tuple(a for a in match.group(2).split(".") if a)
        if given is not None and _has(given.value, attrs):
            out.origins[at] = (match.group(1), *attrs)
            return _get(given.value, attrs)
    return Unknown(value.removeprefix("${").removesuffix("}"))


def _has(value: object, attrs: tuple[str, ...]) -> bool:
    for attr in attrs:
        if not isinstance(value, dict) or attr not in value:
            return False
        value = value[attr]
    return True


def _get(value: object, attrs: tuple[str, ...]) -> object:
    for attr in attrs:
        assert isinstance(value, dict)
        value = value[attr]
    return value


def _template(text: str, resolve: Resolver | None) -> object:
    """A string template whose every interpolation is a variable with a literal scalar."""
    if "%{" in text or resolve is None:
        return Unknown(f'"{text}"')
    leftover = _VAR_IN_TEMPLATE.sub("", text)
    if "${" in leftover:
        return Unknown(f'"{text}"')
    parts: dict[str, str] = {}
    for name in _VAR_IN_TEMPLATE.findall(text):
        given = resolve(name)
        if given is None or not isinstance(given.value, str | int | float):
            return Unknown(f'"{text}"')
        parts[name] = str(given.value)
    return _VAR_IN_TEMPLATE.sub(lambda m: parts[m.group(1)], text)
