"""How many replicas an autoscaled target is held at while a move takes its sources down.

One computation for `gpuplat failover` (app/move.py) and `gpuplat converge` (app/converge.py):
what the sources serve now (their refreshed Deployments; for a source whose cloud cannot be
read, its last known count), up to the target's maximum, when that is more than the target's
minimum. An autoscaler would start the target at its minimum, 0 for KEDA: the first requests
after the move would wait for a node, the pull and the weights on the cloud moved to. The
target's Deployment is replaced (it starts at the held count and terraform waits for its
rollout) only when it runs fewer now.

A multi-host workload's autoscaled LeaderWorkerSet is held the same way, by whole groups, read
from the sets' refreshed state. Nothing is replaced: the set names the held count
(model-server 3.5.0's ``group.hold``) and its apply waits for those groups; since a set that
names no count waits for nothing, a group is held whenever the target runs fewer than the
sources serve, at least its own minimum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gpuplat.app.plan import ClusterPlan
from gpuplat.app.rolecount import deployment_address
from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.workload.serving import serving_plans


@dataclass(frozen=True)
class Hold:
    """The target's hold: ``count`` replicas (0: none), and whether it runs fewer now."""

    count: int
    short: bool
    replace: tuple[str, ...] = ()
    """What the held plan replaces: the target's Deployment when it runs fewer (none for a
    LeaderWorkerSet, whose count changes in place)."""


def target_hold(
    env: EnvSpec,
    workload: str,
    to: str,
    plans: Mapping[str, ClusterPlan],
    sources: Sequence[str],
    known: Mapping[str, int] | None = None,
) -> Hold:
    """The hold of ``workload``'s autoscaled target ``to`` while ``sources`` go down, read from
    the plans' refreshed states (``known``: the last known counts of sources not planned)."""
    serving = next(p for p in serving_plans(env, to) if p.name == workload)
    if serving.scaler is None:
        return Hold(0, False)
    if serving.group is not None:
        read = sum(running_count(plans[c], group_set(workload, c)) for c in sources)
        wanted = max(read + sum((known or {}).values()), serving.replicas_min)
        wanted = min(wanted, serving.replicas_max)
        short = running_count(plans[to], group_set(workload, to)) < wanted
        return Hold(wanted, True) if short else Hold(0, False)
    read = sum(running_count(plans[c], deployment(env, workload, c)) for c in sources)
    wanted = min(read + sum((known or {}).values()), serving.replicas_max)
    if wanted <= serving.replicas_min:
        return Hold(0, False)
    short = running_count(plans[to], deployment(env, workload, to)) < wanted
    return Hold(wanted, short, (deployment(env, workload, to),) if short else ())


def group_set(workload: str, cluster: str) -> str:
    """Address of a multi-host model server's LeaderWorkerSet in the cluster's serving root."""
    return f"module.{module_label('serve', workload, cluster)}.kubernetes_manifest.group[0]"


def deployment(env: EnvSpec, workload: str, cluster: str) -> str:
    """Address of the model server's Deployment in the cluster's serving root."""
    plan = next(p for p in serving_plans(env, cluster) if p.name == workload)
    return deployment_address(plan.name, plan.cluster, plan.dra)


def running_count(plan: ClusterPlan, address: str) -> int:
    """Replicas the Deployment (or groups the set) at ``address`` runs now, read from the
    plan's refreshed state."""
    return sum(s.running.get(address, 0) for s in plan.stages)


def floor_variables(workload: str, cluster: str, floor: int) -> dict[str, dict[str, str]]:
    """The serving root's ``failover_floor`` holding ``workload`` at ``floor`` replicas on
    ``cluster`` (keyed by the module label the root's lookup reads)."""
    label = module_label("serve", workload, cluster)
    return {cluster: {"failover_floor": f'{{"{label}" = {floor}}}'}}
