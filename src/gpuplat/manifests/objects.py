"""Plain Kubernetes YAML of the serving workloads and add-on configs, for review and GitOps.

Built from the same plans as the Terraform module arguments (workload/plan.py, addons.py), so
the YAML and the Terraform say the same thing. Objects are plain dicts dumped by PyYAML's safe
dumper: spec text can never become YAML structure.
"""

from __future__ import annotations

from collections.abc import Iterable

import yaml

from gpuplat.addons import AddonsPlan, plan_addons
from gpuplat.labels import POOL_LABEL
from gpuplat.render.serving import HTTP_INTERCEPTOR, HTTP_SCALER, serving_plans
from gpuplat.spec.load import EnvSpec
from gpuplat.workload.serving import GPU_RESOURCE, ServingPlan

Obj = dict[str, object]
MARKER = ".gpuplat-manifests"
"""A manifests folder gpuplat wrote; only such folders are ever replaced."""


def dump(objects: Iterable[Obj]) -> str:
    """Several objects as one multi-document YAML text."""
    docs = [
        yaml.safe_dump(o, sort_keys=False, default_flow_style=False, width=1000, allow_unicode=True)
        for o in objects
    ]
    return "---\n" + "---\n".join(docs)


def _meta(name: str, namespace: str | None, labels: dict[str, str]) -> Obj:
    meta: Obj = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    meta["labels"] = dict(labels)
    return meta


def _probe(plan: ServingPlan, period: int, failures: int, timeout: int) -> Obj:
    return {
        "httpGet": {"path": plan.health_path, "port": "http"},
        "periodSeconds": period,
        "failureThreshold": failures,
        "timeoutSeconds": timeout,
    }


def _pod(plan: ServingPlan) -> Obj:
    gpu = {} if plan.dra else {GPU_RESOURCE: str(plan.gpu_count)}
    requests: Obj = {"cpu": plan.cpu, "memory": plan.memory, **gpu}
    if plan.ephemeral_storage is not None:
        requests["ephemeral-storage"] = plan.ephemeral_storage
    resources: Obj = {"requests": requests, "limits": {"memory": plan.memory, **gpu}}
    if plan.dra:
        resources["claims"] = [{"name": "gpu"}]
    mounts: list[Obj] = []
    volumes: list[Obj] = []
    weights = plan.weights
    if weights.mode != "image":
        mounts.append({"name": "weights", "mountPath": weights.mount_path, "readOnly": True})
    if weights.mode == "copy":
        volumes.append({"name": "weights", "emptyDir": {"sizeLimit": weights.size_limit}})
    elif weights.mode == "gcsfuse":
        volumes.append(
            {
                "name": "weights",
                "csi": {
                    "driver": "gcsfuse.csi.storage.gke.io",
                    "readOnly": True,
                    "volumeAttributes": {
                        "bucketName": weights.bucket,
                        "mountOptions": weights.mount_options,
                    },
                },
            }
        )
    mounts.append({"name": "dshm", "mountPath": "/dev/shm"})
    volumes.append(
        {
            "name": "dshm",
            "emptyDir": {"medium": "Memory", "sizeLimit": "8Gi" if plan.gpu_count > 1 else "1Gi"},
        }
    )
    container: Obj = {
        "name": "server",
        "image": plan.image,
        **({"command": list(plan.command)} if plan.command else {}),
        **({"args": list(plan.args)} if plan.args else {}),
        "ports": [{"name": "http", "containerPort": plan.port}],
        **({"env": [{"name": k, "value": v} for k, v in plan.env.items()]} if plan.env else {}),
        "resources": resources,
        "startupProbe": _probe(
            plan, plan.startup.period_seconds, plan.startup.failure_threshold, 5
        ),
        "readinessProbe": _probe(plan, 5, 3, 5),
        "livenessProbe": _probe(plan, 10, 6, 10),
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
        "automountServiceAccountToken": weights.mode == "gcsfuse",
        "priorityClassName": plan.priority_class,
        "terminationGracePeriodSeconds": plan.grace_seconds,
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "affinity": {"nodeAffinity": _node_affinity(plan)},
        "tolerations": [dict(t) for t in plan.tolerations],
    }
    if weights.mode == "copy":
        pod["initContainers"] = [
            {
                "name": "fetch-weights",
                "image": weights.init_image,
                "command": list(weights.init_command),
                "resources": {
                    "requests": {"cpu": "1", "memory": "2Gi"},
                    "limits": {"memory": "4Gi"},
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
                        {"key": POOL_LABEL, "operator": "In", "values": list(plan.pools)}
                    ]
                }
            ]
        }
    }
    if len(plan.pools) > 1:
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {
                "weight": max(1, 100 - 10 * i),
                "preference": {
                    "matchExpressions": [{"key": POOL_LABEL, "operator": "In", "values": [pool]}]
                },
            }
            for i, pool in enumerate(plan.pools)
        ]
    return affinity


def serving_objects(plan: ServingPlan) -> list[Obj]:
    """Built-in Kubernetes objects of one workload on one cluster."""
    labels, ns = plan.labels, plan.namespace
    selector = {"gpuplat.dev/workload": plan.name}
    annotations = (
        {
            "gke-gcsfuse/volumes": "true",
            "gke-gcsfuse/cpu-limit": "0",
            "gke-gcsfuse/memory-limit": "0",
            "gke-gcsfuse/ephemeral-storage-limit": "0",
        }
        if plan.weights.mode == "gcsfuse"
        else {}
    )
    template_meta: Obj = {"labels": dict(labels)}
    if annotations:
        template_meta["annotations"] = annotations
    objects: list[Obj] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": _meta(ns, None, labels)},
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": _meta(plan.name, ns, labels),
            "automountServiceAccountToken": False,
        },
        {
            "apiVersion": "scheduling.k8s.io/v1",
            "kind": "PriorityClass",
            "metadata": _meta(plan.priority_class, None, labels),
            "value": plan.priority_value,
            "preemptionPolicy": "PreemptLowerPriority",
            "description": f"Priority of model server {plan.name} (managed by gpuplat).",
        },
    ]
    if plan.dra:
        objects.append(
            {
                "apiVersion": "resource.k8s.io/v1",
                "kind": "ResourceClaimTemplate",
                "metadata": _meta(f"{plan.name}-gpu", ns, labels),
                "spec": {
                    "spec": {
                        "devices": {
                            "requests": [
                                {
                                    "name": "gpu",
                                    "exactly": {
                                        "deviceClassName": "gpu.nvidia.com",
                                        "count": plan.gpu_count,
                                    },
                                }
                            ]
                        }
                    }
                },
            }
        )
    objects += [
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": _meta(plan.name, ns, labels),
            "spec": {
                "replicas": plan.replicas_initial,
                "progressDeadlineSeconds": plan.startup.probe_allows_seconds + 600,
                "revisionHistoryLimit": 5,
                "selector": {"matchLabels": selector},
                "strategy": {
                    "type": "RollingUpdate",
                    "rollingUpdate": {
                        "maxSurge": plan.rollout.max_surge,
                        "maxUnavailable": plan.rollout.max_unavailable,
                    },
                },
                "template": {"metadata": template_meta, "spec": _pod(plan)},
            },
        },
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": _meta(plan.name, ns, labels),
            "spec": {
                "type": "ClusterIP",
                "selector": selector,
                "ports": [{"name": "http", "port": plan.port, "targetPort": "http"}],
            },
        },
        {
            "apiVersion": "policy/v1",
            "kind": "PodDisruptionBudget",
            "metadata": _meta(plan.name, ns, labels),
            "spec": {"maxUnavailable": 1, "selector": {"matchLabels": selector}},
        },
    ]
    if plan.autoscale == "hpa" and plan.metric is not None:
        objects.append(_hpa(plan))
    if plan.autoscale == "keda":
        host, _, port = HTTP_INTERCEPTOR.partition(":")
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": _meta(f"{plan.name}-front", ns, labels),
                "spec": {
                    "type": "ExternalName",
                    "externalName": host,
                    "ports": [{"name": "http", "port": int(port)}],
                },
            }
        )
    return objects


def _hpa(plan: ServingPlan) -> Obj:
    return {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": _meta(plan.name, plan.namespace, plan.labels),
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": plan.name},
            "minReplicas": max(plan.replicas_min, 1),
            "maxReplicas": plan.replicas_max,
            "metrics": [
                {
                    "type": "Pods",
                    "pods": {
                        "metric": {"name": plan.metric},
                        "target": {"type": "AverageValue", "averageValue": f"{plan.target:g}"},
                    },
                }
            ],
            "behavior": {
                "scaleDown": {
                    "stabilizationWindowSeconds": 600,
                    "selectPolicy": "Min",
                    "policies": [{"type": "Pods", "value": 1, "periodSeconds": 300}],
                }
            },
        },
    }


def keda_objects(plan: ServingPlan) -> list[Obj]:
    """KEDA custom resources of a scale-to-zero workload (no built-in schema validates them)."""
    ns = plan.namespace
    front = f"{plan.name}-front"
    hosts = [front, f"{front}.{ns}", f"{front}.{ns}.svc", f"{front}.{ns}.svc.cluster.local"]
    triggers: list[Obj] = [
        {
            "type": "external-push",
            "metadata": {"scalerAddress": HTTP_SCALER, "httpScaledObject": plan.name},
        }
    ]
    if plan.prometheus_address and plan.metric:
        triggers.append(
            {
                "type": "prometheus",
                "metadata": {
                    "serverAddress": plan.prometheus_address,
                    "query": f'sum({plan.metric}{{namespace="{ns}"}})',
                    "threshold": f"{plan.target:g}",
                },
            }
        )
    meta = _meta(plan.name, ns, plan.labels)
    meta["annotations"] = {"httpscaledobject.keda.sh/skip-scaledobject-creation": "true"}
    return [
        {
            "apiVersion": "http.keda.sh/v1alpha1",
            "kind": "HTTPScaledObject",
            "metadata": meta,
            "spec": {
                "hosts": hosts,
                "scaleTargetRef": {
                    "name": plan.name,
                    "kind": "Deployment",
                    "apiVersion": "apps/v1",
                    "service": plan.name,
                    "port": plan.port,
                },
                "replicas": {"min": 0, "max": max(plan.replicas_max, 1)},
                "scaledownPeriod": 600,
                "scalingMetric": {"concurrency": {"targetValue": 4}},
            },
        },
        {
            "apiVersion": "keda.sh/v1alpha1",
            "kind": "ScaledObject",
            "metadata": _meta(f"{plan.name}-scaler", ns, plan.labels),
            "spec": {
                "scaleTargetRef": {"name": plan.name},
                "minReplicaCount": 0,
                "maxReplicaCount": max(plan.replicas_max, 1),
                "cooldownPeriod": 600,
                "pollingInterval": 15,
                "triggers": triggers,
            },
        },
    ]


def addon_objects(plan: AddonsPlan) -> list[Obj]:
    """The device plugin's sharing configs as a ConfigMap (for GitOps installs of the chart)."""
    if not plan.sharing:
        return []
    flags = {"migStrategy": plan.mig_strategy or "none"}
    data = {"default": yaml.safe_dump({"version": "v1", "flags": flags}, sort_keys=True)}
    for s in plan.sharing:
        key = "mps" if s.mode == "mps" else "timeSlicing"
        config = {
            "version": "v1",
            "flags": flags,
            "sharing": {key: {"resources": [{"name": GPU_RESOURCE, "replicas": s.replicas}]}},
        }
        data[s.name] = yaml.safe_dump(config, sort_keys=True)
    namespace = "gpu-operator" if plan.device_plugin == "gpu-operator" else "nvidia-device-plugin"
    labels = {"app.kubernetes.io/managed-by": "gpuplat"}
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": _meta(namespace, None, labels)},
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": _meta("gpuplat-device-plugin-config", namespace, labels),
            "data": data,
        },
    ]


def build_manifests(env: EnvSpec) -> dict[str, str]:
    """``{relative path: YAML}`` for one environment: ``<env>/<cluster>/{serving,platform}/...``."""
    files: dict[str, str] = {}
    for plan in serving_plans(env):
        base = f"{env.name}/{plan.cluster}"
        files[f"{base}/serving/{plan.name}.yaml"] = dump(serving_objects(plan))
        if plan.autoscale == "keda":
            files[f"{base}/serving/{plan.name}.keda.yaml"] = dump(keda_objects(plan))
    for cluster in env.spec.clusters:
        objects = addon_objects(plan_addons(env.spec, cluster))
        if objects:
            files[f"{env.name}/{cluster.name}/platform/device-plugin-config.yaml"] = dump(objects)
    return dict(sorted(files.items()))
