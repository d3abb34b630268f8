"""The JSON Schema of ``gpuplat cost --json``, as typed models (``gpuplat schema --cost``).

The report is built as plain data by :mod:`gpuplat.cost.report`; these models describe it, and
a test validates every example's report against the schema they produce, so the two cannot
drift apart.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gpuplat import __version__


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AmountOut(_Out):
    """Money per hour and per month (730 h). Null when nothing is known; partial: a lower bound."""

    usd_per_hour: float | None
    usd_per_month: float | None
    partial: bool = Field(description="Some prices are unknown: the figures are a lower bound.")
    unknown: list[str] = Field(description="Why each unknown price is unknown.")


class LevelOut(AmountOut):
    """Nodes, physical GPUs and their cost at one level."""

    nodes: int
    gpus: int | None


class RateOut(_Out):
    """The hourly price of one node (or of a cluster's fee) and where the figure comes from."""

    capacity: str = Field(
        description="on-demand, spot, reservation, capacity-block, flex-start, queued, or fee."
    )
    usd_per_hour: float | None = Field(description="Null when unknown (never 0 for unknown).")
    source: str | None = Field(
        description="Catalog source id (gpuplat's catalog sources.yaml), or the URL of the "
        "price list a price file's figure was read from (its SKU ids are in the note)."
    )
    as_of: str | None = Field(description="The date of the price (not of reading it).")
    region: str | None = Field(description="Region the figure is for.")
    unverified: bool
    unknown: str | None = Field(description="Why the price is unknown.")
    note: str | None


class FeeOut(_Out):
    """A cluster's control-plane fee: its rate and what it amounts to."""

    capacity: Literal["fee"]
    usd_per_hour: float | None
    usd_per_month: float | None
    source: str | None
    as_of: str | None
    region: str | None
    unverified: bool
    unknown: list[str]
    note: str | None
    partial: bool


class Levels(_Out):
    """floor: every pool at min_nodes; expected: what replicas.min need; ceiling: max_nodes."""

    floor: LevelOut
    expected: LevelOut
    ceiling: LevelOut


class AmountLevels(_Out):
    floor: AmountOut
    expected: AmountOut
    ceiling: AmountOut


class SystemPoolOut(_Out):
    machine_type: str
    rate: RateOut
    min_nodes: int
    max_nodes: int
    floor: AmountOut
    expected: AmountOut
    ceiling: AmountOut


class PoolOut(_Out):
    name: str
    machine_type: str
    accelerator: str | None
    gpus_per_node: int | None
    capacity: str
    unverified: bool = Field(
        description="Some rung's price is unverified (one source, or another region's): the "
        "table marks the pool's amounts with *, the picture says so."
    )
    rungs: list[RateOut] = Field(description="Capacity rungs, preferred first, each priced.")
    ceiling_rungs: list[RateOut] = Field(
        description="The most a node of each rung can cost, what the ceiling is priced at: a "
        "spot price of unknown figure is bounded by on-demand, an AKS spot pool by its "
        "max_price (the note says which); other rungs as in rungs."
    )
    min_nodes: int
    max_nodes: int
    floor: LevelOut
    expected: LevelOut
    ceiling: LevelOut


class LineOut(_Out):
    """A line of the bill beside nodes and fee, at each level, with its price's origin."""

    name: str
    unit: str = Field(description="The price it is counted at, e.g. `0.17 $/GB-month x 1000 GB`.")
    source: str | None = Field(description="Catalog source id (sources.yaml).")
    as_of: str | None = Field(description="The date of the price.")
    unverified: bool
    note: str | None
    floor: AmountOut
    expected: AmountOut
    ceiling: AmountOut


class ClusterOut(_Out):
    name: str
    cloud: Literal["gke", "eks", "aks"]
    region: str
    fee: FeeOut
    system_pool: SystemPoolOut
    pools: list[PoolOut]
    gpu: Levels = Field(description="The cluster's GPU pools.")
    total: AmountLevels = Field(
        description="GPU pools, system pool, fee and the lines beside them (`lines`)."
    )
    lines: list[LineOut] = Field(
        description="Boot disks per pool (size, type, per node at each level), NAT gateways and "
        "their addresses, the load balancer AKS sends egress through, nodes' public IPv4."
    )
    not_counted: list[str] = Field(
        description="What the cluster is billed for that no amount here includes: traffic "
        "(NAT and load balancer processing per GB, egress), disks of types without a price."
    )


class BudgetOut(_Out):
    """The environment's GPU budget against its GPU pools' ceiling."""

    gpu_monthly_usd: float
    ceiling_usd_per_month: float = Field(description="The ceiling's known part (partial: more).")
    over: bool = Field(description="The ceiling's known part alone is over the budget.")
    partial: bool
    verdict: Literal["within", "over", "unknown"] = Field(
        description="unknown: the known part is within the budget but some prices are unknown, "
        "so the ceiling is never called within it (validate warns; --strict fails)."
    )
    unknown: list[str] = Field(description="Why each unknown price of the ceiling is unknown.")


class FindingOut(_Out):
    """Stranded capacity: idle units at the ceiling and what they cost."""

    kind: Literal["indivisible", "unused-at-max", "untargeted", "short"]
    cluster: str
    pool: str
    workload: str | None
    units: int = Field(
        description="Idle schedulable units that are paid for: on nodes that run anyway "
        "(min_nodes, a reservation's nodes, nodes the replicas hold); short: replicas that do "
        "not fit."
    )
    wasted: AmountOut = Field(
        description="Cost of the paid idle units (short: of the missing nodes)."
    )
    headroom_units: int = Field(
        description="Idle units on nodes the autoscaler creates only when replicas need them."
    )
    headroom: AmountOut = Field(description="What the headroom would cost: nothing until used.")
    detail: str


class EnvironmentOut(_Out):
    name: str
    clusters: list[ClusterOut]
    gpu: Levels
    by_capacity: dict[str, Levels]
    total: AmountLevels
    budget: BudgetOut | None
    stranded: list[FindingOut]


class PriceFileOut(_Out):
    """A price file written by ``gpuplat prices update``."""

    path: str
    fetched: str = Field(description="The day its figures were fetched.")
    skipped: list[str] = Field(description="What it does not hold, and why.")


class CostReport(_Out):
    """What ``gpuplat cost --json`` prints."""

    schema_: Literal["gpuplat.cost/1"] = Field(alias="schema")
    currency: Literal["USD"]
    hours_per_month: int
    catalog_as_of: str
    price_file: PriceFileOut | None = Field(
        description="The price file (`gpuplat prices update`) the report priced from where it "
        "has the figure; null: the shipped catalog alone."
    )
    note: str
    environments: list[EnvironmentOut]


def cost_schema_text() -> str:
    """The JSON Schema of the cost report, sorted, with a trailing newline."""
    schema: dict[str, object] = CostReport.model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    schema["title"] = "gpuplat cost report"
    schema["$comment"] = f"generated by gpuplat {__version__}; do not edit"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
