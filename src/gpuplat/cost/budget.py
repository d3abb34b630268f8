"""The budget check: an environment's GPU pools at their ceiling against its monthly budget."""

from __future__ import annotations

from datetime import date

from gpuplat.cost.estimate import estimate
from gpuplat.cost.money import month
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec


def check(spec: Spec, env_name: str, locator: Locator, today: date) -> list[Diagnostic]:
    """Warn when an environment's GPU ceiling costs more than its budget.

    The warning points at the budget; the pools that drive the ceiling (dearest first) are
    named as related values at their ``max_nodes``, where the fix usually is. A ceiling that is
    only partly known is compared by its known part, and says so.

    Args:
        spec: The environment's merged spec.
        env_name: The environment being loaded.
        locator: Maps key paths of the merged tree to where they were written.
        today: The day the environment is priced on.

    Returns:
        Zero or one warning.
    """
    index = next((i for i, e in enumerate(spec.environments) if e.name == env_name), None)
    if index is None:
        return []
    env = spec.environments[index]
    if env.budget is None:
        return []
    budget = env.budget.gpu_monthly_usd
    cost = estimate(env_name, spec, today)
    ceiling = cost.gpu("ceiling").cost
    if month(ceiling.usd_per_hour) <= budget:
        return []
    drivers = sorted(
        (p for p in cost.pools() if p.ceiling.cost.usd_per_hour > 0),
        key=lambda p: -p.ceiling.cost.usd_per_hour,
    )
    related: list[tuple[KeyPath, str]] = [
        (
            (*pool.path, "autoscaling", "max_nodes"),
            f"{pool.cluster}/{pool.name}: {pool.max_nodes} x {pool.machine_type} "
            f"({pool.capacity}) = {pool.ceiling.cost.text()}/month at the ceiling",
        )
        for pool in drivers
    ]
    partial = (
        f"; at least: prices unknown for {'; '.join(ceiling.unknown)}" if ceiling.partial else ""
    )
    over = month(ceiling.usd_per_hour) - budget
    return [
        locator.warning(
            ("environments", index, "budget", "gpu_monthly_usd"),
            f"the GPU pools of {env_name} can cost {ceiling.text()}/month at their ceiling, "
            f"${over:,.2f} over its budget of ${budget:,.2f}{partial}",
            "lower max_nodes of the pools named here, move them to spot, or raise the budget",
            related=related,
        )
    ]
