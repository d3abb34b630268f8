"""The serving stage: model-server (and scale-to-zero) module calls per workload and cluster."""

from __future__ import annotations

from gpuplat.render.access import provider_alias
from gpuplat.render.naming import module_label
from gpuplat.spec.load import EnvSpec
from gpuplat.workload.serving import ServingPlan, plan_workload

HTTP_SCALER = "keda-add-ons-http-external-scaler.keda.svc.cluster.local:9090"
HTTP_INTERCEPTOR = "keda-add-ons-http-interceptor-proxy.keda.svc.cluster.local:8080"


def serving_plans(env: EnvSpec) -> list[ServingPlan]:
    """Every (workload, cluster) pair of an environment, in spec order."""
    clusters = {c.name: c for c in env.spec.clusters}
    return [
        plan_workload(env.spec, workload, clusters[name])
        for workload in env.spec.workloads
        for name in workload.clusters
    ]


def server_view(plan: ServingPlan) -> dict[str, object]:
    """Arguments of one model-server module call (and its scale-to-zero companion)."""
    weights: dict[str, object] = {"mode": plan.weights.mode, "mount_path": plan.weights.mount_path}
    optional = {
        "init_image": plan.weights.init_image,
        "init_command": list(plan.weights.init_command) or None,
        "size_limit": plan.weights.size_limit,
        "bucket": plan.weights.bucket,
        "mount_options": plan.weights.mount_options,
    }
    weights.update({k: v for k, v in optional.items() if v is not None})
    resources: dict[str, object] = {"cpu": plan.cpu, "memory": plan.memory}
    if plan.ephemeral_storage is not None:
        resources["ephemeral_storage"] = plan.ephemeral_storage
    args: dict[str, object] = {
        "name": plan.name,
        "namespace": plan.namespace,
        "container": {
            "image": plan.image,
            "command": list(plan.command),
            "args": list(plan.args),
            "port": plan.port,
            "health_path": plan.health_path,
            "env": plan.env,
        },
        "gpu": {"count": plan.gpu_count, "dra": plan.dra},
        "resources": resources,
        "replicas": {"min": plan.replicas_min, "max": plan.replicas_max},
        "placement": {"pools": list(plan.pools), "tolerations": list(plan.tolerations)},
        "startup": {
            "period_seconds": plan.startup.period_seconds,
            "failure_threshold": plan.startup.failure_threshold,
        },
        "shutdown": {
            "pre_stop_seconds": plan.pre_stop_seconds,
            "grace_seconds": plan.grace_seconds,
        },
        "priority": {"name": plan.priority_class, "value": plan.priority_value},
        "weights": weights,
    }
    if plan.autoscale == "hpa" and plan.metric is not None:
        args["hpa"] = {"metric": plan.metric, "target": plan.target}
    args["rollout"] = {
        "max_surge": plan.rollout.max_surge,
        "max_unavailable": plan.rollout.max_unavailable,
    }
    zero: dict[str, object] | None = None
    if plan.autoscale == "keda":
        zero = {
            "name": plan.name,
            "namespace": plan.namespace,
            "port": plan.port,
            "max_replicas": max(plan.replicas_max, 1),
            "http_scaler": HTTP_SCALER,
            "interceptor": HTTP_INTERCEPTOR,
        }
        if plan.prometheus_address and plan.metric:
            zero["prometheus"] = {
                "address": plan.prometheus_address,
                "query": f'sum({plan.metric}{{namespace="{plan.namespace}"}})',
                "threshold": plan.target,
            }
    startup = plan.startup
    return {
        "workload": plan.name,
        "cluster": plan.cluster,
        "primary": plan.primary,
        "module": module_label("serve", plan.name, plan.cluster),
        "zero_module": module_label("zero", plan.name, plan.cluster),
        "alias": provider_alias(plan.cluster),
        "args": args,
        "zero": zero,
        "rollout_reason": plan.rollout.reason,
        "startup_reason": (
            f"image pull {startup.pull_seconds}s + weights {startup.load_seconds}s = "
            f"{startup.estimate_seconds}s; the probe allows {startup.period_seconds}s x "
            f"{startup.failure_threshold} = {startup.probe_allows_seconds}s "
            f"(load_time_budget {startup.window_seconds}s)."
        ),
    }
