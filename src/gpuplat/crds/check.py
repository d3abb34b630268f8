"""Check one custom resource against every vendored definition of its kind and against the
documented rules, and count what was checked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from gpuplat.crds import catalog, cel, structural
from gpuplat.crds.catalog import Definition, DocumentedRule
from gpuplat.crds.tally import Coverage
from gpuplat.crds.values import MINOR_LABEL, Path, dotted, is_custom

Layer = Literal["schema", "crd-rule", "documented", "no-crd"]
CODES: dict[Layer, str] = {
    "schema": "crd-schema",
    "crd-rule": "crd-rule",
    "documented": "crd-documented",
    "no-crd": "crd-missing",
}


@dataclass(frozen=True, order=True)
class Finding:
    """One thing the API server (or the product's admission webhook) would refuse."""

    path: Path
    layer: Layer
    message: str
    against: tuple[str, ...] = ()
    """The CRD releases that refuse it, or the documented rule's id and source."""

    @property
    def code(self) -> str:
        """The conformance code: ``crd-schema``, ``crd-rule``, ``crd-documented``,
        ``crd-missing``."""
        return CODES[self.layer]

    def __str__(self) -> str:
        where = f" [{'; '.join(self.against)}]" if self.against else ""
        return f"{dotted(self.path)}: {self.message}{where}"


@dataclass
class Result:
    """What checking some objects found and covered."""

    findings: list[Finding] = field(default_factory=list)
    coverage: Coverage = field(default_factory=Coverage)


@cache
def _crd_rules(definition: Definition) -> tuple[cel.Rule, ...]:
    return tuple(cel.rules(definition.schema))


@cache
def _documented_rule(rule: DocumentedRule) -> cel.Rule:
    return cel.Rule(rule.path, rule.rule, rule.message)


def identity(obj: object) -> tuple[str, str] | None:
    """``(apiVersion, kind)`` of a custom resource, None for anything else."""
    if not isinstance(obj, dict):
        return None
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return (api_version, kind) if is_custom(api_version) else None


def rendered_for(obj: dict[str, object]) -> tuple[int, int] | None:
    """The ``(major, minor)`` an object's :data:`MINOR_LABEL` names, if any."""
    meta = obj.get("metadata")
    labels = meta.get("labels") if isinstance(meta, dict) else None
    value = labels.get(MINOR_LABEL) if isinstance(labels, dict) else None
    if not isinstance(value, str):
        return None
    major, _, minor = value.partition(".")
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else None


def check_object(
    obj: dict[str, object],
    result: Result,
    objects: Sequence[dict[str, object]] | None = None,
    minor: tuple[int, int] | None = None,
) -> list[Finding]:
    """Check one object; add its findings and coverage to ``result`` and return the findings.

    Args:
        obj: A Kubernetes object (values may be :class:`~gpuplat.crds.values.Unknown`).
        result: Where findings and counts accumulate.
        objects: The other objects applied to the same cluster, when they are known (rules
            that compare objects are checked only then).
    """
    ident = identity(obj)
    if ident is None:
        return []
    api_version, kind = ident
    definitions = catalog.lookup(api_version, kind, minor or rendered_for(obj))
    found: dict[tuple[Path, Layer, str], list[str]] = {}
    if not definitions:
        message = (
            f"no CRD of {kind} ({api_version}) is vendored, so nothing of it is checked; "
            f"gpuplat checks {', '.join(catalog.known_kinds())}"
        )
        found[((), "no-crd", message)] = []
    defaulted: object = obj
    for definition in definitions:
        tally = result.coverage.of(kind, api_version, definition.release)
        tally.objects += 1
        tally.constraints = structural.count(definition.schema)
        rules = _crd_rules(definition)
        tally.rules = len(rules)
        tally.transition = sum(r.transition for r in rules)
        tally.extension = sum(bool(r.extensions) for r in rules)
        for path, message in structural.problems(definition, obj):
            found.setdefault((path, "schema", message), []).append(definition.release)
        defaulted = structural.with_defaults(obj, definition.schema)
        for rule in rules:
            if rule.transition:
                tally.outcomes["update-only"] += 1
                continue
            for at, value in cel.sites(defaulted, rule.path):
                outcome, message = cel.evaluate(rule, {"self": value})
                tally.outcomes[outcome] += 1
                if outcome in ("failed", "error"):
                    where = _field(at, rule.field_path)
                    found.setdefault((where, "crd-rule", message), []).append(definition.release)
    _documented(kind, api_version, defaulted, objects, obj, result, found)
    findings = [
        Finding(path, layer, message, tuple(against))
        for (path, layer, message), against in sorted(found.items(), key=lambda i: str(i[0]))
    ]
    result.findings.extend(findings)
    return findings


def _documented(
    kind: str,
    api_version: str,
    value: object,
    objects: Sequence[dict[str, object]] | None,
    obj: dict[str, object],
    result: Result,
    found: dict[tuple[Path, Layer, str], list[str]],
) -> None:
    rules = [r for r in catalog.documented() if r.applies(api_version, kind)]
    tally = result.coverage.of(kind, api_version, "documented")
    tally.objects += 1
    tally.rules = len(rules)
    others = [o for o in objects if o is not obj] if objects is not None else None
    for rule in rules:
        if rule.needs_objects and others is None:
            tally.outcomes["needs-objects"] += 1
            continue
        compiled = _documented_rule(rule)
        for at, site in cel.sites(value, rule.path):
            bindings: dict[str, object] = {"self": site}
            if rule.needs_objects:
                bindings["objects"] = list(others or [])
            outcome, message = cel.evaluate(compiled, bindings)
            tally.outcomes[outcome] += 1
            if outcome in ("failed", "error"):
                source = f"{rule.id}: {rule.source.where}, read {rule.source.read}"
                found.setdefault((at, "documented", message), []).append(source)


def _field(at: Path, field_path: str) -> Path:
    """A rule's ``fieldPath`` (``.spec.x``) appended to where it was evaluated."""
    if not field_path:
        return at
    return (*at, *(part for part in field_path.strip(".").split(".") if part))
