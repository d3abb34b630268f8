"""The replicas a model server runs now against what its role holds, read from a plan.

Terraform leaves a Deployment's count to the autoscaler once it exists (``ignore_changes``), so a
role changed in the spec and applied, or a ``--target-only`` failover whose source was never
applied, leaves a count the role disagrees with and a plan that says "no changes". The plan's
refreshed state holds the count that runs: ``plan`` says where it is outside the role's bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.roles import bounds
from gpuplat.summary import SERVER_RESOURCE
from gpuplat.workload.serving import serving_plans


@dataclass(frozen=True)
class RoleCount:
    """One placement's role and the replicas it may run (its bounds)."""

    placement: str
    namespace: str
    name: str
    role: str
    low: int
    high: int


def deployment_address(workload: str, cluster: str, dra: bool) -> str:
    """Address of a model server's Deployment in its cluster's serving root."""
    label = module_label("serve", workload, cluster)
    resource = "kubernetes_manifest.deployment" if dra else f"{SERVER_RESOURCE}.this"
    return f"module.{label}.{resource}[0]"


def role_counts(env: EnvSpec, cluster: str) -> dict[str, RoleCount]:
    """Deployment address -> its placement's role and bounds, for the cluster's model servers."""
    workloads = {w.name: w for w in env.spec.workloads}
    out: dict[str, RoleCount] = {}
    for plan in serving_plans(env, cluster):
        found = bounds(workloads[plan.name], cluster)
        out[deployment_address(plan.name, cluster, plan.dra)] = RoleCount(
            f"{plan.name}@{cluster}", plan.namespace, plan.name, found.role, found.low, found.high
        )
    return out


def role_warnings(
    running: Mapping[str, int], roles: Mapping[str, RoleCount], env: str = "ENV"
) -> list[str]:
    """A line for each Deployment whose running count is outside its role's bounds."""
    out = []
    for address, count in sorted(running.items()):
        role = roles.get(address)
        if role is None or role.low <= count <= role.high:
            continue
        out.append(
            f"{role.placement} runs {count} replica(s) but its role {role.role} holds "
            f"{role.low}..{role.high}, and terraform leaves a running count alone: finish the "
            f"move with `gpuplat converge {role.name} -e {env}`, or `kubectl scale -n {role.namespace} "
            f"deployment/{role.name} --replicas={role.low}`"
        )
    return out
