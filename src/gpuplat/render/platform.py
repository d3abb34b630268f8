"""The platform stage: one gpu-platform module call per cluster."""

from __future__ import annotations

from gpuplat.addons import plan_addons
from gpuplat.render.access import cluster_access
from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster


def platform_view(env: EnvSpec, cluster: Cluster) -> dict[str, object]:
    """Arguments of the gpu-platform module call for one cluster."""
    plan = plan_addons(env.spec, cluster)
    args: dict[str, object] = {
        "cloud": cluster.cloud,
        "device_plugin": plan.device_plugin,
        "sharing": [{"name": s.name, "mode": s.mode, "replicas": s.replicas} for s in plan.sharing],
        "mig_strategy": plan.mig_strategy,
        "operator_driver": plan.operator_driver,
        "gke_host_paths": plan.gke_host_paths,
        "dcgm": plan.dcgm,
        "keda": {
            "enabled": plan.keda,
            "http_add_on": plan.http_add_on,
            "wait_timeout_seconds": plan.wait_timeout_seconds or 20,
        },
        "kueue": plan.kueue,
        "leader_worker_set": plan.leader_worker_set,
        "cluster_autoscaler": {
            "enabled": plan.cluster_autoscaler,
            "cluster_name": cluster.name,
            "region": plan.region,
        },
        **({"node_tolerations": list(plan.node_tolerations)} if plan.node_tolerations else {}),
        "charts": {
            name: {"repository": pin.repository, "chart": pin.chart, "version": pin.version}
            for name, pin in plan.charts().items()
        },
    }
    return {
        **cluster_access(cluster),
        "module": module_label("platform", cluster.name),
        "args": args,
        "installs": sorted(plan.charts()),
    }
