"""The model servers' scaling signals: typed, sourced, recognised from their images."""

from __future__ import annotations

import pytest

from gpuplat.catalog import sources
from gpuplat.catalog.servers import server, server_for_image, servers


@pytest.mark.parametrize(
    ("image", "name"),
    [
        ("vllm/vllm-openai:v0.11.0", "vllm"),
        ("docker.io/vllm/vllm-openai@sha256:" + "0" * 64, "vllm"),
        ("ghcr.io/huggingface/text-generation-inference:3.3.4", "tgi"),
        ("lmsysorg/sglang:v0.5.4-cu126", "sglang"),
        ("nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3", "triton"),
    ],
)
def test_server_from_image(image: str, name: str) -> None:
    found = server_for_image(image)
    assert found is not None and found.name == name


def test_unknown_image_is_no_server() -> None:
    assert server_for_image("registry.example.com/team/llm-server:1.2") is None
    assert server_for_image("example.com/not-vllm/vllm-openai-fork:1") is None


def test_every_server_has_a_queue_signal_with_known_sources() -> None:
    known = {s.id for s in sources()}
    for found in servers():
        queue = found.first("queue")
        assert queue is not None, found.name
        for signal in found.signals:
            assert set(signal.source) <= known


def test_signals_as_the_servers_publish_them() -> None:
    assert server("vllm").signal("vllm:num_requests_waiting") is not None
    assert server("tgi").signal("vllm:num_requests_waiting") is None
    assert server("triton").metrics_port == 8002
    assert server("vllm").metrics_port == "serving"
