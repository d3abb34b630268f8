"""A model server's GPU memory fraction against a replica's share of a time-sliced GPU.

vLLM reads ``--gpu-memory-utilization`` as a fraction of the whole device it sees, and
time-slicing hands every replica on a GPU the whole device (vllm-project/vllm#20305; the
startup check of PR #9505 compares it with the free memory): with 4 replicas a GPU at the
default 0.90, the first replica takes 90% and the others stop at start, crash-looping. The same
holds for SGLang's ``--mem-fraction-static`` and Text Generation Inference's
``--cuda-memory-fraction`` (or ``CUDA_MEMORY_FRACTION``), each a fraction of the whole device.

MIG instances are devices of their own (the fraction is of the instance); MPS is left alone:
NVIDIA's device plugin caps each MPS client's pinned memory, which the server then sees.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from gpuplat.spec.checks import signals
from gpuplat.spec.diagnostics import Diagnostic, KeyPath
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import NodePool, Workload

CONTEXT_GB = 0.5
"""GPU memory each CUDA process holds outside the server's fraction (its context), so the
fractions of a GPU's replicas plus their contexts must fit the GPU."""


@dataclass(frozen=True)
class MemoryFlag:
    """How a model server is told its GPU memory, as a fraction of the whole device."""

    title: str
    flag: str
    env: str | None
    default: float | None
    """The fraction the server takes when the flag is not given; None: it decides at start."""


FLAGS: dict[str, MemoryFlag] = {
    "vllm": MemoryFlag("vLLM", "--gpu-memory-utilization", None, 0.9),
    "sglang": MemoryFlag("SGLang", "--mem-fraction-static", None, None),
    "tgi": MemoryFlag(
        "Text Generation Inference", "--cuda-memory-fraction", "CUDA_MEMORY_FRACTION", 1.0
    ),
}
"""By the catalog's server names (``catalog/data/servers.yaml``); Triton sizes no fraction."""


def memory_flag(workload: Workload) -> MemoryFlag | None:
    """How the workload's server (named in the spec, else recognised from its image) is told
    its memory fraction; None when it is unknown or takes none."""
    found = signals.server_of(workload)
    return FLAGS.get(found.name) if found is not None else None


def check(
    workload: Workload,
    pool: NodePool,
    pool_at: KeyPath,
    where: str,
    gpu_memory_gb: float | None,
    base: KeyPath,
    loc: Locator,
) -> Iterator[Diagnostic]:
    """The server's memory fraction fits a replica's share of a time-sliced GPU of ``pool``
    (written at ``pool_at``).

    ``workload`` is the workload as it runs on the pool's cluster (its placement's args); the
    problem is located at the argument (or the environment value) that sets the fraction, or
    at the image when the server's default applies.
    """
    sharing = pool.sharing
    found = memory_flag(workload)
    if found is None or sharing.mode != "time-slicing" or not sharing.max_clients:
        return
    clients = sharing.max_clients
    share = 1 / clients
    value, path, said = _fraction(workload, found, base)
    if value is None or value <= share:
        return
    if path is None:
        path, said = (*base, "image"), f"{found.title}'s default {found.flag} {value:g}"
    fit = _fitting(clients, gpu_memory_gb)
    yield loc.error(
        path,
        f"{said} is a fraction of the whole GPU; on {where} {clients} replicas take turns "
        f"on each GPU, so each has 1/{clients} = {share:.2f} of its memory: the first replica "
        "on a GPU takes the rest, and the others stop at start (crash loop)",
        f"set {found.flag}={fit:.2f} or lower (1/{clients} less {CONTEXT_GB:g} GB of CUDA "
        "context per replica), or lower the pool's sharing.max_clients",
        related=[((*pool_at, "sharing", "max_clients"), "the pool's max_clients")],
    )


def _fraction(
    workload: Workload, found: MemoryFlag, base: KeyPath
) -> tuple[float | None, KeyPath | None, str]:
    """The fraction the server is given, where it is written, and how to say it."""
    args = workload.args
    for k, arg in enumerate(args):
        text: str | None = None
        if arg.startswith(found.flag + "="):
            text = arg.split("=", 1)[1]
        elif arg == found.flag and k + 1 < len(args):
            text, k = args[k + 1], k + 1
        if text is not None:
            value = _number(text)
            return value, (*base, "args", k), f"{found.flag} {text}"
    if found.env is not None and isinstance(workload.env.get(found.env), str):
        text = str(workload.env[found.env])
        return _number(text), (*base, "env", found.env), f"{found.env}={text}"
    return found.default, None, ""


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _fitting(clients: int, gpu_memory_gb: float | None) -> float:
    """The largest fraction (two decimals, rounded down) that ``clients`` replicas and their
    CUDA contexts fit in one GPU."""
    margin = CONTEXT_GB / gpu_memory_gb if gpu_memory_gb else 0.01
    return math.floor((1 / clients - margin) * 100) / 100
