"""A server's GPU memory fraction above a replica's share of a time-sliced GPU is refused, at the
argument that sets it, per placement.

The gke-l4-vllm example shares each L4 (24 GB) between 2 replicas at 0.45 (valid). vLLM reads
the fraction of the whole device (vllm#20305): 0.9 with two replicas on a GPU leaves the second
no memory. What an emulator cannot show: the second replica's start failing on a real L4; the
check is the arithmetic vLLM's startup does (requested = fraction x total <= free).
"""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run
from tests.support.specs import project

ARG = "      - --gpu-memory-utilization=0.45\n"


def _validate(tmp_path: Path, *patches: tuple[str, str]) -> str:
    folder = project(tmp_path, patches)
    result = run("validate", "--strict", cwd=folder)
    return f"{result.exit_code}\n{result.stderr}"


def test_the_shipped_fraction_under_the_share_is_valid(tmp_path: Path) -> None:
    assert _validate(tmp_path).startswith("0\n")


def test_a_fraction_above_the_share_is_refused_at_the_argument(tmp_path: Path) -> None:
    out = _validate(tmp_path, (ARG, "      - --gpu-memory-utilization=0.9\n"))
    assert out.startswith("4\n"), out
    assert (
        "Error: --gpu-memory-utilization 0.9 is a fraction of the whole GPU; on pool "
        '"l4-shared" in cluster "inference-us" 2 replicas take turns on each GPU, so each has '
        "1/2 = 0.50 of its memory" in out
    )
    assert "gpuplat.yaml:50:9  workloads[0].args[3]" in out
    # (0.5 - 0.5 GB / 24 GB) rounded down: 0.47.
    assert "Hint: set --gpu-memory-utilization=0.47 or lower" in out
    assert "clusters[0].node_pools[0].sharing.max_clients" in out  # the related value


def test_the_flag_and_its_value_as_two_arguments(tmp_path: Path) -> None:
    out = _validate(tmp_path, (ARG, "      - --gpu-memory-utilization\n      - '0.6'\n"))
    assert "Error: --gpu-memory-utilization 0.6 is a fraction of the whole GPU" in out
    assert "workloads[0].args[4]" in out


def test_the_servers_default_counts_when_the_flag_is_left_out(tmp_path: Path) -> None:
    out = _validate(tmp_path, (ARG, ""))
    assert "Error: vLLM's default --gpu-memory-utilization 0.9 is a fraction" in out
    assert "workloads[0].image" in out


def test_a_placements_own_args_are_checked_where_written(tmp_path: Path) -> None:
    placement = (
        "    clusters: [inference-us]\n",
        "    clusters: [inference-us]\n"
        "    placements:\n"
        "      inference-us:\n"
        "        args:\n"
        "          - --model={model_path}\n"
        "          - --gpu-memory-utilization=0.8\n",
    )
    out = _validate(tmp_path, placement)
    assert "Error: --gpu-memory-utilization 0.8 is a fraction of the whole GPU" in out
    assert "workloads[0].placements.inference-us.args[1]" in out
    assert "workloads[0].args[3]" not in out  # the base args are not what runs there


def test_text_generation_inference_by_its_environment_value(tmp_path: Path) -> None:
    out = _validate(
        tmp_path,
        (
            "    image: vllm/vllm-openai:v0.11.0\n",
            "    image: ghcr.io/huggingface/text-generation-inference:3.3.4\n    env:\n      CUDA_MEMORY_FRACTION: '0.7'\n",
        ),
        (ARG, ""),
    )
    assert "Error: CUDA_MEMORY_FRACTION=0.7 is a fraction of the whole GPU" in out
    assert "workloads[0].env.CUDA_MEMORY_FRACTION" in out
