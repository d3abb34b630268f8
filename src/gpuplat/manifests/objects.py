"""Plain Kubernetes YAML of the serving workloads and add-on configs, for review and GitOps.

Built from the same plans as the Terraform module arguments (workload/serving.py, addons.py), so
the YAML and the Terraform say the same thing. Objects are plain dicts dumped by PyYAML's safe
dumper: spec text can never become YAML structure.
"""

from __future__ import annotations

from collections.abc import Iterable

import yaml

from gpuplat.addons import AddonsPlan, plan_addons
from gpuplat.manifests.fabric import nic_cluster_policy
from gpuplat.manifests.group import group_object, queue_objects
from gpuplat.manifests.pod import Obj, pod_spec
from gpuplat.spec.load import EnvSpec
from gpuplat.targets import target
from gpuplat.workload.blob import CLIENT_ID_ANNOTATION
from gpuplat.workload.scaling import Policy, Scaler
from gpuplat.workload.serving import GPU_RESOURCE, ServingPlan, serving_plans

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


def serving_objects(plan: ServingPlan) -> list[Obj]:
    """Built-in Kubernetes objects of one workload on one cluster."""
    labels, ns = plan.labels, plan.namespace
    template_meta: Obj = {"labels": dict(plan.pod_labels)}
    if plan.pod_annotations:
        template_meta["annotations"] = dict(plan.pod_annotations)
    account_meta = _meta(plan.name, ns, labels)
    reader = plan.weights.reader
    if reader is not None:
        # Azure assigns the client id when the infra stage creates the identity; the module
        # reads it from that stage's outputs, the manifests say where it goes.
        account_meta["annotations"] = {CLIENT_ID_ANNOTATION: reader.placeholder}
    objects: list[Obj] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": _meta(ns, None, labels)},
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": account_meta,
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
                                        "deviceClassName": plan.device_class,
                                        "count": plan.gpu_count,
                                    },
                                }
                            ]
                        }
                    }
                },
            }
        )
    server: Obj = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(plan.name, ns, labels),
        "spec": {
            **_replicas(plan),
            "progressDeadlineSeconds": plan.progress_deadline_seconds,
            "revisionHistoryLimit": plan.rollout.revision_history_limit,
            "selector": {"matchLabels": dict(plan.selector)},
            "strategy": _strategy(plan),
            "template": {"metadata": template_meta, "spec": pod_spec(plan)},
        },
    }
    if plan.group is not None:
        server = group_object(plan, plan.group, _meta(plan.name, ns, labels), template_meta)
    served = plan.group.leader_selector if plan.group is not None else plan.selector
    objects += [
        server,
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {
                **_meta(plan.name, ns, labels),
                **({"annotations": dict(plan.load_balancer)} if plan.load_balancer else {}),
            },
            "spec": {
                "type": "ClusterIP" if plan.load_balancer is None else "LoadBalancer",
                "selector": dict(served),
                "ports": [{"name": "http", "port": plan.port, "targetPort": "http"}],
            },
        },
        {
            "apiVersion": "policy/v1",
            "kind": "PodDisruptionBudget",
            "metadata": _meta(plan.name, ns, labels),
            "spec": {
                "maxUnavailable": plan.disruption_max_unavailable,
                "selector": {"matchLabels": dict(plan.selector)},
            },
        },
    ]
    objects += queue_objects(plan, labels)
    if plan.gpu_quota is not None:
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "ResourceQuota",
                "metadata": _meta(f"{plan.name}-gpus", ns, labels),
                "spec": {"hard": {"requests.nvidia.com/gpu": str(plan.gpu_quota)}},
            }
        )
    http = plan.scaler.http if plan.scaler is not None else None
    if http is not None:
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": _meta(http.front, ns, labels),
                "spec": {
                    "type": "ExternalName",
                    "externalName": http.interceptor_host,
                    "ports": [{"name": "http", "port": http.interceptor_port}],
                },
            }
        )
        if http.door is not None:
            meta = _meta(http.door.name, http.door.namespace, labels)
            meta["annotations"] = dict(http.door.annotations)
            port = {"name": "http", "port": http.interceptor_port}
            objects.append(
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "metadata": meta,
                    "spec": {
                        "type": "LoadBalancer",
                        "selector": dict(http.door.selector),
                        "ports": [{**port, "targetPort": http.door.target_port}],
                    },
                }
            )
    return objects


def keda_objects(plan: ServingPlan, scaler: Scaler) -> list[Obj]:
    """KEDA custom resources of an autoscaled workload (no built-in schema validates them)."""
    ns = plan.namespace
    triggers: list[Obj] = []
    out: list[Obj] = []
    http = scaler.http
    if http is not None:
        triggers.append(
            {
                "type": "external-push",
                "metadata": {"scalerAddress": http.http_scaler, "httpScaledObject": plan.name},
            }
        )
        meta = _meta(plan.name, ns, plan.labels)
        meta["annotations"] = {"httpscaledobject.keda.sh/skip-scaledobject-creation": "true"}
        out.append(
            {
                "apiVersion": "http.keda.sh/v1alpha1",
                "kind": "HTTPScaledObject",
                "metadata": meta,
                "spec": {
                    "hosts": list(http.hosts),
                    "scaleTargetRef": {
                        "name": plan.name,
                        "kind": "Deployment",
                        "apiVersion": "apps/v1",
                        "service": plan.name,
                        "port": plan.port,
                    },
                    "replicas": {"min": 0, "max": scaler.max_replicas},
                    "scaledownPeriod": scaler.cooldown_seconds,
                    "scalingMetric": {"concurrency": {"targetValue": http.target_pending_requests}},
                    "timeouts": {"conditionWait": f"{http.wait_seconds}s"},
                },
            }
        )
    queue = scaler.queue
    if queue is not None:
        trigger: Obj = {
            "type": "prometheus",
            "metadata": {
                "serverAddress": queue.address,
                "query": queue.query,
                "threshold": queue.threshold,
                **dict(queue.metadata),
            },
        }
        if queue.auth_provider is not None:
            auth = f"{plan.name}-prometheus"
            trigger["authenticationRef"] = {"name": auth}
            identity: Obj = {"provider": queue.auth_provider}
            if queue.identity_owner is not None:
                identity["identityOwner"] = queue.identity_owner
            if queue.identity_placeholder is not None:
                identity["identityId"] = queue.identity_placeholder
            out.append(
                {
                    "apiVersion": "keda.sh/v1alpha1",
                    "kind": "TriggerAuthentication",
                    "metadata": _meta(auth, ns, plan.labels),
                    "spec": {"podIdentity": identity},
                }
            )
        triggers.append(trigger)
    if scaler.scrape is not None:
        scrape = scaler.scrape
        out.append(
            {
                "apiVersion": scrape.api_version,
                "kind": scrape.kind,
                "metadata": _meta(plan.name, ns, plan.labels),
                "spec": {
                    "selector": {"matchLabels": dict(scrape.selector)},
                    scrape.endpoints_field: [
                        {"path": scrape.path, "interval": scrape.interval, "port": scrape.port}
                    ],
                },
            }
        )
    b = scaler.behavior
    out.append(
        {
            "apiVersion": "keda.sh/v1alpha1",
            "kind": "ScaledObject",
            "metadata": _meta(f"{plan.name}-scaler", ns, plan.labels),
            "spec": {
                "scaleTargetRef": _scale_target(plan.name, scaler.target),
                "minReplicaCount": scaler.min_replicas,
                "maxReplicaCount": scaler.max_replicas,
                "cooldownPeriod": scaler.cooldown_seconds,
                "pollingInterval": scaler.polling_interval_seconds,
                "advanced": {
                    "horizontalPodAutoscalerConfig": {
                        "behavior": {
                            "scaleUp": {
                                "stabilizationWindowSeconds": b.up_window_seconds,
                                "policies": [_policy(b.up)],
                            },
                            "scaleDown": {
                                "stabilizationWindowSeconds": b.down_window_seconds,
                                "policies": [_policy(b.down)],
                            },
                        }
                    }
                },
                "triggers": triggers,
            },
        }
    )
    return out


def _scale_target(name: str, target: tuple[str, str]) -> Obj:
    """KEDA's scaleTargetRef, kind named: the Deployment, or a LeaderWorkerSet (groups)."""
    return {"name": name, "apiVersion": target[0], "kind": target[1]}


def _policy(policy: Policy) -> Obj:
    return {"type": policy.type, "value": policy.value, "periodSeconds": policy.period_seconds}


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
    # No Namespace object: the platform stage's Helm release of the device plugin (or the GPU
    # operator) creates and owns it; declared here too, pruning this folder would delete the
    # namespace and the device plugin with it.
    return [
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
        if plan.scaler is not None:
            files[f"{base}/serving/{plan.name}.keda.yaml"] = dump(keda_objects(plan, plan.scaler))
    for cluster in env.spec.clusters:
        objects = addon_objects(plan_addons(env.spec, cluster))
        if objects:
            files[f"{env.name}/{cluster.name}/platform/device-plugin-config.yaml"] = dump(objects)
        # The fabric operator's configuration, as the serving stage applies it.
        cloud = target(cluster.cloud)
        graces = [p.grace_seconds for p in serving_plans(env, cluster.name)]
        fabric = cloud.fabric_policy(cluster, max(graces, default=0))
        if fabric is not None:
            files[f"{env.name}/{cluster.name}/serving/nic-cluster-policy.yaml"] = dump(
                [nic_cluster_policy(fabric)]
            )
        # The same objects the platform stage applies (one source: the target's ladders).
        ladders = target(cluster.cloud).ladder_platform(env.spec, cluster).manifests
        if ladders:
            files[f"{env.name}/{cluster.name}/platform/compute-classes.yaml"] = dump(ladders)
    return dict(sorted(files.items()))


def _replicas(plan: ServingPlan) -> dict[str, int]:
    """The Deployment's count, unless an HPA or a ScaledObject owns it: a GitOps controller
    would set it back on every sync (Flux) or show the app OutOfSync (Argo CD) as soon as the
    autoscaler moved it. The Terraform path leaves it to the autoscaler the same way."""
    if plan.scaler is not None:
        return {}
    return {"replicas": plan.replicas_initial}


def _strategy(plan: ServingPlan) -> Obj:
    """RollingUpdate with the plan's surge, or Recreate (which takes no rollingUpdate)."""
    if plan.rollout.strategy == "Recreate":
        return {"type": "Recreate"}
    return {
        "type": "RollingUpdate",
        "rollingUpdate": {
            "maxSurge": plan.rollout.max_surge,
            "maxUnavailable": plan.rollout.max_unavailable,
        },
    }
