"""What a stopping replica really gets on capacity the cloud takes back: the notice of a spot
preemption or eviction, against the grace period gpuplat renders (preStop + drain_time)."""

from __future__ import annotations

from gpuplat.spec.ladder import capacity_kinds
from gpuplat.spec.model import Spec
from gpuplat.spec.resolve import workload_pools
from gpuplat.targets import target
from gpuplat.workload.serving import PRE_STOP_SECONDS


def notes(spec: Spec) -> list[str]:
    """One line per workload and cluster whose pools include capacity the cloud may take back
    with less notice than the rendered grace period.

    The rendered ``terminationGracePeriodSeconds`` (preStop + ``drain_time``) holds for drains
    that upgrades, repairs and scale-down start; on a preemption the node goes when the notice
    runs out. The preStop (readiness off, the pod out of its Service's endpoints, load
    balancers told) must fit the notice; in-flight requests get what is left of it.
    """
    out: list[str] = []
    for workload in spec.workloads:
        grace = PRE_STOP_SECONDS + workload.drain_time
        for cluster in spec.clusters:
            pools = workload_pools(spec, workload).get(cluster.name, [])
            one = target(cluster.cloud)
            for pool in pools:
                for kind in dict.fromkeys(capacity_kinds(pool)):
                    found = one.interruption_notices.get(kind or "")
                    if found is None or found[0] >= grace:
                        continue
                    seconds, source = found
                    left = max(seconds - PRE_STOP_SECONDS, 0)
                    out.append(
                        f'workload "{workload.name}" on {kind} pool {cluster.name}/{pool.name}: '
                        f"{source}. The rendered grace of {grace}s (preStop "
                        f"{PRE_STOP_SECONDS}s + drain_time {workload.drain_time}s) holds on "
                        "upgrades, repairs and scale-down, not on a preemption: there the "
                        f"preStop (readiness off, endpoints removed) takes {PRE_STOP_SECONDS}s "
                        f"of the {seconds}s and in-flight requests get {left}s"
                    )
    return out
