"""Multi-host model servers: a replica that is a group of pods, one per node."""

from __future__ import annotations

from pydantic import Field

from gpuplat.spec.model.base import SpecModel


class MultiHost(SpecModel):
    """A replica served by several nodes at once (a LeaderWorkerSet group)."""

    nodes: int = Field(
        ge=2,
        le=64,
        description="Nodes (pods) per replica: a group of this many pods, one per node, each "
        "with `gpus` GPUs, started and restarted together.",
    )
    tensor_parallel: int | None = Field(
        None,
        ge=1,
        description="Tensor-parallel size (vLLM --tensor-parallel-size, SGLang --tp). Default: "
        "`gpus` (tensor parallelism inside a node, pipeline parallelism across nodes).",
    )
    pipeline_parallel: int | None = Field(
        None,
        ge=1,
        description="Pipeline-parallel size (vLLM --pipeline-parallel-size, SGLang "
        "--pp-size). Default: `nodes`. tensor_parallel x pipeline_parallel must be the group's "
        "GPUs (nodes x gpus).",
    )
    topology: bool | None = Field(
        None,
        description="Place each group by the cloud's network topology (Kueue's topology-aware "
        "scheduling: a group's nodes as close together as the fabric allows). true: required, "
        "refused where the pool's nodes carry no topology labels (AKS pools without "
        "InfiniBand, EKS instance types without EC2 topology, GKE pools without GPUDirect), "
        "where the pool keeps fewer nodes up (min_nodes) than its groups and a surge group "
        "need, or Kueue is off; false: never; default: wherever Kueue is on, the nodes carry "
        "the labels and stand.",
    )

    def sizes(self, gpus: int) -> tuple[int, int]:
        """(tensor, pipeline) parallel sizes of a group whose pods take ``gpus`` GPUs each."""
        tensor = self.tensor_parallel
        pipeline = self.pipeline_parallel
        if tensor is None and pipeline is None:
            return gpus, self.nodes
        if tensor is None:
            assert pipeline is not None
            return max(self.nodes * gpus // pipeline, 1), pipeline
        if pipeline is None:
            return tensor, max(self.nodes * gpus // tensor, 1)
        return tensor, pipeline
