"""The unit a workload's GPU count is in: a whole GPU, a MIG slice or a share of one.

``nvidia.com/gpu`` counts what the device plugin advertises: physical GPUs on a pool that does
not share them, MIG instances on a MIG pool, time-slices (or MPS clients) on a shared one. Plans
and placement reports name the unit, so "24 GPUs" never stands for 24 MIG slices of 12 H100.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpuplat.spec.model import Cluster, NodePool, Spec, Workload
from gpuplat.spec.resolve import resolve_pool, workload_pools


@dataclass(frozen=True)
class GpuUnit:
    """One schedulable ``nvidia.com/gpu`` unit of a pool, and how many fit on one GPU."""

    name: str
    """``3g.40gb``, ``1/2 L4 time-slice``, or the GPU model (``L4``) when not shared."""
    gpu: str
    """The physical GPU's model (``H100-80GB``), or ``GPU`` when unknown."""
    per_gpu: int

    def each(self, units: int) -> str:
        """``1 x 3g.40gb (MIG slice of H100-80GB)``, ``1 x 1/2 L4 time-slice``, ``2 GPUs``."""
        if self.name == self.gpu:
            return f"{units} GPU{'s' if units != 1 else ''}"
        if self.name.startswith("1/"):
            return f"{units} x {self.name}"
        return f"{units} x {self.name} (MIG slice of {self.gpu})"

    def count(self, units: int) -> str:
        """``24 x 3g.40gb on 12 H100-80GB``; ``2 x L4`` for whole GPUs."""
        if self.per_gpu == 1 and self.name == self.gpu:
            return f"{units} x {self.gpu}"
        return f"{units} x {self.name} on {math.ceil(units / self.per_gpu)} {self.gpu}"


def pool_unit(cluster: Cluster, pool: NodePool) -> GpuUnit:
    """The unit of a pool's ``nvidia.com/gpu``."""
    gpu = resolve_pool(cluster, pool)
    model = gpu.gpu.name if gpu.gpu is not None else (gpu.accelerator or "GPU")
    sharing = pool.sharing
    if sharing.mode == "mig" and sharing.profile:
        return GpuUnit(sharing.profile, model, gpu.units_per_gpu)
    if sharing.mode in ("time-slicing", "mps") and gpu.units_per_gpu > 1:
        kind = "time-slice" if sharing.mode == "time-slicing" else "MPS share"
        return GpuUnit(f"1/{gpu.units_per_gpu} {model} {kind}", model, gpu.units_per_gpu)
    return GpuUnit(model, model, 1)


def workload_unit(spec: Spec, workload: Workload, cluster: str | None = None) -> GpuUnit | None:
    """The unit a workload's ``gpus`` is in on ``cluster`` (default: its first cluster), or
    None when its pools there disagree (or it has none)."""
    pools = workload_pools(spec, workload)
    name = cluster if cluster is not None else next(iter(pools), None)
    found = {c.name: c for c in spec.clusters}.get(name or "")
    if found is None:
        return None
    units = {pool_unit(found, p) for p in pools.get(found.name, [])}
    return units.pop() if len(units) == 1 else None
