"""Placement roles and per-cluster overrides, as the serving plan renders them.

One workload on three clusters (active, warm standby, cold standby) with an HPA metric, and the
same with scale_to_zero (KEDA): the Deployment's count, the HPA's bounds and KEDA's bounds must
say the same thing for each role (spec/roles.py has the table).
"""

from __future__ import annotations

from pathlib import Path

from gpuplat.render.serving import model_server_args, server_view
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.support.cli import run

CLUSTER = """  - name: {name}
    cloud: eks
    region: us-east-1
    zones: [us-east-1a, us-east-1b]
    network:
      vpc_cidr: 10.40.0.0/16
    node_pools:
      - name: l4
        machine_type: {machine}
        autoscaling:
          min_nodes: 0
          max_nodes: 4
"""
SPEC = """version: 1
project: demo
clusters:
{clusters}workloads:
  - name: chat
    image: vllm/vllm-openai:v0.11.0
    args: [--gpu-memory-utilization=0.90]
    model:
      source: s3://models/llama
      size_gb: 6
    pool: l4
    replicas: {{min: 1, max: 4}}
{scaling}    clusters: [us, eu, asia]
    placements:
      eu:
        role: {eu_role}
{eu_extra}      asia:
        args: [--gpu-memory-utilization=0.80]
        image: vllm/vllm-openai:v0.11.1
        gpus: 2
        replicas: {{min: 1, max: 2}}
environments:
  - name: dev
"""
HPA = (
    "    autoscaling:\n      metric: vllm:num_requests_waiting\n      target: 4\n"
    "      prometheus_address: http://prometheus.monitoring:9090\n"
)
KEDA = HPA + "    scale_to_zero: true\n"


def plans(tmp_path: Path, scaling: str, eu_role: str, eu_extra: str = "") -> dict[str, ServingPlan]:
    clusters = "".join(
        CLUSTER.format(name=n, machine=m)
        for n, m in (("us", "g6.xlarge"), ("eu", "g6.xlarge"), ("asia", "g6.12xlarge"))
    )
    text = SPEC.format(clusters=clusters, scaling=scaling, eu_role=eu_role, eu_extra=eu_extra)
    if "scale_to_zero" in scaling:
        text = text.replace("{min: 1,", "{min: 0,")  # KEDA takes the workload to zero
    (tmp_path / "gpuplat.yaml").write_text(text, encoding="utf-8")
    checked = run("validate", cwd=tmp_path)
    assert checked.exit_code == 0, checked.stderr
    env = load_project(tmp_path).envs["dev"]
    return {p.cluster: p for p in serving_plans(env)}


def bounds(plan: ServingPlan) -> tuple[str, int, int, tuple[int, int] | None, int | None]:
    """Role, Deployment bounds, the queue trigger's bounds, and the HTTP (0..max) trigger's max."""
    scaler = plan.scaler
    queue = (scaler.min_replicas, scaler.max_replicas) if scaler and not scaler.http else None
    zero = scaler.max_replicas if scaler and scaler.http else None
    return plan.role, plan.replicas_min, plan.replicas_max, queue, zero


def test_hpa_roles_active_warm_cold(tmp_path: Path) -> None:
    by = plans(tmp_path, HPA, "warm", "        warm_replicas: 2\n")
    # active: min..max on the queue (KEDA); warm: warm_replicas..max on the queue; the default role
    # of a later cluster is cold: 0 replicas and no scaler (only scale_to_zero starts from 0).
    assert bounds(by["us"]) == ("active", 1, 4, (1, 4), None)
    assert bounds(by["eu"]) == ("warm", 2, 4, (2, 4), None)
    assert bounds(by["asia"]) == ("cold", 0, 0, None, None)
    args = model_server_args(by["eu"])
    assert args["replicas"] == {"min": 2, "max": 4}
    zero = server_view(by["eu"]).zero
    assert zero["replicas"] == {"min": 2, "max": 4}  # type: ignore[index]
    assert "warm standby" in server_view(by["eu"]).role_text


def test_keda_roles_active_and_cold(tmp_path: Path) -> None:
    by = plans(tmp_path, KEDA, "cold")
    # With scale_to_zero KEDA owns the count on every cluster: 0..max, a cold standby too (it
    # starts on its first request); no HPA is rendered next to KEDA.
    assert bounds(by["us"]) == ("active", 0, 4, None, 4)
    assert bounds(by["eu"]) == ("cold", 0, 4, None, 4)
    assert bounds(by["asia"]) == ("cold", 0, 2, None, 2)


def test_overrides_change_only_their_cluster(tmp_path: Path) -> None:
    by = plans(tmp_path, HPA, "active")
    assert by["us"].args == by["eu"].args == ("--gpu-memory-utilization=0.90",)
    assert by["asia"].args == ("--gpu-memory-utilization=0.80",)
    assert (by["us"].image, by["asia"].image) == (
        "vllm/vllm-openai:v0.11.0",
        "vllm/vllm-openai:v0.11.1",
    )
    assert (by["us"].gpu_count, by["asia"].gpu_count) == (1, 2)
    assert by["asia"].requests["nvidia.com/gpu"] == "2"
    # Two active placements: both serve (a front door spreads traffic over them).
    assert [p.role for p in by.values()] == ["active", "active", "cold"]
