"""A conformance run (`gpuplat conformance`, `python -m gpuplat.conformance`): what to check
against which schemas, with errors a person can act on and the exit code.

By default it checks the project's rendered ``envs/`` and ``modules/`` against the trimmed
schemas bundled with gpuplat; any other Terraform (a vendored, hand-edited module, say) can be
named instead, and ``--schemas`` points at full ``terraform providers schema -json`` files.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gpuplat.conformance.checker import check
from gpuplat.conformance.files import BUNDLED, ENV_VAR, find_schema_dir, load_schemas
from gpuplat.conformance.report import CheckReport
from gpuplat.conformance.rulecheck import RuleChecker, load_bundled
from gpuplat.errors import ExitCode, GpuplatError

RENDERED = ("envs", "modules")
"""The project folders checked when no path is given."""


@dataclass(frozen=True)
class ConformanceResult:
    """What a conformance run checked and found."""

    report: CheckReport
    paths: tuple[Path, ...]
    schema_dir: Path
    seconds: float

    @property
    def exit_code(self) -> ExitCode:
        """OK, or NONCONFORMANT when there is any violation (notes do not count)."""
        return ExitCode.OK if self.report.ok else ExitCode.NONCONFORMANT

    def summary(self) -> str:
        """One line: what was covered, what was found, against which schemas, how long."""
        where = "bundled schemas" if self.schema_dir == BUNDLED else f"schemas in {self.schema_dir}"
        return f"{self.report.summary()} ({where}) in {self.seconds:.2f}s"

    def crd_lines(self) -> list[str]:
        """The custom resources checked, by kind: CRD rules and documented rules counted."""
        coverage = self.report.crds
        if not coverage.tallies:
            return []
        head = (
            f"custom resources: {coverage.objects} checked against their CRDs and documented "
            f"rules ({self.report.manifests} YAML files)"
        )
        return [head, *(f"  {line}" for line in coverage.lines())]


def default_paths(root: Path) -> list[Path]:
    """The project's rendered trees (``envs/``, ``modules/``) that exist.

    Raises:
        GpuplatError: Neither exists: nothing has been rendered in ``root``.
    """
    found = [root / name for name in RENDERED if (root / name).is_dir()]
    if not found:
        raise GpuplatError(
            f"nothing to check: {root} has no rendered envs/ or modules/",
            hint="run `gpuplat render` first, or name the .tf files or folders to check",
        )
    return found


def check_conformance(
    root: Path,
    paths: Sequence[Path] = (),
    *,
    schemas: Path | None = None,
    extra: Sequence[Path] = (),
) -> ConformanceResult:
    """Check Terraform files against provider schemas.

    Args:
        root: The project folder; its ``envs/`` and ``modules/`` are checked when ``paths`` is
            empty.
        paths: .tf files and folders (searched recursively) to check instead.
        schemas: A directory of schema files; default ``$GPUPLAT_PROVIDER_SCHEMAS``, else the
            bundled trimmed set.
        extra: More schema files, loaded after the directory (they win for their providers).

    Returns:
        The report; its ``exit_code`` says whether the files conform.

    Raises:
        GpuplatError: A path or a schema file is missing, unreadable or not a schema.
    """
    targets = list(paths) or default_paths(root)
    schema_dir = schemas if schemas is not None else find_schema_dir()
    started = time.perf_counter()
    try:
        loaded = load_schemas(schema_dir, extra)
    except (OSError, ValueError) as exc:
        raise GpuplatError(
            f"cannot load provider schemas: {exc}",
            hint=(
                "pass --schemas DIR with `terraform providers schema -json` files named "
                f"<provider>-<version>.json, or unset {ENV_VAR} to use the bundled set"
            ),
        ) from exc
    try:
        report = check(targets, loaded, RuleChecker(load_bundled()))
    except OSError as exc:
        raise GpuplatError(
            f"cannot read the Terraform to check: {exc}",
            hint="name existing .tf files or folders",
        ) from exc
    return ConformanceResult(report, tuple(targets), schema_dir, time.perf_counter() - started)
