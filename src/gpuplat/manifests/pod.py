"""The model server's pod template in Kubernetes' own shape, from the serving plan."""

from __future__ import annotations

from gpuplat.workload.health import Probe
from gpuplat.workload.serving import EnvVar, ServingPlan
from gpuplat.workload.weights import (
    FUSE_CACHE_VOLUME,
    FUSE_GROUP,
    GCSFUSE_DRIVER,
    WEIGHTS_VOLUME,
)

Obj = dict[str, object]


def _probe(plan: ServingPlan, probe: Probe) -> Obj:
    return {
        "httpGet": {"path": plan.probes.path, "port": "http"},
        "periodSeconds": probe.period_seconds,
        "failureThreshold": probe.failure_threshold,
        "timeoutSeconds": probe.timeout_seconds,
    }


def env_var(var: EnvVar) -> Obj:
    """One container environment entry: a value, or a Secret or ConfigMap key."""
    if var.ref is None:
        return {"name": var.name, "value": var.value}
    ref = var.ref
    source = "secretKeyRef" if ref.kind == "secret" else "configMapKeyRef"
    return {
        "name": var.name,
        "valueFrom": {source: {"name": ref.name, "key": ref.key, "optional": ref.optional}},
    }


def pod_spec(plan: ServingPlan) -> Obj:
    """The pod template spec of the model server."""
    resources: Obj = {"requests": dict(plan.requests), "limits": dict(plan.limits)}
    if plan.dra:
        resources["claims"] = [{"name": "gpu"}]
    mounts: list[Obj] = []
    volumes: list[Obj] = []
    weights = plan.weights
    if weights.mode != "image":
        mount: Obj = {"name": "weights", "mountPath": weights.mount_path, "readOnly": True}
        if weights.sub_path is not None:
            mount["subPath"] = weights.sub_path
        mounts.append(mount)
    if weights.mode == "copy":
        volumes.append({"name": WEIGHTS_VOLUME, "emptyDir": {"sizeLimit": weights.size_limit}})
    elif weights.mode == "gcsfuse":
        volumes.append(
            {
                "name": "weights",
                "csi": {
                    "driver": GCSFUSE_DRIVER,
                    "readOnly": True,
                    "volumeAttributes": {
                        "bucketName": weights.bucket,
                        "mountOptions": weights.mount_options,
                    },
                },
            }
        )
    elif weights.mode == "blobfuse":
        attributes = dict(weights.volume_attributes)
        if weights.reader is not None:
            attributes["clientID"] = weights.reader.placeholder
        volumes.append(
            {
                "name": "weights",
                "csi": {"driver": weights.driver, "readOnly": True, "volumeAttributes": attributes},
            }
        )
    if weights.cache_memory is not None:
        volumes.append(
            {
                "name": FUSE_CACHE_VOLUME,
                "emptyDir": {"medium": "Memory", "sizeLimit": weights.cache_memory},
            }
        )
    mounts.append({"name": "dshm", "mountPath": "/dev/shm"})
    volumes.append({"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": plan.shm_size}})
    for host in plan.host_mounts:
        mounts.append({"name": host.name, "mountPath": host.mount_path, "readOnly": host.read_only})
        volumes.append({"name": host.name, "hostPath": {"path": host.host_path}})
    container: Obj = {
        "name": "server",
        "image": plan.image,
        **({"command": list(plan.command)} if plan.command else {}),
        **({"args": list(plan.args)} if plan.args else {}),
        "ports": [
            {"name": "http", "containerPort": plan.port},
            *(
                [{"name": "metrics", "containerPort": plan.metrics_port}]
                if plan.metrics_port
                else []
            ),
        ],
        **({"env": [env_var(v) for v in plan.env]} if plan.env else {}),
        "resources": resources,
        "startupProbe": _probe(plan, plan.probes.startup),
        "readinessProbe": _probe(plan, plan.probes.readiness),
        "livenessProbe": _probe(plan, plan.probes.liveness),
        "lifecycle": {"preStop": {"exec": {"command": ["sleep", str(plan.pre_stop_seconds)]}}},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": False,
            "capabilities": {"drop": ["ALL"]},
        },
        "volumeMounts": mounts,
    }
    pod: Obj = {
        "serviceAccountName": plan.name,
        "automountServiceAccountToken": plan.automount_token,
        "priorityClassName": plan.priority_class,
        "terminationGracePeriodSeconds": plan.grace_seconds,
        "securityContext": {
            **({"fsGroup": FUSE_GROUP} if weights.cache_memory is not None else {}),
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "affinity": {"nodeAffinity": _node_affinity(plan)},
        "tolerations": [dict(t) for t in plan.tolerations],
    }
    if plan.node_selector:
        pod["nodeSelector"] = dict(plan.node_selector)
    if weights.has_init:
        pod["initContainers"] = [
            {
                "name": "fetch-weights",
                "image": weights.init_image,
                "command": list(weights.init_command),
                **(
                    {"env": [{"name": k, "value": v} for k, v in sorted(weights.init_env.items())]}
                    if weights.init_env
                    else {}
                ),
                "resources": {
                    "requests": dict(weights.init_requests),
                    "limits": dict(weights.init_limits),
                },
                "securityContext": {
                    "allowPrivilegeEscalation": False,
                    "capabilities": {"drop": ["ALL"]},
                },
                "volumeMounts": [{"name": "weights", "mountPath": weights.mount_path}],
            }
        ]
    if plan.dra:
        pod["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": f"{plan.name}-gpu"}]
    pod["containers"] = [container]
    pod["volumes"] = volumes
    return pod


def _node_affinity(plan: ServingPlan) -> Obj:
    affinity: Obj = {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {"key": plan.pool_label, "operator": "In", "values": list(plan.pools)}
                    ]
                }
            ]
        }
    }
    if plan.preferred:
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {
                "weight": p.weight,
                "preference": {
                    "matchExpressions": [
                        {"key": plan.pool_label, "operator": "In", "values": [p.pool]}
                    ]
                },
            }
            for p in plan.preferred
        ]
    return affinity
