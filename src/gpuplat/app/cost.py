"""`gpuplat cost`: what each environment costs, where GPUs are stranded, infracost usage files."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpuplat.cost import pricefile
from gpuplat.cost.estimate import EnvCost, LevelName, estimate
from gpuplat.cost.infracost import usage_file
from gpuplat.cost.report import report_json, stranded_table, table
from gpuplat.cost.stranded import Finding, stranded
from gpuplat.errors import ExitCode, GpuplatError, user_files
from gpuplat.spec.load import load_project
from gpuplat.vendoring.disk import write_file

ENV_PLACEHOLDER = "{env}"


@dataclass(frozen=True)
class CostResult:
    """The cost of the environments asked for, their stranded GPUs, and files written."""

    envs: tuple[EnvCost, ...]
    stranded: dict[str, list[Finding]] = field(default_factory=dict)
    written: tuple[str, ...] = ()
    prices: pricefile.PriceFile | None = None
    """The price file the figures came from (None: the shipped catalog)."""

    def to_json(self) -> dict[str, object]:
        with pricefile.using(self.prices):
            return report_json(self.envs, self.stranded)

    def lines(self, *, with_stranded: bool) -> list[str]:
        """The table for people; with ``with_stranded``, the stranded-GPU report instead."""
        if not with_stranded:
            with pricefile.using(self.prices):
                return table(self.envs)
        out: list[str] = []
        for env in self.envs:
            out.extend(stranded_table(env.name, self.stranded.get(env.name, [])))
        return out


def cost_project(
    root: Path,
    envs: Sequence[str],
    *,
    infracost_usage: Path | None = None,
    level: LevelName = "ceiling",
    prices: str | None = None,
) -> CostResult:
    """Price the named environments (default: all) of the project in ``root``.

    Args:
        root: Project folder.
        envs: Environments; empty means all.
        infracost_usage: Also write an infracost usage file there; with several environments
            its name must hold ``{env}``.
        level: Node counts the usage file gives (``ceiling`` or ``floor``).
        prices: A price file to price from, ``catalog`` for the shipped catalog, or None for
            the newest file ``gpuplat prices update`` wrote in the project (else the catalog).

    Returns:
        The estimates, stranded GPUs and the usage files written.

    Raises:
        SpecError: The spec is invalid.
        GpuplatError: Several environments and a usage file name without ``{env}``, or the
            file cannot be written.
    """
    project = load_project(root, envs)
    chosen = pricefile.choose(root, prices)
    with pricefile.using(chosen):
        costs = tuple(estimate(name, env.spec, project.today) for name, env in project.envs.items())
    found = {
        name: stranded(env.spec, cost)
        for (name, env), cost in zip(project.envs.items(), costs, strict=True)
    }
    written: list[str] = []
    if infracost_usage is not None:
        target = str(infracost_usage)
        if len(project.envs) > 1 and ENV_PLACEHOLDER not in target:
            raise GpuplatError(
                f"--infracost-usage {target} would be written once per environment "
                f"({', '.join(project.envs)})",
                hint=f"name one environment, or put {ENV_PLACEHOLDER} in the file name "
                "(e.g. infracost-usage-{env}.yml)",
                exit_code=ExitCode.ERROR,
            )
        for name, env in project.envs.items():
            path = Path(target.replace(ENV_PLACEHOLDER, name))
            with user_files("write the infracost usage file"):
                write_file(path, usage_file(name, env.spec, level))
            written.append(str(path))
    return CostResult(costs, found, tuple(written), chosen)
