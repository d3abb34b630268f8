"""EKS with ``addons.metrics.prometheus: managed``: Amazon Managed Service for Prometheus.

The infra stage creates the workspace, an AWS managed collector whose scrape configuration keeps
exactly the serving pods, and the role KEDA's operator gets through EKS Pod Identity, allowed
``aps:QueryMetrics`` on that workspace and nothing else; the serving stage's prometheus trigger
carries ``awsRegion`` and a TriggerAuthentication with ``podIdentity: aws`` (identityOwner keda),
which KEDA's SigV4 round tripper signs with (kedacore/keda pkg/scalers/aws/aws_sigv4.go).

What runs here: real terraform with the real aws provider validates the rendered infra root;
on moto the workspace, the role and its policy are applied and read back, and the real
``promtool`` checks the collector's configuration (with each job's Kubernetes discovery swapped
for a static target: Debian's Prometheus build has no Kubernetes discovery). moto has no CreateScraper and no EKS Pod
Identity API, so the collector and the association are validated and planned, not applied.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from gpuplat import crds
from gpuplat.releases.versions import latest
from tests.eks.terraform import mirror_env, terraform, validate
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.moto import MotoServer, aws_env, aws_provider_block, moto_server
from tests.support.specs import project

pytestmark = pytest.mark.terraform

MANAGED = (("    dcgm_exporter: true\n", "    dcgm_exporter: true\n    prometheus: managed\n"),)
CLUSTER = "inference-use1"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("amp"), MANAGED, example="eks-l4-vllm")
    done = run("render", "--manifests", root / "k8s", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert run("render", cwd=root).exit_code == 0
    return root


def test_the_infra_stage_creates_the_workspace_collector_and_query_role(rendered: Path) -> None:
    calls = modules(rendered / "envs" / "prod" / CLUSTER / "infra" / "main.tf")
    amp = calls[f"metrics_{CLUSTER}"]
    assert str(amp["source"]).endswith("modules/eks-managed-prometheus/1.0.0")
    # The managed collector takes no interval under 30 s; it keeps the chat pods on their
    # named API port (vLLM serves /metrics there).
    assert amp["scrape_interval"] == "30s"
    assert amp["targets"] == [
        {
            "workload": "chat",
            "namespace": "chat",
            "label": "chat",
            "port": "http",
            "path": "/metrics",
        }
    ]
    assert amp["keda"] == {"namespace": "keda", "service_account": "keda-operator"}
    outputs = (rendered / "envs" / "prod" / CLUSTER / "infra" / "outputs.tf").read_text()
    assert f"prometheus_query_address = module.metrics_{CLUSTER}.query_address" in outputs


def test_keda_signs_the_query_with_its_pod_identity(rendered: Path) -> None:
    folder = rendered / "k8s" / "prod" / CLUSTER / "serving"
    keda = list(yaml.safe_load_all((folder / "chat.keda.yaml").read_text()))
    auth = next(d for d in keda if d["kind"] == "TriggerAuthentication")
    assert auth["spec"] == {"podIdentity": {"provider": "aws", "identityOwner": "keda"}}
    assert crds.check_object(auth, crds.Result(), keda) == []
    scaled = next(d for d in keda if d["kind"] == "ScaledObject")
    (queue,) = [t for t in scaled["spec"]["triggers"] if t["type"] == "prometheus"]
    assert queue["metadata"]["awsRegion"] == "us-east-1"
    assert queue["authenticationRef"] == {"name": auth["metadata"]["name"]}
    assert crds.check_object(scaled, crds.Result(), keda) == []
    # The collector is configured in the infra stage: nothing scrapes from the serving stage.
    assert not [d for d in keda if d["kind"] in ("PodMonitor", "PodMonitoring")]
    serving = (rendered / "envs" / "prod" / CLUSTER / "serving" / "main.tf").read_text()
    assert f'address        = local.clusters["{CLUSTER}"].prometheus_query_address' in serving


def test_the_infra_root_validates_with_the_real_aws_provider(
    rendered: Path, tmp_path: Path
) -> None:
    result = validate(rendered / "envs" / "prod" / CLUSTER / "infra", tmp_path)
    assert result.valid, result.diagnostics


ROOT = """\
module "amp" {{
  source = "{source}"

  name               = "inference-use1"
  cluster_arn        = "arn:aws:eks:us-east-1:123456789012:cluster/inference-use1"
  subnet_ids         = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
  security_group_ids = ["sg-0123456789abcdef0"]
  scrape_interval    = "30s"
  label_key          = "gpuplat.dev/workload"
  targets = [
    {{ workload = "chat", namespace = "chat", label = "chat", port = "http", path = "/metrics" }},
    {{ workload = "triton", namespace = "triton", label = "triton", port = "metrics", path = "/metrics" }},
  ]
  keda = {{ namespace = "keda", service_account = "keda-operator" }}
  tags = {{ managed-by = "gpuplat" }}
}}

output "query_address" {{
  value = module.amp.query_address
}}

output "scrape_configuration" {{
  value = module.amp.scrape_configuration
}}
"""


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with moto_server() as server:
        yield server


def test_on_moto_keda_may_query_its_workspace_and_nothing_else(
    moto: MotoServer, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    source = latest("eks-managed-prometheus").path
    (root / "main.tf").write_text(
        ROOT.format(source=source) + aws_provider_block(moto.endpoint, ("amp", "iam", "sts"))
    )
    env = {**mirror_env(tmp_path / "tf"), **aws_env()}
    env["TF_DATA_DIR"] = str(tmp_path / "data")
    assert terraform(["init", "-input=false", "-no-color"], root, env).returncode == 0
    plan = terraform(["plan", "-input=false", "-no-color", "-out=plan"], root, env)
    assert plan.returncode == 0, plan.stdout + plan.stderr
    # Everything is planned; what moto can create is applied (no CreateScraper, no Pod
    # Identity API in moto).
    for address in (
        "module.amp.aws_prometheus_scraper.this",
        "module.amp.aws_eks_pod_identity_association.keda",
    ):
        assert f"# {address} will be created" in plan.stdout
    planned = json.loads(terraform(["show", "-json", "plan"], root, env).stdout)
    check_scrape_configuration(
        planned["planned_values"]["outputs"]["scrape_configuration"]["value"], tmp_path
    )
    targets = [
        "-target=module.amp.aws_prometheus_workspace.this",
        "-target=module.amp.aws_iam_role_policy.keda",
    ]
    done = terraform(["apply", "-input=false", "-no-color", "-auto-approve", *targets], root, env)
    assert done.returncode == 0, done.stdout + done.stderr
    amp = moto.client("amp")
    (workspace,) = amp.list_workspaces()["workspaces"]
    assert workspace["alias"] == "inference-use1"
    iam = moto.client("iam")
    (role,) = [
        r for r in iam.list_roles()["Roles"] if r["RoleName"].startswith("inference-use1-keda-")
    ]
    trust = role["AssumeRolePolicyDocument"]
    assert trust["Statement"][0]["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    policy = iam.get_role_policy(RoleName=role["RoleName"], PolicyName="query-serving-metrics")
    (statement,) = policy["PolicyDocument"]["Statement"]
    assert statement["Action"] in (["aps:QueryMetrics"], "aps:QueryMetrics")
    assert statement["Resource"] == workspace["arn"]
    shown = terraform(["output", "-json"], root, env)
    outputs = json.loads(shown.stdout)
    described = amp.describe_workspace(workspaceId=workspace["workspaceId"])["workspace"]
    assert outputs["query_address"]["value"] == described["prometheusEndpoint"].rstrip("/")


def check_scrape_configuration(text: str, tmp_path: Path) -> None:
    """The real promtool accepts the collector's configuration, and each job keeps exactly its
    workload's pods on its named port and labels them with their namespace."""
    config = yaml.safe_load(text)
    assert config["global"] == {"scrape_interval": "30s"}
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    triton = jobs["triton"]
    assert triton["kubernetes_sd_configs"] == [{"role": "pod", "namespaces": {"names": ["triton"]}}]
    keep, namespace, _pod = triton["relabel_configs"]
    assert keep == {
        "action": "keep",
        "source_labels": [
            "__meta_kubernetes_pod_label_gpuplat_dev_workload",
            "__meta_kubernetes_pod_container_port_name",
        ],
        "regex": "triton;metrics",
    }
    assert namespace == {
        "source_labels": ["__meta_kubernetes_namespace"],
        "target_label": "namespace",
    }
    # Debian's Prometheus is built without Kubernetes service discovery, so promtool reads each
    # job with a static target carrying the pod's discovery labels in its place; the relabel
    # rules, paths and globals are checked as rendered.
    for job in config["scrape_configs"]:
        sd = job.pop("kubernetes_sd_configs")
        assert sd[0]["role"] == "pod"
        job["static_configs"] = [
            {
                "targets": ["10.0.0.1:8000"],
                "labels": {"__meta_kubernetes_namespace": sd[0]["namespaces"]["names"][0]},
            }
        ]
    path = tmp_path / "scrape.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    done = subprocess.run(
        ["promtool", "check", "config", "--syntax-only", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
