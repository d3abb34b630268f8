"""The budget check: an environment's GPU pools at their ceiling against its monthly budget."""

from __future__ import annotations

from datetime import date

from gpuplat.cost.estimate import estimate
from gpuplat.cost.money import month
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Spec


def check(spec: Spec, env_name: str, locator: Locator, today: date) -> list[Diagnostic]:
    """Warn when an environment's GPU ceiling costs more than its budget, or may.

    The warning points at the budget; the pools that drive the ceiling (dearest first) are
    named as related values at their ``max_nodes``, where the fix usually is. The check fails
    closed: a ceiling that is only partly known is never within a budget (its known part is a
    lower bound), so it warns too, naming what is unknown (``--strict`` makes it an error).

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
    if month(ceiling.usd_per_hour) <= budget and not ceiling.partial:
        return []
    drivers = sorted(
        (p for p in cost.pools() if p.ceiling.cost.usd_per_hour > 0 or p.ceiling.cost.partial),
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
    where = ("environments", index, "budget", "gpu_monthly_usd")
    over = month(ceiling.usd_per_hour) - budget
    unknown = "; ".join(ceiling.unknown)
    if over <= 0:
        return [
            locator.warning(
                where,
                f"the GPU pools of {env_name} cost at least {ceiling.text()}/month at their "
                f"ceiling and may cost more: not known to be within its budget of "
                f"${budget:,.2f}, as prices are unknown ({unknown})",
                "give the pools named here a shape and capacity type the catalog prices, "
                "or accept the warning knowing the ceiling is a lower bound",
                related=related,
            )
        ]
    partial = f"; at least: prices unknown for {unknown}" if ceiling.partial else ""
    return [
        locator.warning(
            where,
            f"the GPU pools of {env_name} can cost {ceiling.text()}/month at their ceiling, "
            f"${over:,.2f} over its budget of ${budget:,.2f}{partial}",
            "lower max_nodes of the pools named here, move them to spot, or raise the budget",
            related=related,
        )
    ]
