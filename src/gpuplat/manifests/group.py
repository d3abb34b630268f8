"""The LeaderWorkerSet of a multi-host model server, in Kubernetes' own shape.

Leader and workers run the same pod as a one-node server (manifests/pod.py: weights on every
node, the same requests, tolerations and affinity), each with its group role's command. Only the
leader serves HTTP, so only it has the port and the probes: it answers once every worker has
joined and the weights are loaded, so its startup probe is the whole group's.
"""

from __future__ import annotations

from copy import deepcopy

from gpuplat.manifests.pod import Obj, pod_spec
from gpuplat.targets.fabric import Sidecar
from gpuplat.workload.group import API_VERSION, KIND, RESTART_POLICY, STARTUP_POLICY, GroupPlan
from gpuplat.workload.queue import API_VERSION as KUEUE
from gpuplat.workload.queue import NAMESPACE_LABEL, QUEUE_LABEL, queue_of
from gpuplat.workload.serving import ServingPlan

LEADER_ONLY = ("ports", "startupProbe", "readinessProbe", "livenessProbe")


def _role(pod: Obj, group: GroupPlan, *, leader: bool) -> Obj:
    """``pod`` with its server container running its group role's command (and, on workers,
    no port or probes), adding the capabilities of the group's fabric."""
    command = group.leader_command if leader else group.worker_command
    containers = pod["containers"]
    assert isinstance(containers, list)
    server = {
        k: v
        for k, v in containers[0].items()
        if k not in ("command", "args") and (leader or k not in LEADER_ONLY)
    }
    if group.capabilities:
        security = server["securityContext"]
        assert isinstance(security, dict)
        capabilities = {**security["capabilities"], "add": list(group.capabilities)}
        server["securityContext"] = {**security, "capabilities": capabilities}
    out = {**pod, "containers": [{"name": server.pop("name"), "command": list(command), **server}]}
    if group.sidecar is not None:
        _add_sidecar(out, group.sidecar)
    return out


def _add_sidecar(pod: Obj, sidecar: Sidecar) -> None:
    """``sidecar`` as the pod's last init container that keeps running (a native sidecar: it
    starts before the server and stops after it; with a startup probe, the server starts once
    the probe has passed), with its node directories as volumes."""
    check = sidecar.startup
    container: Obj = {
        "name": sidecar.name,
        "image": sidecar.image,
        "restartPolicy": "Always",
        "command": list(sidecar.command),
        **(
            {"env": [{"name": k, "value": sidecar.env[k]} for k in sorted(sidecar.env)]}
            if sidecar.env
            else {}
        ),
        **(
            {
                "startupProbe": {
                    "exec": {"command": list(check.command)},
                    "initialDelaySeconds": check.initial_delay_seconds,
                    "periodSeconds": check.period_seconds,
                    "timeoutSeconds": check.timeout_seconds,
                    "failureThreshold": check.failure_threshold,
                }
            }
            if check is not None
            else {}
        ),
        **(
            {"securityContext": {"capabilities": {"add": list(sidecar.capabilities)}}}
            if sidecar.capabilities
            else {}
        ),
        "volumeMounts": [
            {"name": m.name, "mountPath": m.mount_path, "readOnly": m.read_only}
            for m in sidecar.mounts
        ],
    }
    inits = pod.get("initContainers", [])
    assert isinstance(inits, list)
    pod["initContainers"] = [*inits, container]
    volumes = pod.get("volumes", [])
    assert isinstance(volumes, list)
    pod["volumes"] = [
        *volumes,
        *({"name": m.name, "hostPath": {"path": m.host_path}} for m in sidecar.mounts),
    ]


def group_object(plan: ServingPlan, group: GroupPlan, meta: Obj, template_meta: Obj) -> Obj:
    """The LeaderWorkerSet of ``plan`` (whose group is ``group``)."""
    pod = pod_spec(plan)
    queue = queue_of(plan)
    if queue is not None:
        meta = {**meta, "labels": {**meta["labels"], QUEUE_LABEL: queue.local_queue}}  # type: ignore[dict-item]
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": meta,
        "spec": {
            # KEDA owns an autoscaled set's count of groups (its scale subresource).
            **({} if plan.scaler is not None else {"replicas": plan.replicas_initial}),
            "startupPolicy": STARTUP_POLICY,
            "rolloutStrategy": {
                "type": "RollingUpdate",
                "rollingUpdateConfiguration": {
                    "maxSurge": group.max_surge,
                    "maxUnavailable": group.max_unavailable,
                },
            },
            "leaderWorkerTemplate": {
                "size": group.size,
                "restartPolicy": RESTART_POLICY,
                # Copies: the YAML dumper would write shared objects as anchors and aliases.
                "leaderTemplate": {
                    "metadata": deepcopy(template_meta),
                    "spec": deepcopy(_role(pod, group, leader=True)),
                },
                "workerTemplate": {
                    "metadata": deepcopy(template_meta),
                    "spec": deepcopy(_role(pod, group, leader=False)),
                },
            },
        },
    }


def queue_objects(plan: ServingPlan, labels: dict[str, str]) -> list[Obj]:
    """Kueue's objects of a multi-host workload: a ResourceFlavor of its pool, a ClusterQueue
    for its namespace alone covering every resource its groups request, and the LocalQueue its
    LeaderWorkerSet names (none without Kueue)."""
    queue = queue_of(plan)
    if queue is None:
        return []
    resources = [{"name": r, "nominalQuota": q} for r, q in queue.quotas.items()]
    flavor: Obj = {"nodeLabels": dict(queue.node_labels)}
    topology: list[Obj] = []
    if queue.topology:
        flavor["topologyName"] = queue.topology_name
        topology.append(
            {
                "apiVersion": KUEUE,
                "kind": "Topology",
                "metadata": {"name": queue.topology_name, "labels": dict(labels)},
                "spec": {"levels": [{"nodeLabel": level} for level in queue.topology]},
            }
        )
    return [
        *topology,
        {
            "apiVersion": KUEUE,
            "kind": "ResourceFlavor",
            "metadata": {"name": queue.flavor_name, "labels": dict(labels)},
            "spec": flavor,
        },
        {
            "apiVersion": KUEUE,
            "kind": "ClusterQueue",
            "metadata": {"name": queue.cluster_queue, "labels": dict(labels)},
            "spec": {
                "namespaceSelector": {"matchLabels": {NAMESPACE_LABEL: queue.namespace}},
                "resourceGroups": [
                    {
                        "coveredResources": list(queue.quotas),
                        "flavors": [{"name": queue.flavor_name, "resources": resources}],
                    }
                ],
            },
        },
        {
            "apiVersion": KUEUE,
            "kind": "LocalQueue",
            "metadata": {
                "name": queue.local_queue,
                "namespace": queue.namespace,
                "labels": dict(labels),
            },
            "spec": {"clusterQueue": queue.cluster_queue},
        },
    ]
