"""The exact query gpuplat renders for KEDA's prometheus trigger, evaluated by a real Prometheus.

Two stand-ins for vLLM replicas serve ``/metrics`` in vLLM's own exposition format (a gauge per
engine, labelled by model name), and a third pod of another namespace serves the same gauge.
Debian's ``prometheus`` scrapes them with the labels a PodMonitoring (GMP) or PodMonitor
(prometheus-operator) attaches to a pod's series (``namespace``, ``pod``); the query read from
the rendered ScaledObject must sum exactly the workload's pods, and the replicas it asks for
follow. What no emulator here shows: KEDA's own polling, the HPA's stabilisation, and the
managed collectors' and query APIs' authentication (README: Autoscaling says what was read).
"""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from gpuplat.spec.load import load_project
from gpuplat.workload.scaling import replicas_for
from gpuplat.workload.serving import plan_workload
from tests.support.cli import run
from tests.support.realparts import prometheus_bin

VLLM_METRICS = """# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{{engine="0",model_name="chat"}} 16.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{{engine="0",model_name="chat"}} {waiting}
# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{{engine="0",model_name="chat"}} 0.93
"""
PODS = (("chat", "chat-7d9f-a", 7.0), ("chat", "chat-7d9f-b", 6.0), ("batch", "batch-1", 100.0))
"""(namespace, pod, requests waiting): two replicas of the workload, one pod of another."""


def _serve(waiting: float) -> ThreadingHTTPServer:
    body = VLLM_METRICS.format(waiting=waiting).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/metrics" else 404)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.end_headers()
            self.wfile.write(body if self.path == "/metrics" else b"")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _query(base: str, promql: str) -> list[dict[str, object]]:
    url = f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    with urllib.request.urlopen(url, timeout=5) as reply:
        data = json.load(reply)
    assert data["status"] == "success", data
    result = data["data"]["result"]
    assert isinstance(result, list)
    return result


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = prometheus_bin()
    tmp = tmp_path_factory.mktemp("prometheus")
    servers = [_serve(waiting) for _, _, waiting in PODS]
    targets = [
        {
            "targets": [f"127.0.0.1:{s.server_address[1]}"],
            "labels": {"namespace": namespace, "pod": pod, "container": "server"},
        }
        for s, (namespace, pod, _) in zip(servers, PODS, strict=True)
    ]
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "scrape_configs": [
            {"job_name": "podmonitoring", "metrics_path": "/metrics", "static_configs": targets}
        ],
    }
    (tmp / "prometheus.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [
            binary,
            f"--config.file={tmp / 'prometheus.yml'}",
            f"--storage.tsdb.path={tmp / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=(tmp / "prometheus.log").open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if len(_query(base, "up == 1")) == len(PODS):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                log = (tmp / "prometheus.log").read_text(encoding="utf-8")
                pytest.fail(f"prometheus did not scrape every target:\n{log[-2000:]}")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        for s in servers:
            s.shutdown()


def _rendered_trigger(tmp_path: Path) -> tuple[str, str, int, int]:
    """The query and threshold of the gke-l4-vllm example's prod ScaledObject, and its bounds."""
    assert run("init", "--example", "gke-l4-vllm", tmp_path).exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    plan = plan_workload(spec, spec.workloads[0], spec.clusters[0])
    scaler = plan.scaler
    assert scaler is not None and scaler.queue is not None
    return scaler.queue.query, scaler.queue.threshold, scaler.min_replicas, scaler.max_replicas


def _value(result: list[dict[str, object]]) -> float | None:
    if len(result) != 1:
        return None
    value = result[0]["value"]
    assert isinstance(value, list)
    return float(value[1])


def test_rendered_queue_query_sums_exactly_the_workloads_pods(
    prometheus: str, tmp_path: Path
) -> None:
    query, threshold, low, high = _rendered_trigger(tmp_path)
    total = _value(_query(prometheus, query))
    # 7 + 6 requests waiting on the two chat replicas; the batch pod's 100 are not chat's.
    assert total == 13.0
    # KEDA's prometheus trigger is an AverageValue target: ceil(13 / 4) = 4 replicas.
    assert replicas_for(total, float(threshold), low, high) == 4


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ('namespace="chats"', 'namespace="chat"'),  # a wrong label selector
        ("vllm:num_requests_waiting_total", "vllm:num_requests_waiting"),  # a wrong name
        ("tgi_queue_size", "vllm:num_requests_waiting"),  # another server's gauge
    ],
)
def test_a_wrong_selector_or_name_reads_nothing(
    prometheus: str, tmp_path: Path, wrong: str, right: str
) -> None:
    query, _, _, _ = _rendered_trigger(tmp_path)
    assert right in query
    assert _value(_query(prometheus, query.replace(right, wrong))) in (None, 0.0)
    assert _value(_query(prometheus, query.replace('{namespace="chat"}', ""))) == 113.0
