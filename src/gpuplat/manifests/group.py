"""The LeaderWorkerSet of a multi-host model server, in Kubernetes' own shape.

Leader and workers run the same pod as a one-node server (manifests/pod.py: weights on every
node, the same requests, tolerations and affinity), each with its group role's command. Only the
leader serves HTTP, so only it has the port and the probes: it answers once every worker has
joined and the weights are loaded, so its startup probe is the whole group's.
"""

from __future__ import annotations

from copy import deepcopy

from gpuplat.manifests.pod import Obj, pod_spec
from gpuplat.workload.group import API_VERSION, KIND, RESTART_POLICY, STARTUP_POLICY, GroupPlan
from gpuplat.workload.serving import ServingPlan

LEADER_ONLY = ("ports", "startupProbe", "readinessProbe", "livenessProbe")


def _role(pod: Obj, command: tuple[str, ...], *, leader: bool) -> Obj:
    """``pod`` with its server container running ``command`` (and, on workers, no port or
    probes)."""
    containers = pod["containers"]
    assert isinstance(containers, list)
    server = {
        k: v
        for k, v in containers[0].items()
        if k not in ("command", "args") and (leader or k not in LEADER_ONLY)
    }
    return {**pod, "containers": [{"name": server.pop("name"), "command": list(command), **server}]}


def group_object(plan: ServingPlan, group: GroupPlan, meta: Obj, template_meta: Obj) -> Obj:
    """The LeaderWorkerSet of ``plan`` (whose group is ``group``)."""
    pod = pod_spec(plan)
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": meta,
        "spec": {
            "replicas": plan.replicas_initial,
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
                    "spec": deepcopy(_role(pod, group.leader_command, leader=True)),
                },
                "workerTemplate": {
                    "metadata": deepcopy(template_meta),
                    "spec": deepcopy(_role(pod, group.worker_command, leader=False)),
                },
            },
        },
    }
