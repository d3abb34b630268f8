"""How many rules of each kind's CRDs and documentation were checked, and what came of it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

NOT_CHECKED = {
    "unknown": "read a value known only at plan or apply",
    "extension": "need a Kubernetes CEL library cel-python lacks",
    "update-only": "are transition rules, run on updates only",
    "needs-objects": "compare with the cluster's other objects, not known here",
}


@dataclass
class Tally:
    """One kind against one CRD release (or against its documented rules)."""

    kind: str
    api_version: str
    release: str
    """The CRD's release, or ``documented``."""
    objects: int = 0
    constraints: int = 0
    """Structural constraints of the schema (0 for the documented rules)."""
    rules: int = 0
    """CEL rules: the CRD's ``x-kubernetes-validations``, or the documented rules."""
    transition: int = 0
    extension: int = 0
    """Rules that call a function cel-python does not implement."""
    outcomes: Counter[str] = field(default_factory=Counter)
    """Rule evaluations by outcome (see :data:`gpuplat.crds.cel.Outcome`), plus
    ``update-only`` and ``needs-objects`` for rules not evaluated."""

    def merge(self, other: Tally) -> None:
        """Add another tally of the same kind and release."""
        self.objects += other.objects
        self.constraints = max(self.constraints, other.constraints)
        self.rules = max(self.rules, other.rules)
        self.transition = max(self.transition, other.transition)
        self.extension = max(self.extension, other.extension)
        self.outcomes.update(other.outcomes)

    def line(self) -> str:
        """``GKE 1.34: 175 schema constraints, 41 CEL rules; 80 evaluations: 80 passed``."""
        if self.release == "documented":
            head = f"documented: {self.rules} rules"
        else:
            head = (
                f"{self.release} CRD: {self.constraints} schema constraints, {self.rules} CEL rules"
            )
            notes = []
            if self.transition:
                notes.append(f"{self.transition} update-only")
            if self.extension:
                notes.append(f"{self.extension} call a Kubernetes CEL library")
            if notes:
                head += f" ({', '.join(notes)})"
        done = sum(self.outcomes[k] for k in ("passed", "failed", "error"))
        parts = [f"{self.outcomes['passed']} passed"]
        broken = self.outcomes["failed"] + self.outcomes["error"]
        if broken:
            parts.append(f"{broken} failed")
        skipped = {k: self.outcomes[k] for k in NOT_CHECKED if self.outcomes[k]}
        if skipped:
            parts.append(
                "not checked: " + ", ".join(f"{n} {NOT_CHECKED[k]}" for k, n in skipped.items())
            )
        return f"{head}; {done} rule evaluations: {'; '.join(parts)}"


@dataclass
class Coverage:
    """Tallies by kind, apiVersion and release."""

    tallies: dict[tuple[str, str, str], Tally] = field(default_factory=dict)

    def of(self, kind: str, api_version: str, release: str) -> Tally:
        """The tally of one kind and release (created empty on first use)."""
        key = (kind, api_version, release)
        if key not in self.tallies:
            self.tallies[key] = Tally(kind, api_version, release)
        return self.tallies[key]

    def merge(self, other: Coverage) -> None:
        """Add another coverage."""
        for key, tally in other.tallies.items():
            self.of(*key).merge(tally)

    @property
    def objects(self) -> int:
        """Custom resources checked (each counted once, under its documented rules)."""
        return sum(t.objects for t in self.tallies.values() if t.release == "documented")

    @property
    def not_checked(self) -> int:
        """Rule evaluations that were not made or not decided."""
        return sum(t.outcomes[k] for t in self.tallies.values() for k in NOT_CHECKED)

    def lines(self) -> list[str]:
        """A heading line per kind, then one line per release and one for documented rules."""
        out: list[str] = []
        kinds = sorted({(k, v) for k, v, _ in self.tallies})
        for kind, api_version in kinds:
            mine = [t for (k, v, _), t in self.tallies.items() if (k, v) == (kind, api_version)]
            documented = [t for t in mine if t.release == "documented"]
            objects = documented[0].objects if documented else max(t.objects for t in mine)
            out.append(f"{kind} ({api_version}): {objects} objects")
            out.extend(f"  {t.line()}" for t in mine if t.release != "documented")
            out.extend(f"  {t.line()}" for t in documented)
        return out
