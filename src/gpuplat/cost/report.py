"""The cost report: JSON for scripts (schema in :mod:`gpuplat.cost.schema`), a table for people."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gpuplat import catalog
from gpuplat.cost import pricefile
from gpuplat.cost.estimate import LEVELS, ClusterCost, EnvCost, Level, PoolCost
from gpuplat.cost.money import HOURS_PER_MONTH, Amount, amount_json, month, total

if TYPE_CHECKING:
    from gpuplat.cost.stranded import Finding

SCHEMA_ID = "gpuplat.cost/1"


def budget_verdict(ceiling: Amount, budget: float) -> str:
    """``over``, ``within``, or ``unknown``: a partial ceiling whose known part is within the
    budget may still exceed it, so it is never ``within`` (the check fails closed)."""
    if month(ceiling.usd_per_hour) > budget:
        return "over"
    return "unknown" if ceiling.partial else "within"


def level_json(level: Level) -> dict[str, object]:
    return {"nodes": level.nodes, "gpus": level.gpus, **amount_json(level.cost)}


def _pool_json(pool: PoolCost) -> dict[str, object]:
    return {
        "name": pool.name,
        "machine_type": pool.machine_type,
        "accelerator": pool.accelerator,
        "gpus_per_node": pool.gpus_per_node,
        "capacity": pool.capacity,
        "unverified": pool.unverified,
        "rungs": [r.to_json() for r in pool.rungs],
        "ceiling_rungs": [r.to_json() for r in pool.ceiling_rungs],
        "min_nodes": pool.min_nodes,
        "max_nodes": pool.max_nodes,
        **{level: level_json(pool.at(level)) for level in LEVELS},
    }


def _cluster_json(cluster: ClusterCost) -> dict[str, object]:
    system = cluster.system
    pool: dict[str, object] = {
        "machine_type": system.machine_type,
        "rate": system.rate.to_json(),
        "min_nodes": system.min_nodes,
        "max_nodes": system.max_nodes,
    }
    pool.update({level: amount_json(system.at(level)) for level in LEVELS})
    return {
        "name": cluster.name,
        "cloud": cluster.cloud,
        "region": cluster.region,
        "fee": {**cluster.fee.to_json(), **amount_json(cluster.fee_amount())},
        "system_pool": pool,
        "pools": [_pool_json(p) for p in cluster.pools],
        "gpu": {level: level_json(cluster.gpu(level)) for level in LEVELS},
        "total": {level: amount_json(cluster.total(level)) for level in LEVELS},
        "lines": [
            {
                **{k: getattr(line, k) for k in ("name", "unit", "source", "as_of", "note")},
                "unverified": line.unverified,
                **{level: amount_json(line.at(level)) for level in LEVELS},
            }
            for line in cluster.lines
        ],
        "not_counted": list(cluster.not_counted),
    }


def env_json(env: EnvCost, findings: Sequence[Finding] = ()) -> dict[str, object]:
    """One environment's cost as JSON."""
    ceiling = env.gpu("ceiling").cost
    budget = None
    if env.gpu_budget is not None:
        budget = {
            "gpu_monthly_usd": env.gpu_budget,
            "ceiling_usd_per_month": month(ceiling.usd_per_hour),
            "over": month(ceiling.usd_per_hour) > env.gpu_budget,
            "partial": ceiling.partial,
            "verdict": budget_verdict(ceiling, env.gpu_budget),
            "unknown": list(ceiling.unknown),
        }
    return {
        "name": env.name,
        "clusters": [_cluster_json(c) for c in env.clusters],
        "gpu": {level: level_json(env.gpu(level)) for level in LEVELS},
        "by_capacity": {
            capacity: {level: level_json(env.by_capacity(level)[capacity]) for level in LEVELS}
            for capacity in env.by_capacity("ceiling")
        },
        "total": {level: amount_json(env.total(level)) for level in LEVELS},
        "budget": budget,
        "stranded": [f.to_json() for f in findings],
    }


def report_json(
    envs: Sequence[EnvCost], stranded: Mapping[str, Sequence[Finding]] | None = None
) -> dict[str, object]:
    """The whole report as JSON (see ``gpuplat schema --cost``)."""
    return {
        "schema": SCHEMA_ID,
        "currency": "USD",
        "hours_per_month": HOURS_PER_MONTH,
        "catalog_as_of": catalog.catalog_as_of(),
        "price_file": pricefile.provenance_json(),
        "note": "list prices without discounts, approximate; a partial amount is a lower bound",
        "environments": [env_json(e, (stranded or {}).get(e.name, ())) for e in envs],
    }


# --------------------------------------------------------------------------- tables


def stranded_table(env: str, findings: Sequence[Finding]) -> list[str]:
    """The stranded-GPU findings of one environment for people: idle units that are paid for
    (on nodes that run anyway) apart from headroom (nodes created only when used, free until)."""
    if not findings:
        return [f"Stranded GPUs in {env}: none"]
    lines = [f"Stranded GPUs in {env} (USD/month at the ceiling's prices):"]
    width = max(len(f"{f.cluster}/{f.pool}") for f in findings)
    kinds = max(len(f.kind) for f in findings)
    head = f"  {'':<{width}}  {'':<{kinds}}  {'paid idle':>12}  {'free headroom':>13}"
    lines.append(head.rstrip())
    for f in findings:
        where = f"{f.cluster}/{f.pool}"
        money = f.wasted.text()
        money = f"(+{money} to fit)" if f.kind == "short" else money
        free = f.headroom.text() if f.headroom_units else "-"
        lines.append(f"  {where:<{width}}  {f.kind:<{kinds}}  {money:>12}  {free:>13}  {f.detail}")
    wasted = [f.wasted for f in findings if f.kind != "short"]
    if wasted:
        free_total = total(f.headroom for f in findings if f.kind != "short")
        lines.append(
            f"  {'paid idle / free headroom':<{width + kinds + 2}}  {total(wasted).text():>12}"
            f"  {free_total.text():>13}"
        )
    return lines


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    left = f"{cells[0]:<{widths[0]}}"
    rest = "  ".join(f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True))
    return f"  {left}  {rest}".rstrip()


def table(envs: Sequence[EnvCost]) -> list[str]:
    """The report for people: one block per environment, one row per pool, then totals."""
    head = ["", "capacity", "nodes", "GPUs", "$/h/node", "floor/mo", "expected/mo", "ceiling/mo"]
    lines: list[str] = []
    unknown: dict[str, None] = {}
    flagged = bounded = False
    for env in envs:
        rows: list[list[str]] = []
        for cluster in env.clusters:
            rows.append([f"{cluster.name} ({cluster.cloud}, {cluster.region})", *[""] * 7])
            for pool in cluster.pools:
                rate = pool.rungs[0].usd_per_hour
                flagged = flagged or pool.unverified
                mark = "*" if pool.unverified else ""
                bound = "^" if pool.ceiling_rungs != pool.rungs else ""
                bounded = bounded or bool(bound)
                rows.append(
                    [
                        f"  {pool.name} {pool.machine_type}",
                        pool.capacity,
                        f"{pool.min_nodes}..{pool.max_nodes}",
                        f"{pool.floor.gpus if pool.floor.gpus is not None else '?'}.."
                        f"{pool.ceiling.gpus if pool.ceiling.gpus is not None else '?'}",
                        _rate(rate, pool.rungs[0].unverified),
                        *(
                            pool.at(level).cost.text()
                            + mark
                            + (bound if level == "ceiling" else "")
                            for level in LEVELS
                        ),
                    ]
                )
            system = cluster.system
            rate = system.rate.usd_per_hour
            rows.append(
                [
                    f"  system {system.machine_type}",
                    "on-demand",
                    f"{system.min_nodes}..{system.max_nodes}",
                    "",
                    "?" if rate is None else f"{rate:.5f}".rstrip("0"),
                    *(system.at(level).text() for level in LEVELS),
                ]
            )
            for line in cluster.lines:
                flagged = flagged or line.unverified
                star = "*" if line.unverified else ""
                rows.append(
                    [f"  {line.name}", *[""] * 4, *(line.at(lv).text() + star for lv in LEVELS)]
                )
            fee = cluster.fee_amount()
            label = f"  cluster fee ({cluster.fee_tier})" if cluster.fee_tier else "  cluster fee"
            rows.append([label, "", "", "", "", *(fee.text() for _ in LEVELS)])
            for level in LEVELS:
                unknown.update(dict.fromkeys(cluster.total(level).unknown))
        gpu = [env.gpu(level) for level in LEVELS]
        rows.append(
            [
                "GPU pools",
                "",
                "",
                f"{_gpus(gpu[0])}..{_gpus(gpu[2])}",
                "",
                *(g.cost.text() for g in gpu),
            ]
        )
        for capacity, ceiling in env.by_capacity("ceiling").items():
            floor = env.by_capacity("floor")[capacity]
            mid = env.by_capacity("expected")[capacity]
            rows.append(
                [
                    f"  {capacity}",
                    "",
                    "",
                    f"{_gpus(floor)}..{_gpus(ceiling)}",
                    "",
                    floor.cost.text(),
                    mid.cost.text(),
                    ceiling.cost.text(),
                ]
            )
        rows.append(["total", "", "", "", "", *(env.total(level).text() for level in LEVELS)])
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        lines.append(f"Cost of {env.name} (USD, list prices, {HOURS_PER_MONTH} h/month):")
        lines.append(_row(head, widths))
        lines.extend(_row(r, widths) for r in rows)
        lines.append("  not counted in these totals:")
        lines.extend(
            f"    {cluster.name}: {line}"
            for cluster in env.clusters
            for line in cluster.not_counted
        )
        if env.gpu_budget is not None:
            most = env.gpu("ceiling").cost
            verdict = {
                "over": "is over it",
                "within": "is within it",
                "unknown": "is not known to be within it (prices unknown, see below)",
            }[budget_verdict(most, env.gpu_budget)]
            lines.append(
                f"  GPU budget ${env.gpu_budget:,.2f}/month: ceiling {most.text()} {verdict}"
            )
        lines.append("")
    lines.append(pricefile.provenance(catalog.catalog_as_of()))
    if flagged:
        lines.append(
            "* unverified price (one source, or another region's): see the notes of the rungs and "
            "lines in "
            "`gpuplat cost --json`"
        )
    if unknown:
        lines.append("? and + mark unknown prices (totals with + are partial, a lower bound):")
        lines.extend(f"  {reason}" for reason in unknown)
    if bounded:
        lines.append(
            "^ spot price bounded: the ceiling is the most spot can cost (on-demand, 40 % of it "
            "on GCE, or the pool's max_price; ceiling_rungs in `gpuplat cost --json`)"
        )
    return lines[:-1] if lines and lines[-1] == "" else lines


def _rate(usd: float | None, unverified: bool) -> str:
    if usd is None:
        return "?"
    return f"{usd:.5f}".rstrip("0").rstrip(".") + ("*" if unverified else "")


def _gpus(level: Level) -> str:
    return "?" if level.gpus is None else str(level.gpus)
