"""What the CRD check knows, kind by kind: each vendored CRD's schema constraints and CEL rules
(how many cel-python evaluates, how many need a Kubernetes CEL library, how many run on updates
only) and the documented rules, with where each CRD was read."""

from __future__ import annotations

from collections.abc import Iterator

from gpuplat.crds import catalog, cel, structural


def lines() -> Iterator[str]:
    """One heading per kind, then one line per vendored CRD and one for its documented rules."""
    kinds = sorted({(d.kind, d.api_version) for d in catalog.definitions()})
    for kind, api_version in kinds:
        yield f"{kind} ({api_version})"
        for definition in catalog.lookup(api_version, kind):
            rules = list(cel.rules(definition.schema))
            transition = sum(r.transition for r in rules)
            extension = sum(bool(r.extensions) and not r.transition for r in rules)
            evaluable = len(rules) - transition - extension
            yield (
                f"  {definition.release}: {structural.count(definition.schema)} schema "
                f"constraints, {len(rules)} CEL rules ({evaluable} evaluated by cel-python, "
                f"{extension} need a Kubernetes CEL library, {transition} update-only) "
                f"— {definition.source.where}"
            )
        documented = [r for r in catalog.documented() if r.applies(api_version, kind)]
        yield f"  documented: {len(documented)} rules ({', '.join(r.id for r in documented)})"


def totals() -> tuple[int, int, int]:
    """Schema constraints, CEL rules and documented rules over every vendored CRD."""
    constraints = sum(structural.count(d.schema) for d in catalog.definitions())
    rules = sum(len(list(cel.rules(d.schema))) for d in catalog.definitions())
    return constraints, rules, len(catalog.documented())
