"""Plain manifests: valid Kubernetes 1.34 (strict), deterministic, and written safely."""

from __future__ import annotations

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from gpuplat import crds
from gpuplat.app.init import list_examples
from gpuplat.app.render import refuse_invalid_custom_resources
from gpuplat.errors import GpuplatError
from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import (
    DRA_CLUSTER_PATCH,
    GKE_LADDER_PATCH,
    OPERATOR_PATCH,
    POD_PATCH,
    project,
)

EXAMPLES = [name for name, _ in list_examples()]
CUSTOM_KINDS = {
    "HTTPScaledObject",
    "ScaledObject",
    "TriggerAuthentication",
    "PodMonitoring",
    "PodMonitor",
    "ComputeClass",
    "LeaderWorkerSet",
    "ResourceFlavor",
    "ClusterQueue",
    "LocalQueue",
    "Topology",
}


def render_manifests(folder: Path) -> Path:
    out = folder / "k8s"
    result = run("render", "--manifests", out, cwd=folder)
    assert result.exit_code == 0, result.stderr
    return out


def validate_tree(out: Path) -> tuple[int, list[str]]:
    validated = 0
    custom: list[str] = []
    for folder in sorted({p.parent for p in out.rglob("*.yaml")}):
        docs = [
            doc
            for path in sorted(folder.glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text(encoding="utf-8"))
        ]
        for doc in docs:
            if doc["kind"] in CUSTOM_KINDS:
                # kubernetes-validate has no schema for KEDA's or GKE's CRDs: gpuplat's vendored
                # CRDs and documented rules check them, with the folder's other objects.
                assert crds.check_object(doc, crds.Result(), docs) == []
                custom.append(doc["kind"])
                continue
            kubernetes_validate.validate(doc, "1.34.0", strict=True)
            validated += 1
    return validated, custom


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_manifests_validate_strict_1_34(example: str, tmp_path: Path) -> None:
    out = render_manifests(project(tmp_path, example=example))
    validated, custom = validate_tree(out)
    if example in ("gke-a3-mega", "gke-a3-ultra"):
        # A multi-host server: its pods are a LeaderWorkerSet's, admitted by Kueue objects
        # (checked against their CRDs); no Deployment, PodDisruptionBudget or scaler.
        assert validated >= 5
        assert sorted(set(custom)) == [
            "ClusterQueue",
            "LeaderWorkerSet",
            "LocalQueue",
            "ResourceFlavor",
            "Topology",
        ]
    else:
        assert validated >= 12


@pytest.mark.parametrize(
    ("name", "patches"),
    [("dra", DRA_CLUSTER_PATCH), ("operator", OPERATOR_PATCH), ("pod", POD_PATCH)],
)
def test_dra_and_operator_manifests_validate(
    name: str, patches: tuple[tuple[str, str], ...], tmp_path: Path
) -> None:
    out = render_manifests(project(tmp_path, patches))
    validated, _ = validate_tree(out)
    kinds = [d["kind"] for p in out.rglob("*.yaml") for d in yaml.safe_load_all(p.read_text())]
    if name == "dra":
        assert "ResourceClaimTemplate" in kinds
    elif name == "operator":
        assert "ConfigMap" in kinds
    else:
        text = (out / "prod/inference-us/serving/chat.yaml").read_text()
        assert "secretKeyRef:" in text and "configMapKeyRef:" in text
        assert "cost-center: ml-platform" in text
    assert validated > 0


def test_scale_to_zero_manifests(tmp_path: Path) -> None:
    out = render_manifests(project(tmp_path))
    keda = list(yaml.safe_load_all((out / "dev/inference-us/serving/chat.keda.yaml").read_text()))
    assert [d["kind"] for d in keda] == [
        "HTTPScaledObject",
        "TriggerAuthentication",
        "PodMonitoring",
        "ScaledObject",
    ]
    scaled = keda[3]["spec"]
    assert scaled["minReplicaCount"] == 0
    # Scale to zero and the queue compose in one ScaledObject: 0 -> 1 on the first request
    # (HTTP add-on), 1 -> N on the queue (Google Managed Prometheus, signed by Workload Identity).
    assert [t["type"] for t in scaled["triggers"]] == ["external-push", "prometheus"]
    queue = scaled["triggers"][1]
    assert queue["authenticationRef"] == {"name": keda[1]["metadata"]["name"]}
    assert keda[1]["spec"] == {"podIdentity": {"provider": "gcp"}}
    assert queue["metadata"]["query"] == 'sum(vllm:num_requests_waiting{namespace="chat"})'
    # The interceptor holds a request at zero for the Deployment's progress deadline:
    # node start 600 s + pull 240 s + copy 64 s (6.5 GB through the 200 GB pd-balanced boot
    # disk, 140 + 0.28 x 200 = 196 MiB/s shared by the 2 replicas a node starts) + the startup
    # probe's 660 s.
    assert keda[0]["spec"]["timeouts"] == {"conditionWait": f"{600 + 240 + 64 + 660}s"}
    route = keda[0]
    assert route["metadata"]["annotations"] == {
        "httpscaledobject.keda.sh/skip-scaledobject-creation": "true"
    }
    main = list(yaml.safe_load_all((out / "dev/inference-us/serving/chat.yaml").read_text()))
    # KEDA owns the count: a replicas field would be set back on every GitOps sync.
    deployment = next(d for d in main if d["kind"] == "Deployment")
    assert "replicas" not in deployment["spec"]
    front = [d for d in main if d["kind"] == "Service" and d["spec"]["type"] == "ExternalName"]
    assert front and front[0]["metadata"]["name"] == "chat-front"


def test_the_scrape_selects_exactly_the_serving_pods(tmp_path: Path) -> None:
    """The PodMonitoring (Google Managed Prometheus) beside the Deployment: its selector is the
    Deployment's, its port a named port of the server container, its path vLLM's /metrics."""
    out = render_manifests(project(tmp_path))
    folder = out / "prod/inference-us/serving"
    keda = list(yaml.safe_load_all((folder / "chat.keda.yaml").read_text()))
    main = list(yaml.safe_load_all((folder / "chat.yaml").read_text()))
    monitor = next(d for d in keda if d["kind"] == "PodMonitoring")
    deployment = next(d for d in main if d["kind"] == "Deployment")
    assert monitor["metadata"]["namespace"] == deployment["metadata"]["namespace"]
    selector = monitor["spec"]["selector"]["matchLabels"]
    assert selector == deployment["spec"]["selector"]["matchLabels"]
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= pod_labels.items()
    (endpoint,) = monitor["spec"]["endpoints"]
    server = deployment["spec"]["template"]["spec"]["containers"][0]
    assert endpoint["port"] in [p["name"] for p in server["ports"]]
    assert endpoint["path"] == "/metrics"
    # No scale-to-zero in prod: the ScaledObject has the queue trigger alone, 2..16.
    scaled = next(d for d in keda if d["kind"] == "ScaledObject")["spec"]
    assert [t["type"] for t in scaled["triggers"]] == ["prometheus"]
    assert (scaled["minReplicaCount"], scaled["maxReplicaCount"]) == (2, 16)
    assert not [d for d in main if d["kind"] == "HorizontalPodAutoscaler"]


def test_startup_probe_covers_the_estimate(tmp_path: Path) -> None:
    out = render_manifests(project(tmp_path))
    docs = list(yaml.safe_load_all((out / "prod/inference-us/serving/chat.yaml").read_text()))
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    server = deployment["spec"]["template"]["spec"]["containers"][0]
    probe = server["startupProbe"]
    # Probes start after the 4 min pull (and the copy); the 15 min budget leaves 660 s.
    assert probe["periodSeconds"] * probe["failureThreshold"] == 900 - 240
    # A new node (600 s) + pull 240 s + copy of 6.5 GB at the boot disk's 196 MiB/s shared by
    # 2 replicas (64 s: 102.8 MB/s, slower than 400 MB/s) + the probe's 660 s.
    assert deployment["spec"]["progressDeadlineSeconds"] == 600 + 240 + 64 + 660
    assert (
        server["livenessProbe"]["failureThreshold"] * server["livenessProbe"]["periodSeconds"] == 60
    )
    assert (
        server["resources"]["requests"]["nvidia.com/gpu"]
        == server["resources"]["limits"]["nvidia.com/gpu"]
        == "1"
    )
    assert deployment["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": 0, "maxUnavailable": 1}


def test_manifests_are_deterministic_and_rewrite_nothing(tmp_path: Path) -> None:
    folder = project(tmp_path)
    out = render_manifests(folder)
    before = {p: (p.stat().st_ino, p.read_bytes()) for p in out.rglob("*") if p.is_file()}
    result = run("render", "--manifests", out, cwd=folder)
    assert "manifest file(s)" not in result.stderr
    assert {p: (p.stat().st_ino, p.read_bytes()) for p in out.rglob("*") if p.is_file()} == before


def test_manifests_never_replace_a_foreign_folder(tmp_path: Path) -> None:
    folder = project(tmp_path)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    result = run("render", "--manifests", foreign, cwd=folder)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {foreign} exists and was not written by gpuplat\n")
    assert (foreign / "notes.txt").read_text() == "keep me"


def test_ladder_manifests_validate_and_carry_the_platform_roots_compute_class(
    tmp_path: Path,
) -> None:
    folder = project(tmp_path, GKE_LADDER_PATCH)
    out = render_manifests(folder)
    _, custom = validate_tree(out)
    assert "ComputeClass" in custom
    docs = [d for p in sorted(out.rglob("*.yaml")) for d in yaml.safe_load_all(p.read_text())]
    quota = next(d for d in docs if d["kind"] == "ResourceQuota")
    assert quota["spec"]["hard"] == {"requests.nvidia.com/gpu": "4"}  # validated strict above
    pod = next(d for d in docs if d["kind"] == "Deployment")["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {"cloud.google.com/compute-class": "gpuplat-l4-shared"}
    # The plain ComputeClass is the platform root's, field for field.
    assert run("render", cwd=folder).exit_code == 0
    root = folder / "envs" / "dev" / "inference-us" / "platform" / "main.tf"
    module = next(iter(modules(root).values()))
    cls = next(d for d in docs if d["kind"] == "ComputeClass")
    assert module["compute_classes"] == [cls]


def test_manifests_holding_a_refused_custom_resource_are_not_written(tmp_path: Path) -> None:
    """The check `render --manifests` runs before it writes: every finding at its line."""
    bad = (
        "apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata:\n  name: gpuplat-l4\n"
        "spec:\n  whenUnsatisfiable: DoNotScaleUp\n  priorities:\n"
        "  - nodepools: [l4-od]\n  - nodepools: [l4-spot]\n    spot: true\n"
    )
    files = {"dev/c/platform/compute-classes.yaml": bad}
    with pytest.raises(GpuplatError) as raised:
        refuse_invalid_custom_resources(tmp_path / "k8s", files)
    message = str(raised.value)
    assert "nothing was written" in message
    assert f"{tmp_path / 'k8s/dev/c/platform/compute-classes.yaml'}:9: ComputeClass/" in message
    assert "spec.priorities[1]: Nodepool field cannot be set along with other fields" in message
    assert not (tmp_path / "k8s").exists()
    refuse_invalid_custom_resources(
        tmp_path / "k8s", {"a.yaml": bad.replace("    spot: true\n", "")}
    )


def test_the_device_plugin_namespace_has_one_owner(tmp_path: Path) -> None:
    """The platform stage's Helm release creates ``nvidia-device-plugin``: the GitOps folder
    only adds its ConfigMap there, so ``prune: true`` on the folder can never delete the
    namespace (and the device plugin in it). kubernetes-validate cannot show a prune; the
    objects written are what Flux or Argo CD would prune."""
    out = render_manifests(project(tmp_path, example="eks-l4-vllm"))
    written = [
        (d["kind"], d["metadata"].get("namespace"), d["metadata"]["name"])
        for p in out.rglob("device-plugin-config.yaml")
        for d in yaml.safe_load_all(p.read_text())
    ]
    assert written, "the example shares its GPUs: a device plugin config is written"
    assert {kind for kind, _, _ in written} == {"ConfigMap"}
    assert {ns for _, ns, _ in written} == {"nvidia-device-plugin"}
