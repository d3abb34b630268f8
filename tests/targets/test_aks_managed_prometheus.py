"""AKS with ``addons.metrics.prometheus: managed``: Azure Monitor managed Prometheus.

The infra stage turns on the cluster's ama-metrics add-on (monitor_metrics), creates an Azure
Monitor workspace with the data collection endpoint, rule and association Azure's own Terraform
template uses, and a user-assigned identity for KEDA's operator, federated with its service
account and holding Monitoring Data Reader on the workspace alone. The serving stage puts an
``azmonitoring.coreos.com`` PodMonitor beside the ScaledObject and signs the query with
``podIdentity: azure-workload`` and that identity's client id; the platform stage labels KEDA's
operator for the workload identity webhook.

What runs here: real terraform plans the infra root through the azurerm schema stand-in, which
holds every block to the azurerm 4.79.0 schema and the provider rules gpuplat extracts; the
conformance command checks the rendered roots; the PodMonitor and TriggerAuthentication pass
their vendored CRDs. No Azure subscription: nothing is applied.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplat import crds
from tests.support.aksplan import plan_infra
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import project

MANAGED = (("    dcgm_exporter: true\n", "    dcgm_exporter: true\n    prometheus: managed\n"),)
CLUSTER = "inference-eus"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("azmp"), MANAGED, example="aks-a100-vllm")
    done = run("render", "--manifests", root / "k8s", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert run("render", cwd=root).exit_code == 0
    return root


def test_the_infra_stage_connects_the_add_on_and_creates_keda_identity(rendered: Path) -> None:
    calls = modules(rendered / "envs" / "prod" / CLUSTER / "infra" / "main.tf")
    assert calls[f"cluster_{CLUSTER}"]["managed_prometheus"] is True
    amp = calls[f"metrics_{CLUSTER}"]
    assert str(amp["source"]).endswith("modules/aks-managed-prometheus/1.0.0")
    assert amp["keda"] == {"namespace": "keda", "service_account": "keda-operator"}
    assert amp["location"] == "eastus"
    outputs = (rendered / "envs" / "prod" / CLUSTER / "infra" / "outputs.tf").read_text()
    assert f"keda_client_id           = module.metrics_{CLUSTER}.keda_client_id" in outputs
    platform = modules(rendered / "envs" / "prod" / CLUSTER / "platform" / "main.tf")
    (args,) = platform.values()
    assert args["keda"]["azure_workload_identity"] is True  # type: ignore[index]


def test_keda_queries_as_its_workload_identity_and_ama_metrics_scrapes_the_pods(
    rendered: Path,
) -> None:
    folder = rendered / "k8s" / "prod" / CLUSTER / "serving"
    keda = list(yaml.safe_load_all((folder / "chat.keda.yaml").read_text()))
    main = list(yaml.safe_load_all((folder / "chat.yaml").read_text()))
    auth = next(d for d in keda if d["kind"] == "TriggerAuthentication")
    assert auth["spec"]["podIdentity"]["provider"] == "azure-workload"
    assert auth["spec"]["podIdentity"]["identityId"].startswith("<client id of KEDA's identity")
    monitor = next(d for d in keda if d["kind"] == "PodMonitor")
    assert monitor["apiVersion"] == "azmonitoring.coreos.com/v1"
    deployment = next(d for d in main if d["kind"] == "Deployment")
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert monitor["spec"]["selector"]["matchLabels"] == selector
    (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
    ports = deployment["spec"]["template"]["spec"]["containers"][0]["ports"]
    assert endpoint["port"] in [p["name"] for p in ports]
    for obj in (auth, monitor, next(d for d in keda if d["kind"] == "ScaledObject")):
        assert crds.check_object(obj, crds.Result(), keda + main) == []
    serving = (rendered / "envs" / "prod" / CLUSTER / "serving" / "main.tf").read_text()
    assert f'identity_id   = local.clusters["{CLUSTER}"].keda_client_id' in serving
    assert f'address       = local.clusters["{CLUSTER}"].prometheus_query_address' in serving


def test_conformance_of_the_rendered_roots(rendered: Path) -> None:
    result = run("conformance", "envs", "modules", cwd=rendered)
    assert result.exit_code == 0, result.stdout + result.stderr


@pytest.mark.terraform
def test_the_infra_root_plans_through_the_azurerm_stand_in(rendered: Path) -> None:
    planned = plan_infra(rendered / "envs" / "prod" / CLUSTER / "infra")
    cluster = planned[f"module.cluster_{CLUSTER}.azurerm_kubernetes_cluster.this"]
    assert cluster["monitor_metrics"] == [{"annotations_allowed": None, "labels_allowed": None}]
    module = f"module.metrics_{CLUSTER}"
    role = planned[f"{module}.azurerm_role_assignment.keda"]
    assert role["role_definition_name"] == "Monitoring Data Reader"
    credential = planned[f"{module}.azurerm_federated_identity_credential.keda"]
    assert credential["subject"] == "system:serviceaccount:keda:keda-operator"
    assert credential["audience"] == ["api://AzureADTokenExchange"]
    rule = planned[f"{module}.azurerm_monitor_data_collection_rule.this"]
    (sources,) = rule["data_sources"]  # type: ignore[misc]
    assert sources["prometheus_forwarder"][0]["streams"] == ["Microsoft-PrometheusMetrics"]
    assert f"{module}.azurerm_monitor_data_collection_rule_association.this" in planned
    assert planned[f"{module}.azurerm_monitor_workspace.this"]["location"] == "eastus"
