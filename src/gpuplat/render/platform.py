"""The platform stage: one gpu-platform module call per cluster."""

from __future__ import annotations

from gpuplat.addons import plan_addons
from gpuplat.hcl.writer import Raw
from gpuplat.render.access import provider_alias
from gpuplat.render.naming import module_label
from gpuplat.render.views import PlatformView
from gpuplat.spec.load import EnvSpec
from gpuplat.spec.model import Cluster
from gpuplat.targets import target


def autoscaler_priorities(env: EnvSpec, cluster: Cluster) -> dict[str, list[Raw | str]]:
    """Priority expander patterns: priority (as the module's map key) -> node group patterns,
    each the cloud's exact pattern of one group."""
    cloud = target(cluster.cloud)
    ladders = cloud.ladder_platform(env.spec, cluster)
    return {
        str(level): [cloud.group_pattern(cluster, g) for g in groups]
        for level, groups in ladders.priorities
    }


def platform_view(env: EnvSpec, cluster: Cluster) -> PlatformView:
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
            **({"azure_workload_identity": True} if plan.keda_azure_identity else {}),
        },
        "prometheus": plan.prometheus,
        "kueue": plan.kueue,
        "leader_worker_set": plan.leader_worker_set,
        "gpu_pools": list(plan.gpu_pools),
        "plugin_pools": list(plan.plugin_pools),
        "pool_tolerations": [{"key": k, "effect": e} for k, e in plan.pool_tolerations],
        "efa_device_plugin": plan.efa_device_plugin,
        **({"network_operator": True} if plan.network_operator else {}),
        **({"gpudirect_rdma": True} if plan.gpudirect_rdma else {}),
        "cluster_autoscaler": {
            "enabled": plan.cluster_autoscaler,
            "cluster_name": cluster.name,
            "region": plan.region,
        },
        "compute_classes": list(target(cluster.cloud).ladder_platform(env.spec, cluster).manifests),
        "charts": {
            name: {"repository": pin.repository, "chart": pin.chart, "version": pin.version}
            for name, pin in plan.charts().items()
        },
    }
    gpudirect = target(cluster.cloud).platform_fabric(cluster)
    if gpudirect is not None:
        args["gpudirect"] = gpudirect
    priorities = autoscaler_priorities(env, cluster)
    if priorities:
        autoscaler = args["cluster_autoscaler"]
        assert isinstance(autoscaler, dict)
        autoscaler["priorities"] = priorities
    if not args["compute_classes"]:
        del args["compute_classes"]
    return PlatformView(
        name=cluster.name,
        alias=provider_alias(cluster.name),
        module=module_label("platform", cluster.name),
        args=args,
        installs=tuple(sorted(plan.charts())),
    )
