"""Violation records, the collector the checks write to, and the run summary."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from gpuplat.conformance.ruleeval import CODES as RULE_CODES
from gpuplat.crds import Coverage

Severity = Literal["error", "note"]

CODES: Mapping[str, str] = {
    "parse-error": "the file is not valid HCL",
    "unknown-provider": "no schema is loaded for the provider a type or block belongs to",
    "unknown-resource-type": "the provider has no resource/data source of this type",
    "unknown-attribute": "an argument the schema does not have",
    "unknown-block": "a nested block type the schema does not have",
    "unknown-backend": "a backend type Terraform does not offer",
    "attribute-is-block": "written as `x = ...` but the schema has `x` as a nested block",
    "block-is-attribute": "written as `x { ... }` but the schema has `x` as an attribute",
    "computed-only": "an attribute that only the provider sets is set in configuration",
    "missing-required": "a required attribute or nested block is absent",
    "block-count": "a nested block appears more or fewer times than min_items/max_items allow",
    "block-labels": "a block has the wrong number of labels",
    "duplicate-attribute": "an argument is set twice in one body",
    "count-and-for-each": "count and for_each are both set",
    "module-source": "a module's local source cannot be read",
    "module-unknown-argument": "a module call passes an argument the module has no variable for",
    "module-missing-variable": "a module call omits a variable that has no default",
    "module-not-checked": "note: a non-local module source is not checked",
    "undeclared-provider-alias": "a block names a provider alias its module does not declare",
    "missing-provider-alias": "a module call does not pass an alias the module's configuration_aliases declare",
    "unexpected-provider-alias": "a module call passes an alias the module does not declare (or configures itself)",
    "provider-not-checked": "note: the schema file has no provider configuration schema",
    "type-not-checked": "note: the type exists, but a trimmed schema file left its schema out",
    "crd-schema": "a custom resource breaks its CRD's OpenAPI schema",
    "crd-rule": "a custom resource breaks a CEL rule (x-kubernetes-validations) of its CRD",
    "crd-documented": "a custom resource breaks a rule its documentation states",
    "crd-missing": "no CRD is vendored for the kind of a custom resource",
    "crd-not-checked": "note: a computed kubernetes_manifest is checked where its module is called",
    **RULE_CODES,
}
"""Every code the checker emits, with what it means."""


@dataclass(frozen=True, order=True)
class Violation:
    """One finding: where it is, which block, a machine-readable code and a message."""

    file: Path
    line: int
    code: str
    address: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        prefix = "note: " if self.severity == "note" else ""
        return f"{self.file}:{self.line}: {prefix}{self.address}: {self.message} [{self.code}]"


@dataclass(frozen=True)
class Summary:
    """What a run covered and found."""

    files: int
    blocks: int
    violations: int
    notes: int
    by_code: Mapping[str, int] = field(default_factory=dict)
    rules: Mapping[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        text = f"{self.files} files, {self.blocks} blocks checked, {self.violations} violations"
        if self.by_code:
            text += " (" + ", ".join(f"{c}: {n}" for c, n in sorted(self.by_code.items())) + ")"
        text += f", {self.notes} notes" if self.notes else ""
        if self.rules:
            text += "; provider rules applied: " + ", ".join(
                f"{p} {n}" for p, n in sorted(self.rules.items())
            )
        return text


@dataclass(frozen=True)
class CheckReport:
    """The result of checking a set of paths."""

    violations: tuple[Violation, ...]
    notes: tuple[Violation, ...]
    files: int
    blocks: int
    crds: Coverage = field(default_factory=Coverage)
    """The custom resources checked against their CRDs, by kind."""
    manifests: int = 0
    """YAML files that held a custom resource."""
    rules: Mapping[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when there are no violations (notes do not count)."""
        return not self.violations

    def summary(self) -> Summary:
        """Counts per code, files and blocks checked."""
        found = summarize(self.violations, self.files, self.blocks, len(self.notes))
        return Summary(found.files, found.blocks, found.violations, found.notes, found.by_code,
                       dict(self.rules))  # fmt: skip


def summarize(violations: Iterable[Violation], files: int, blocks: int, notes: int = 0) -> Summary:
    """Summarise violations.

    Args:
        violations: The findings of severity error.
        files: How many files were checked.
        blocks: How many top-level blocks were checked.
        notes: How many notes were produced.

    Returns:
        The summary.
    """
    found = list(violations)
    return Summary(files, blocks, len(found), notes, dict(Counter(v.code for v in found)))


def suggest(name: str, candidates: Iterable[str]) -> str:
    """Return ``"; did you mean `x`?"`` for the closest candidate, or an empty string."""
    match = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean `{match[0]}`?" if match else ""


class Collector:
    """Accumulates findings for one file."""

    def __init__(self, file: Path) -> None:
        """Start collecting for a file.

        Args:
            file: The file being checked.
        """
        self.file = file
        self.found: list[Violation] = []

    def add(self, line: int, code: str, address: str, message: str) -> None:
        """Record an error."""
        self.found.append(Violation(self.file, line, code, address, message))

    def note(self, line: int, code: str, address: str, message: str) -> None:
        """Record a note, which does not fail a run."""
        self.found.append(Violation(self.file, line, code, address, message, "note"))
