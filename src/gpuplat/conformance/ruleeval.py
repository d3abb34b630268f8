"""Provider rules (``rules/<provider>-<version>.json``, ``rules/conditional.json``) applied to
one resource's values.

Standard library only: gpuplat's conformance check and the schema stand-in (its own
virtualenv, ``tools/schema-provider``) both import this file, the stand-in by path.

Values are given as a :class:`Obj` tree: a block's attributes (a literal, ``None`` for null,
:data:`UNKNOWN` for a value not known yet, or a :class:`Bounded` string whose length is known
to lie in a range) and its nested blocks (a list of :class:`Obj`). As the provider SDK does, an
unknown value is never a violation: a conflict with an unknown value is not reported, and a
validator does not run on it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any


def _sibling(name: str) -> ModuleType:
    """A module next to this file: from the package, or by path when this file was itself
    loaded by path (the schema stand-in, which has no gpuplat installed). By path, each load of
    this file loads its own copy, under a name of its own: the stand-in loads this file once per
    provider instance, from several threads at once."""
    if __package__:
        return importlib.import_module(f"{__package__}.{name}")
    key = f"gpuplat_{name}_{id(_sibling)}"
    spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


_value = _sibling("rulevalue")
UNKNOWN: Any = _value.UNKNOWN
"""A value that is only known later (an expression, or unknown in a plan)."""
Bounded: Any = _value.Bounded
"""A string whose exact value is unknown but whose length lies in [low, high]."""
portable = _value.portable

RULES_DIR = Path(__file__).resolve().parent / "rules"
CONDITIONAL = "conditional.json"


@dataclass
class Obj:
    """One block's values. ``values``: attribute -> value, nested block type -> list of Obj.
    ``lines``: where each attribute is written (conformance), ``line``: the block's line."""

    values: dict[str, Any]
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    """One broken rule: a code, the attribute path in the block, a message and a line."""

    code: str
    path: str
    message: str
    line: int
    rule: str  # "provider version file:line" of the rule, or a conditional rule's id


CODES: Mapping[str, str] = {
    "rule-conflicts-with": "two arguments set that the provider declares ConflictsWith",
    "rule-exactly-one-of": "not exactly one of an ExactlyOneOf group is set",
    "rule-at-least-one-of": "none of an AtLeastOneOf group is set",
    "rule-required-with": "an argument set without the arguments it is RequiredWith",
    "rule-length": "a string outside the provider's length limits (or can be, from substr bounds)",
    "rule-enum": "a value not among those the provider accepts",
    "rule-not-in": "a value the provider refuses",
    "rule-regex": "a string that does not match the provider's pattern (or matches a refused one)",
    "rule-range": "a number outside the provider's range",
    "rule-size": "a list with more or fewer elements than the provider accepts",
    "rule-format": "a string that is not JSON / a CIDR / an IP address / a UUID as required",
    "rule-conditional": "a requirement the provider enforces in CustomizeDiff or its update code",
}
"""The finding codes, with what each means."""


@dataclass
class Rule:
    """One extracted rule of one type, with the provider versions it was found in."""

    path: str
    spec: dict[str, Any]
    versions: list[str]
    where: str

    @property
    def label(self) -> str:
        return f"{' '.join(self.versions)} {self.where}"


@dataclass
class RuleBook:
    """Rules by (provider, "resource.T" | "data.T"), and the conditional rules."""

    rules: dict[tuple[str, str], list[Rule]] = field(default_factory=dict)
    conditional: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    versions: dict[str, list[str]] = field(default_factory=dict)

    def for_type(self, provider: str, key: str) -> list[Rule]:
        return self.rules.get((provider, key), [])


_PROVENANCE = ("file", "line", "path")


def load(paths: Iterable[Path], conditional: Path | None = None) -> RuleBook:
    """Read rule files (several versions of one provider merge; a rule found in more than one
    lists every version) and the conditional rules of those provider versions."""
    book = RuleBook()
    index: dict[tuple[str, str, str], Rule] = {}
    for path in sorted(paths):
        doc = json.loads(path.read_text(encoding="utf-8"))
        provider, version = doc["provider"], doc["version"]
        book.versions.setdefault(provider, []).append(version)
        for key, entry in sorted(doc["types"].items()):
            for raw in entry["rules"]:
                spec = {k: v for k, v in raw.items() if k not in _PROVENANCE}
                ident = (provider, key, raw["path"] + json.dumps(spec, sort_keys=True))
                if ident in index:
                    index[ident].versions.append(version)
                    continue
                rule = Rule(
                    raw["path"], spec, [f"{provider} {version}"], f"{raw['file']}:{raw['line']}"
                )
                index[ident] = rule
                book.rules.setdefault((provider, key), []).append(rule)
    if conditional is not None and conditional.is_file():
        doc = json.loads(conditional.read_text(encoding="utf-8"))
        for rule in doc["rules"]:
            have = book.versions.get(rule["provider"], [])
            if any(v in have for v in rule["versions"]):
                book.conditional.setdefault((rule["provider"], rule["type"]), []).append(rule)
    return book


def rule_files(provider: str | None = None, version: str | None = None) -> list[Path]:
    """The bundled rule files, optionally of one provider (and version)."""
    pattern = f"{provider or '*'}-{version or '[0-9]*'}.json"
    return sorted(p for p in RULES_DIR.glob(pattern) if p.name != CONDITIONAL)


# -- walking values --------------------------------------------------------------------------


def _set(value: Any) -> bool:
    """Set in configuration: not null. An empty list is set, as in the SDK's config; an absent
    nested block is None, never an empty list."""
    return value is not None


def _instances(obj: Obj, parts: list[str]) -> Iterator[tuple[Obj, str]]:
    """Every (block, dotted location) reached by following block names from ``obj``."""
    if not parts:
        yield obj, ""
        return
    head, rest = parts[0], parts[1:]
    value = obj.values.get(head)
    blocks = value if isinstance(value, list) else [value] if isinstance(value, Obj) else []
    for i, block in enumerate(blocks):
        if isinstance(block, Obj):
            for inner, where in _instances(block, rest):
                yield inner, f"{head}[{i}]" + (f".{where}" if where else "")


def _lookup(root: Obj, scope: Obj, scope_parts: list[str], path: str) -> Any:
    """The value at ``path`` (dotted, absolute): inside ``scope`` where the path starts with the
    scope's blocks, else from the root through each block's first instance (SDK ``.0.``)."""
    parts = path.split(".")
    if parts[: len(scope_parts)] == scope_parts and len(parts) > len(scope_parts):
        obj, rest = scope, parts[len(scope_parts) :]
    else:
        obj, rest = root, parts
    for name in rest[:-1]:
        value = obj.values.get(name)
        if isinstance(value, list):
            if not value or not isinstance(value[0], Obj):
                return None
            obj = value[0]
        elif isinstance(value, Obj):
            obj = value
        else:
            return UNKNOWN if value is UNKNOWN else None
    return obj.values.get(rest[-1])


def check(root: Obj, rules: Iterable[Rule]) -> list[Finding]:
    """Apply extracted rules to one resource's values."""
    out: list[Finding] = []
    seen: set[tuple[str, str, int]] = set()
    for rule in rules:
        parts = rule.path.split(".") if rule.path else []
        parent, leaf = parts[:-1], parts[-1] if parts else ""
        for block, where in _instances(root, parent):
            at = f"{where}.{leaf}" if where and leaf else where or leaf
            line = block.lines.get(leaf, block.line) or root.line
            for code, message in _apply(root, block, parent, leaf, rule.spec):
                if (code, message, line) not in seen:  # a group rule is declared by each member
                    seen.add((code, message, line))
                    out.append(Finding(code, at, message, line, rule.label))
    return out


def _apply(
    root: Obj, block: Obj, scope: list[str], leaf: str, spec: dict[str, Any]
) -> Iterator[tuple[str, str]]:
    check_kind = spec["check"]
    value = block.values.get(leaf) if leaf else None
    if check_kind in ("conflicts_with", "exactly_one_of", "at_least_one_of", "required_with"):
        yield from _relation(root, block, scope, leaf, value, spec)
        return
    if not _set(value) or value is UNKNOWN:
        return
    values = value if spec.get("elements") and isinstance(value, list) else [value]
    if check_kind == "size":
        values = [value]
    for item in values:
        problem = _validate(item, spec)
        if problem is not None:
            yield "rule-" + check_kind.replace("_", "-"), f"`{leaf}` {problem}"


def _relation(
    root: Obj, block: Obj, scope: list[str], leaf: str, value: Any, spec: dict[str, Any]
) -> Iterator[tuple[str, str]]:
    others = [p for p in spec["paths"] if p.split(".")[-1] != leaf or p.split(".")[:-1] != scope]
    kind = spec["check"]
    code = "rule-" + kind.replace("_", "-")
    if kind == "conflicts_with":
        if not _set(value) or value is UNKNOWN:
            return
        clash = [p for p in others if _known_set(_lookup(root, block, scope, p))]
        if clash:
            names = ", ".join(f"`{p}`" for p in clash)
            yield code, f"`{leaf}` cannot be set together with {names}"
    elif kind == "required_with":
        if not _set(value):
            return
        missing = [p for p in others if not _set(_lookup(root, block, scope, p))]
        if missing:
            names = ", ".join(f"`{p}`" for p in missing)
            yield code, f"`{leaf}` needs {names} set as well"
    else:
        group = sorted({*spec["paths"], ".".join([*scope, leaf]) if leaf else ""} - {""})
        values = [_lookup(root, block, scope, p) for p in group]
        if any(v is UNKNOWN for v in values):
            return
        count = sum(1 for v in values if _set(v))
        names = ", ".join(f"`{p}`" for p in group)
        if count == 0:
            yield code, f"one of {names} must be set"
        elif count > 1 and kind == "exactly_one_of":
            yield code, f"only one of {names} can be set"


def _known_set(value: Any) -> bool:
    return _set(value) and value is not UNKNOWN


def _validate(value: Any, spec: dict[str, Any]) -> str | None:
    problem = _value.validate(value, spec)
    return None if problem is None else str(problem)


# -- conditional rules -----------------------------------------------------------------------


def check_conditional(
    root: Obj, rules: Iterable[dict[str, Any]], prior: Obj | None = None
) -> list[Finding]:
    """Apply conditional rules; ``update`` rules only with a prior state."""
    out: list[Finding] = []
    for rule in rules:
        if rule["phase"] == "update" and prior is None:
            continue
        scope = rule.get("scope", "")
        parts = scope.split(".") if scope else []
        for block, where in _instances(root, parts):
            verdict = _conditions(root, block, parts, prior, rule["when"])
            if verdict is not True:
                continue
            then = rule["then"]
            values = [_lookup(root, block, parts, p) for p in then["paths"]]
            if any(v is UNKNOWN for v in values):
                continue
            count = sum(1 for v in values if _set(v))
            broken = (
                (then["check"] == "absent" and count > 0)
                or (then["check"] == "at_least_one" and count == 0)
                or (then["check"] == "present" and count < len(values))
            )
            if broken:
                names = ", ".join(f"`{p}`" for p in then["paths"])
                src = rule["source"]
                out.append(
                    Finding(
                        "rule-conditional",
                        where or scope or then["paths"][0],
                        f"{rule['message']} ({names})",
                        block.line or root.line,
                        f"{rule['id']} {src['file']}:{src['line']}",
                    )
                )
    return out


def _conditions(
    root: Obj, block: Obj, scope: list[str], prior: Obj | None, when: list[dict[str, Any]]
) -> bool | None:
    """True when every condition holds, False when one does not, None when unknown."""
    for cond in when:
        if "changed_any" in cond:
            assert prior is not None
            changed = [
                _lookup(root, block, scope, p) != _lookup(prior, prior, [], p)
                for p in cond["changed_any"]
            ]
            if any(_lookup(root, block, scope, p) is UNKNOWN for p in cond["changed_any"]):
                return None
            if not any(changed):
                return False
            continue
        if "changed_prefix_outside" in cond:
            assert prior is not None
            path = cond["changed_prefix_outside"]
            new, old = _lookup(root, block, scope, path), _lookup(prior, prior, [], path)
            if new is UNKNOWN:
                return None
            if new == old:
                return False
            prefixes = tuple(cond["prefixes"])
            if all(isinstance(v, str) and v.startswith(prefixes) for v in (old, new)):
                return False
            continue
        value = _lookup(root, block, scope, cond["path"])
        if value is UNKNOWN or isinstance(value, Bounded):
            return None
        if value is None:
            value = cond.get("default")
        if "equals" in cond and value != cond["equals"]:
            return False
        if "not_equals" in cond and value == cond["not_equals"]:
            return False
    return True
