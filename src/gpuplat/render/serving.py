"""The serving stage: model-server (and scale-to-zero) module calls per workload and cluster.

Every argument is a value of the serving plan (workload/serving.py), written as the modules'
inputs; the modules compute nothing of their own, so the plain manifests, written from the same
plan, say the same thing (tests/parity proves it with a real terraform plan).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplat.hcl.writer import Raw, expr, raw
from gpuplat.render.access import provider_alias
from gpuplat.render.naming import module_label
from gpuplat.targets.fabric import HostMount, Sidecar, StartupCheck
from gpuplat.workload.blob import CLIENT_ID_ANNOTATION, BlobReader
from gpuplat.workload.group import RESTART_POLICY, STARTUP_POLICY, GroupPlan
from gpuplat.workload.health import Probe
from gpuplat.workload.queue import QueuePlan, queue_of
from gpuplat.workload.scaling import InterceptorDoor
from gpuplat.workload.serving import EnvVar, ServingPlan
from gpuplat.workload.weights import Weights

ROLE_TEXT = {
    "active": "primary",
    "warm": "warm standby: runs a few replicas, ready to take traffic",
    "cold": "cold standby: no replicas until traffic or `gpuplat failover` arrives",
}
"""The role of a placement, as the serving root's comment says it."""


def _probe(probe: Probe) -> dict[str, object]:
    return {
        "period_seconds": probe.period_seconds,
        "failure_threshold": probe.failure_threshold,
        "timeout_seconds": probe.timeout_seconds,
    }


def _env(var: EnvVar) -> dict[str, object]:
    if var.ref is None:
        return {"name": var.name, "value": var.value}
    ref = {"name": var.ref.name, "key": var.ref.key, "optional": var.ref.optional}
    return {"name": var.name, var.ref.kind: ref}


def client_id(reader: BlobReader) -> Raw:
    """The client id of a workload's Azure identity: an output of its cluster's infra stage
    (created there, read here through the remote state)."""
    return raw(
        f"local.clusters[{expr(reader.cluster)}].workload_identities[{expr(reader.workload)}]"
    )


def _weights(weights: Weights) -> dict[str, object]:
    out: dict[str, object] = {"mode": weights.mode, "mount_path": weights.mount_path}
    if weights.mode == "copy":
        out["size_limit"] = weights.size_limit
    if weights.has_init:
        init: dict[str, object] = {
            "image": weights.init_image,
            "command": list(weights.init_command),
        }
        if weights.init_env:
            init["env"] = dict(weights.init_env)
        init["resources"] = {
            "requests": dict(weights.init_requests),
            "limits": dict(weights.init_limits),
        }
        out["init"] = init
    if weights.mode == "gcsfuse":
        out["bucket"] = weights.bucket
        out["mount_options"] = weights.mount_options
        if weights.cache_memory is not None:
            out["cache_memory"] = weights.cache_memory
    if weights.mode == "blobfuse":
        attributes: dict[str, object] = dict(weights.volume_attributes)
        if weights.reader is not None:
            attributes["clientID"] = client_id(weights.reader)
        out["csi"] = {"driver": weights.driver, "volume_attributes": attributes}
        if weights.sub_path is not None:
            out["sub_path"] = weights.sub_path
    return out


def model_server_args(plan: ServingPlan) -> dict[str, object]:
    """Arguments of one model-server module call, in the order the root writes them."""
    args: dict[str, object] = {
        "name": plan.name,
        "namespace": plan.namespace,
        "labels": dict(plan.labels),
        "selector": dict(plan.selector),
        "pod": {
            "labels": dict(plan.pod_labels),
            "annotations": dict(plan.pod_annotations),
            "automount_token": plan.automount_token,
        },
        "container": {
            "image": plan.image,
            "command": list(plan.command),
            "args": list(plan.args),
            "port": plan.port,
            "env": [_env(v) for v in plan.env],
        },
        "gpu": {"count": plan.gpu_count, "dra": plan.dra, "device_class": plan.device_class},
        "resources": {"requests": dict(plan.requests), "limits": dict(plan.limits)},
        "replicas": {"min": plan.replicas_min, "max": plan.replicas_max},
        "placement": {
            "pool_label": plan.pool_label,
            "pools": list(plan.pools),
            "preferred": [{"pool": p.pool, "weight": p.weight} for p in plan.preferred],
            "tolerations": list(plan.tolerations),
        },
        "probes": {
            "path": plan.probes.path,
            "startup": _probe(plan.probes.startup),
            "readiness": _probe(plan.probes.readiness),
            "liveness": _probe(plan.probes.liveness),
        },
        "shutdown": {
            "pre_stop_seconds": plan.pre_stop_seconds,
            "grace_seconds": plan.grace_seconds,
        },
        "priority": {"name": plan.priority_class, "value": plan.priority_value},
        "weights": _weights(plan.weights),
        "shm_size": plan.shm_size,
        "disruption": {"max_unavailable": plan.disruption_max_unavailable},
    }
    if plan.metrics_port is not None:
        container = args["container"]
        assert isinstance(container, dict)
        container["metrics_port"] = plan.metrics_port
    reader = plan.weights.reader
    if reader is not None:
        args["service_account_annotations"] = {CLIENT_ID_ANNOTATION: client_id(reader)}
    if plan.node_selector:
        placement = args["placement"]
        assert isinstance(placement, dict)
        placement["node_selector"] = dict(plan.node_selector)
    if plan.gpu_quota is not None:
        args["gpu_quota"] = plan.gpu_quota
    if plan.group is not None:
        args["group"] = group_args(
            plan.group, queue_of(plan), plan.host_mounts, autoscaled=plan.scaler is not None
        )
    if plan.load_balancer is not None:
        args["load_balancer"] = {"annotations": dict(plan.load_balancer)}
    rollout: dict[str, object] = {
        "max_surge": plan.rollout.max_surge,
        "max_unavailable": plan.rollout.max_unavailable,
        "progress_deadline_seconds": plan.progress_deadline_seconds,
        "revision_history_limit": plan.rollout.revision_history_limit,
    }
    if plan.rollout.strategy != "RollingUpdate":
        rollout["strategy"] = plan.rollout.strategy
    args["rollout"] = rollout
    return args


def group_args(
    group: GroupPlan,
    queue: QueuePlan | None,
    mounts: tuple[HostMount, ...] = (),
    *,
    autoscaled: bool = False,
) -> dict[str, object]:
    """The model-server module's ``group`` input: one multi-host replica's LeaderWorkerSet
    (``autoscaled``: KEDA owns its count of groups)."""
    return {
        "size": group.size,
        "leader_command": list(group.leader_command),
        "worker_command": list(group.worker_command),
        "max_surge": group.max_surge,
        "max_unavailable": group.max_unavailable,
        "startup_policy": STARTUP_POLICY,
        "restart_policy": RESTART_POLICY,
        "service_selector": dict(group.leader_selector),
        **({"capabilities": list(group.capabilities)} if group.capabilities else {}),
        **({"autoscaled": True} if autoscaled else {}),
        **(
            {
                "host_mounts": [
                    {
                        "name": m.name,
                        "host_path": m.host_path,
                        "mount_path": m.mount_path,
                        **({} if m.read_only else {"read_only": False}),
                    }
                    for m in mounts
                ]
            }
            if mounts
            else {}
        ),
        **({"sidecar": _sidecar(group.sidecar)} if group.sidecar is not None else {}),
        **({"queue": _queue(queue)} if queue is not None else {}),
    }


def _sidecar(sidecar: Sidecar) -> dict[str, object]:
    return {
        "name": sidecar.name,
        "image": sidecar.image,
        "command": list(sidecar.command),
        "env": dict(sidecar.env),
        "capabilities": list(sidecar.capabilities),
        "host_mounts": [
            {
                "name": m.name,
                "host_path": m.host_path,
                "mount_path": m.mount_path,
                "read_only": m.read_only,
            }
            for m in sidecar.mounts
        ],
        **({"startup_probe": _check(sidecar.startup)} if sidecar.startup is not None else {}),
    }


def _check(check: StartupCheck) -> dict[str, object]:
    return {
        "command": list(check.command),
        "initial_delay_seconds": check.initial_delay_seconds,
        "period_seconds": check.period_seconds,
        "timeout_seconds": check.timeout_seconds,
        "failure_threshold": check.failure_threshold,
    }


def _queue(queue: QueuePlan) -> dict[str, object]:
    return {
        "local_queue": queue.local_queue,
        "cluster_queue": queue.cluster_queue,
        "flavor": queue.flavor_name,
        "namespace": queue.namespace,
        "node_labels": dict(queue.node_labels),
        "quotas": dict(queue.quotas),
        **(
            {"topology": {"name": queue.topology_name, "levels": list(queue.topology)}}
            if queue.topology
            else {}
        ),
    }


def scaler_args(plan: ServingPlan) -> dict[str, object] | None:
    """Arguments of the KEDA scaler module call of an autoscaled workload (else None)."""
    scaler = plan.scaler
    if scaler is None:
        return None
    b = scaler.behavior
    args: dict[str, object] = {
        "name": plan.name,
        "namespace": plan.namespace,
        "labels": dict(plan.labels),
        "port": plan.port,
        "replicas": {"min": scaler.min_replicas, "max": scaler.max_replicas},
    }
    if scaler.target != ("apps/v1", "Deployment"):  # the module's default
        args["target"] = {"api_version": scaler.target[0], "kind": scaler.target[1]}
    if scaler.http is not None:
        http = scaler.http
        args["http"] = {
            "front": {
                "name": http.front,
                "hosts": list(http.hosts),
                "external_name": http.interceptor_host,
                "port": http.interceptor_port,
            },
            **({"door": _door(http.door)} if http.door is not None else {}),
            "scaler": http.http_scaler,
            "target_pending_requests": http.target_pending_requests,
            "wait_seconds": http.wait_seconds,
        }
    args["cooldown_seconds"] = scaler.cooldown_seconds
    args["polling_interval_seconds"] = scaler.polling_interval_seconds
    args["behavior"] = {
        "up_window_seconds": b.up_window_seconds,
        "up": {"type": b.up.type, "value": b.up.value, "periodSeconds": b.up.period_seconds},
        "down_window_seconds": b.down_window_seconds,
        "down": {
            "type": b.down.type,
            "value": b.down.value,
            "periodSeconds": b.down.period_seconds,
        },
    }
    if scaler.queue is not None:
        q = scaler.queue
        queue: dict[str, object] = {
            "address": q.address if q.address_ref is None else raw(q.address_ref),
            "query": q.query,
            "threshold": q.threshold,
        }
        if q.metadata:
            queue["metadata"] = dict(q.metadata)
        if q.auth_provider is not None:
            queue["auth_provider"] = q.auth_provider
        if q.identity_owner is not None:
            queue["identity_owner"] = q.identity_owner
        if q.identity_ref is not None:
            queue["identity_id"] = raw(q.identity_ref)
        args["prometheus"] = queue
    if scaler.scrape is not None:
        scrape = scaler.scrape
        where: dict[str, object] = {
            "selector": dict(scrape.selector),
            "port": scrape.port,
            "path": scrape.path,
            "interval": scrape.interval,
        }
        if scrape.monitor == "gmp":
            args["scrape"] = where
        else:
            args["pod_monitor"] = {"api_version": scrape.api_version, **where}
    return args


def _door(door: InterceptorDoor) -> dict[str, object]:
    return {
        "namespace": door.namespace,
        "selector": dict(door.selector),
        "target_port": door.target_port,
        "annotations": dict(door.annotations),
    }


@dataclass(frozen=True)
class ModuleCall:
    """A module call the serving root writes beside a model server: its label and arguments."""

    module: str
    args: dict[str, object]
    source: str = ""
    """The module's name, where the template does not name it itself."""


@dataclass(frozen=True)
class ServerView:
    """One workload on one cluster as the serving root writes it (what the template reads)."""

    workload: str
    cluster: str
    primary: bool
    role_text: str
    module: str
    zero_module: str
    alias: str
    args: dict[str, object]
    """The model-server module's arguments (``var.failover_floor`` may bound its replicas)."""
    zero: dict[str, object] | None
    """The scale-to-zero module's arguments; None without an autoscaler."""
    scale_reason: str
    source: str
    """Where the weights come from; empty when they are in the image."""
    rollout_reason: str
    startup_reason: str
    requests_reason: str
    reader: ModuleCall | None
    """Read access to the weights, where the cloud grants it with a module of its own."""
    door: dict[str, object] | None = None
    """The placement's front-door module call (a weighted DNS record); None without one."""


def server_view(plan: ServingPlan, reader: ModuleCall | None = None) -> ServerView:
    """One workload on one cluster as the serving root writes it."""
    return ServerView(
        workload=plan.name,
        cluster=plan.cluster,
        primary=plan.primary,
        role_text=ROLE_TEXT[plan.role],
        module=module_label("serve", plan.name, plan.cluster),
        zero_module=module_label("zero", plan.name, plan.cluster),
        alias=provider_alias(plan.cluster),
        args=model_server_args(plan),
        zero=scaler_args(plan),
        scale_reason=plan.scaler.explain() if plan.scaler is not None else "",
        source=plan.weights.source if plan.weights.mode != "image" else "",
        rollout_reason=plan.rollout.reason,
        startup_reason=plan.startup.explain(),
        requests_reason=plan.requests_reason,
        reader=reader,
    )
