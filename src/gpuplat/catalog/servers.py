"""Model servers and the scaling signals each exports: ``data/servers.yaml``.

A server is recognised from its image (or named in the spec); its signals are the Prometheus
gauges an autoscaler may follow. Each signal names its sources; a metric the server does not
export is refused by the spec checks, so a trigger never waits on a series that never comes.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from pydantic import model_validator

from gpuplat.catalog.files import CatalogDataError, parse, source_table
from gpuplat.catalog.model import AsOf, Record, Sources, Text

ServerName = Literal["vllm", "tgi", "sglang", "triton"]
"""The model servers gpuplat knows."""

SignalKind = Literal["queue", "running", "kv_cache"]
"""What a signal measures: requests waiting, requests being served, KV-cache use (0..1)."""


class Signal(Record):
    """One gauge a server exports that a replica count can follow."""

    metric: Text
    kind: SignalKind
    source: Sources
    as_of: AsOf
    note: Text | None = None


class Server(Record):
    """A model server: how to recognise it, where it serves metrics, what it exports."""

    name: ServerName
    images: tuple[Text, ...]
    metrics_port: int | Literal["serving"]
    """The port of /metrics: ``serving`` (the workload's own port) or a fixed number."""
    metrics_path: Text
    signals: tuple[Signal, ...]

    def signal(self, metric: str) -> Signal | None:
        """The signal named ``metric``, or None when the server does not export it."""
        return next((s for s in self.signals if s.metric == metric), None)

    def first(self, kind: SignalKind) -> Signal | None:
        """The server's first signal of a kind (its queue, say)."""
        return next((s for s in self.signals if s.kind == kind), None)


class ServersFile(Record):
    """``servers.yaml``."""

    servers: tuple[Server, ...]

    @model_validator(mode="after")
    def _unique(self) -> ServersFile:
        names = [s.name for s in self.servers]
        if len(set(names)) != len(names):
            raise ValueError("a server is listed twice")
        return self


@functools.cache
def _table() -> Mapping[str, Server]:
    data = parse("servers", ServersFile)
    known = source_table()[1]
    for server in data.servers:
        for signal in server.signals:
            for sid in signal.source:
                if sid not in known:
                    raise CatalogDataError(f"servers.yaml: {signal.metric}: unknown source {sid}")
    return MappingProxyType({s.name: s for s in data.servers})


def servers() -> tuple[Server, ...]:
    """Every server gpuplat knows, in catalog order."""
    return tuple(_table().values())


def server(name: str) -> Server:
    """The server called ``name`` (a name the spec model has already checked)."""
    return _table()[name]


def server_for_image(image: str) -> Server | None:
    """The server an image runs, from its repository (``vllm/vllm-openai:v0.11.0`` → vLLM)."""
    repository = image.split("@", 1)[0]
    last = repository.rsplit("/", 1)[-1]
    if ":" in last:
        repository = repository[: len(repository) - len(last)] + last.split(":", 1)[0]
    for found in _table().values():
        if any(repository == i or repository.endswith("/" + i) for i in found.images):
            return found
    return None


def server_of(name: str | None, image: str) -> Server | None:
    """The server named in the spec (``server:``), else the one its image runs, else None."""
    return server(name) if name is not None else server_for_image(image)
