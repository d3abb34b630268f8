"""A multi-host replica: a LeaderWorkerSet group of pods, one per node, launched together.

The objects follow kubernetes-sigs/lws v0.10.0: the controller labels every pod with the set's
name, its group index and its worker index (api/leaderworkerset/v1/leaderworkerset_types.go) and
puts ``LWS_LEADER_ADDRESS``, ``LWS_GROUP_SIZE`` and ``LWS_WORKER_INDEX`` first in every
container's environment (pkg/utils/pod/pod_utils.go, AddLWSVariables), so ``$(VAR)`` in a
command expands to them. The launch commands follow the project's vLLM (Ray) and SGLang
examples (docs/examples/vllm/GPU/lws.yaml, docs/examples/sglang/lws.yaml).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Literal

from gpuplat.spec.model import Workload
from gpuplat.targets.fabric import Sidecar
from gpuplat.workload.quantity import memory_mib, memory_text

API_VERSION = "leaderworkerset.x-k8s.io/v1"
KIND = "LeaderWorkerSet"
WORKER_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/worker-index"
"""0 on the leader: the Service sends traffic to the leaders only."""
RESTART_POLICY = "RecreateGroupOnPodRestart"
"""A group that lost one pod is useless (its tensors are split over all of them): restart it all."""
STARTUP_POLICY = "LeaderCreated"
"""Workers are created with the leader, not after it is ready (LeaderReady): a vLLM or SGLang
leader answers its health check only once every worker has joined and the weights are loaded,
so under LeaderReady the leader would wait for workers that wait for it (pod_controller.go
creates the workers' StatefulSet only once the leader pod is Ready)."""
RAY_PORT = 6379
SGLANG_DIST_PORT = 20000
Launcher = Literal["ray", "sglang"]


@dataclass(frozen=True)
class GroupPlan:
    """What the LeaderWorkerSet of one multi-host workload says, beside the pod template."""

    size: int
    tensor_parallel: int
    pipeline_parallel: int
    launcher: Launcher
    leader_command: tuple[str, ...]
    worker_command: tuple[str, ...]
    max_surge: int
    """Groups a rollout may add above the count (each takes ``size`` whole nodes)."""
    max_unavailable: int
    """Groups a rollout may take down at once."""
    leader_selector: dict[str, str]
    """The Service's selector: the workload's pods that are leaders."""
    capabilities: tuple[str, ...] = ()
    """Linux capabilities the server container adds to talk over the group's fabric (AKS
    InfiniBand: IPC_LOCK); every other capability stays dropped."""
    sidecar: Sidecar | None = None
    """A daemon beside the server in every pod of the group (GKE TCPXO: RxDM)."""


def launcher_of(server: str | None) -> Launcher | None:
    """How a server runs across nodes: vLLM over a Ray cluster, SGLang with its own launcher."""
    return {"vllm": "ray", "sglang": "sglang"}.get(server or "")  # type: ignore[return-value]


def plan_group(
    workload: Workload,
    server: str | None,
    model_path: str,
    args: tuple[str, ...],
    selector: dict[str, str],
    rollout: tuple[int, int],
    *,
    prelude: str = "",
) -> GroupPlan | None:
    """The group of a multi-host workload (None for one pod per replica).

    ``prelude`` is a shell line every pod of the group runs before its launcher (a fabric's
    environment script, which must reach the processes that run NCCL: the Ray nodes, or
    SGLang's ranks).

    ``args`` are the spec's arguments with ``{model_path}`` replaced: they are appended to the
    server's command on the leader (and, for SGLang, on every worker, which runs the same
    launcher). ``rollout`` is (max surge, max unavailable) in groups.
    """
    multi = workload.multi_host
    launcher = launcher_of(server)
    if multi is None or launcher is None:
        return None
    tensor, pipeline = multi.sizes(workload.gpus)
    port = str(workload.port)
    if launcher == "ray":
        serve = [
            "vllm", "serve", model_path, "--host", "0.0.0.0", "--port", port,
            "--tensor-parallel-size", str(tensor), "--pipeline-parallel-size", str(pipeline),
            "--distributed-executor-backend", "ray", *args,
        ]  # fmt: skip
        # The head waits until every worker's Ray node has joined: vLLM places its GPU workers
        # on the Ray cluster as it finds it when it starts.
        alive = (
            "import ray; ray.init(address='auto', logging_level='ERROR'); "
            "raise SystemExit(sum(n['Alive'] for n in ray.nodes()) < int('$LWS_GROUP_SIZE'))"
        )
        leader: tuple[str, ...] = (
            "sh",
            "-c",
            f"ray start --head --port={RAY_PORT} && "
            f'until python3 -c "{alive}"; do sleep 5; done && '
            f"exec {shlex.join(serve)}",
        )
        worker: tuple[str, ...] = (
            "ray", "start", f"--address=$(LWS_LEADER_ADDRESS):{RAY_PORT}", "--block",
        )  # fmt: skip
    else:
        common = [
            "python3", "-m", "sglang.launch_server", "--model-path", model_path,
            "--tp", str(tensor),
            *(["--pp-size", str(pipeline)] if pipeline > 1 else []),
            "--dist-init-addr", f"$(LWS_LEADER_ADDRESS):{SGLANG_DIST_PORT}",
            "--nnodes", "$(LWS_GROUP_SIZE)", "--node-rank", "$(LWS_WORKER_INDEX)", *args,
        ]  # fmt: skip
        leader = (*common, "--host", "0.0.0.0", "--port", port)
        worker = tuple(common)
    if prelude:
        leader = _after(prelude, leader)
        worker = _after(prelude, worker)
    return GroupPlan(
        size=multi.nodes,
        tensor_parallel=tensor,
        pipeline_parallel=pipeline,
        launcher=launcher,
        leader_command=leader,
        worker_command=worker,
        max_surge=rollout[0],
        max_unavailable=rollout[1],
        leader_selector={**selector, WORKER_INDEX_LABEL: "0"},
    )


def _after(prelude: str, command: tuple[str, ...]) -> tuple[str, ...]:
    """``command`` run by a shell after ``prelude``. The kubelet expands ``$(LWS_...)`` in the
    text before the shell reads it, as it did in the command's own words."""
    if command[:2] == ("sh", "-c"):
        return ("sh", "-c", f"{prelude} && {command[2]}")
    return ("sh", "-c", f"{prelude} && exec {shlex.join(command)}")


def memory_beside(memory: str, devices: dict[str, str], *, explicit: bool) -> str:
    """The server's memory request beside a group's hugepages: the kubelet takes pre-allocated
    hugepages out of the node's allocatable memory, so a request sized to the node's share
    gives them back (an explicit request is the spec's own, checked as written)."""
    huge = sum(memory_mib(v) or 0 for k, v in devices.items() if k.startswith("hugepages-"))
    mib = memory_mib(memory)
    if explicit or not huge or mib is None:
        return memory
    return memory_text(int(mib - huge))


def hugepages_note(devices: dict[str, str]) -> str:
    """What the requests comment adds when a group's pods take hugepages."""
    huge = {k: v for k, v in devices.items() if k.startswith("hugepages-")}
    if not huge:
        return ""
    said = ", ".join(f"{v} of {k}" for k, v in sorted(huge.items()))
    return f"; the fabric's {said} come out of that memory (the kubelet counts them apart)"
