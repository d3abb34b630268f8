"""Provider rules on rendered blocks: HCL bodies turned into :mod:`ruleeval` values (literals
known, expressions unknown, ``substr`` templates bounded in length), findings reported as
violations at the attribute's line, and how many rules each provider had checked."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuplat.conformance import ruleeval
from gpuplat.conformance.hclread import Body
from gpuplat.conformance.report import Collector

_SUBSTR = re.compile(r"substr\((.+),\s*(\d+)\s*,\s*(\d+)\s*\)", re.DOTALL)
_META = frozenset({"count", "for_each", "depends_on", "provider", "lifecycle", "provisioner",
                   "connection"})  # fmt: skip


def _interpolations(inner: str) -> list[tuple[bool, str]] | None:
    """A template's parts: (True, expression) and (False, literal text); None if unbalanced."""
    parts: list[tuple[bool, str]] = []
    i = start = 0
    while i < len(inner):
        if inner.startswith("$${", i) or inner.startswith("%%{", i):
            i += 3
            continue
        if inner.startswith("${", i) or inner.startswith("%{", i):
            parts.append((False, inner[start:i]))
            depth, j, quoted = 1, i + 2, False
            while j < len(inner) and depth:
                ch = inner[j]
                if ch == "\\":
                    j += 2
                    continue
                if inner.startswith("${", j):
                    depth, j = depth + 1, j + 2
                    continue
                if ch == '"':
                    quoted = not quoted
                elif ch == "{" and not quoted:
                    depth += 1
                elif ch == "}":
                    depth -= 1
                j += 1
            if depth:
                return None
            parts.append((True, inner[i + 2 : j - 1].strip()))
            i = start = j
            continue
        i += 1
    parts.append((False, inner[start:]))
    return parts


def _literal_length(text: str) -> int:
    return len(re.sub(r"\\(.)", r"\1", text.replace("$${", "${").replace("%%{", "%{")))


def value_of(raw: object) -> Any:
    """A python-hcl2 value as a rule value: literal, list, map, Bounded or UNKNOWN."""
    if isinstance(raw, bool | int | float) or raw is None:
        return raw
    if isinstance(raw, list):
        return [value_of(v) for v in raw]
    if isinstance(raw, dict):
        return {str(k).strip('"'): value_of(v) for k, v in raw.items()}
    if not isinstance(raw, str):
        return ruleeval.UNKNOWN
    if not (len(raw) >= 2 and raw[0] == raw[-1] == '"'):
        return ruleeval.UNKNOWN  # a bare expression
    parts = _interpolations(raw[1:-1])
    if parts is None:
        return ruleeval.UNKNOWN
    if all(not expr for expr, _ in parts):
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), raw[1:-1])
    low = high = 0
    for is_expr, text in parts:
        if not is_expr:
            low += _literal_length(text)
            high += _literal_length(text)
            continue
        match = _SUBSTR.fullmatch(text)
        if match is None or int(match[2]) != 0:
            return ruleeval.UNKNOWN
        high += int(match[3])
    return ruleeval.Bounded(low, high)


def obj_of(body: Body, line: int) -> ruleeval.Obj:
    """A block body as a rule value tree (``dynamic`` blocks count as one instance)."""
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for attr in body.attributes:
        if attr.name in _META:
            continue
        values[attr.name] = value_of(attr.value)
        lines[attr.name] = attr.line
    for block in body.blocks:
        if block.type in _META:
            continue
        if block.type == "dynamic" and block.labels:
            for content in block.body.blocks_of("content"):
                values.setdefault(block.labels[0], []).append(obj_of(content.body, content.line))
            lines.setdefault(block.labels[0], block.line)
            continue
        values.setdefault(block.type, []).append(obj_of(block.body, block.line))
        lines.setdefault(block.type, block.line)
    return ruleeval.Obj(values, line, lines)


@dataclass
class RuleChecker:
    """Applies a rule book to top-level blocks and counts the rules it applied per provider."""

    book: ruleeval.RuleBook
    applied: dict[str, set[int]] = field(default_factory=dict)

    def check(self, out: Collector, provider: str, key: str, address: str, body: Body,
              line: int) -> None:  # fmt: skip
        """Check one resource or data block (``key`` is ``resource.T`` or ``data.T``)."""
        rules = self.book.for_type(provider, key)
        conditional = self.book.conditional.get((provider, key), [])
        if not rules and not conditional:
            return
        seen = self.applied.setdefault(provider, set())
        seen.update(id(r) for r in rules)
        seen.update(id(r) for r in conditional)
        root = obj_of(body, line)
        found = ruleeval.check(root, rules) + ruleeval.check_conditional(root, conditional)
        for finding in found:
            out.add(finding.line, finding.code, address,
                    f"{finding.message} [{finding.rule}]")  # fmt: skip

    def counts(self) -> dict[str, int]:
        """Rules applied to at least one block, per ``provider version[s]``."""
        out: Counter[str] = Counter()
        for provider, ids in self.applied.items():
            label = f"{provider} {'/'.join(self.book.versions.get(provider, []))}"
            out[label] += len(ids)
        return dict(out)


def load_bundled(directory: Path | None = None) -> ruleeval.RuleBook:
    """Every bundled rule file and the conditional rules."""
    base = directory or ruleeval.RULES_DIR
    files = sorted(base.glob("*-[0-9]*.json"))
    return ruleeval.load(files, base / ruleeval.CONDITIONAL)


def rule_total(book: ruleeval.RuleBook, providers: Iterable[str]) -> int:
    """How many rules (extracted and conditional) the book holds for these providers."""
    total = sum(len(v) for (p, _), v in book.rules.items() if p in providers)
    return total + sum(len(v) for (p, _), v in book.conditional.items() if p in providers)
