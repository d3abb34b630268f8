"""Custom resources in rendered trees, checked against their CRDs by `gpuplat conformance`.

Mutation tests: a rendered GKE ladder (a ComputeClass in the platform root, KEDA objects in the
scale-to-zero module and its serving-root call) and its plain manifests pass as rendered; each
injected violation — a nodepools rule with machineType, a field the ScaledObject schema does not
have, a minReplicaCount above maxReplicaCount, a documented trigger rule broken — is found, at
the file and line that carries it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from gpuplat.conformance import CheckReport, Violation, check, load_schemas
from gpuplat.conformance.files import BUNDLED
from gpuplat.releases.versions import latest
from tests.support.cli import run
from tests.support.specs import GKE_LADDER_PATCH, project

FIXTURES = Path(__file__).parent / "fixtures"
PLATFORM = Path("envs/dev/inference-us/platform/main.tf")
SERVING = Path("envs/dev/inference-us/serving/main.tf")
ZERO = Path(f"modules/scale-to-zero/{latest('scale-to-zero').version}/main.tf")
CLASSES = Path("k8s/dev/inference-us/platform/compute-classes.yaml")
KEDA = Path("k8s/dev/inference-us/serving/chat.keda.yaml")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = project(tmp_path_factory.mktemp("crds"), GKE_LADDER_PATCH)
    assert run("render", cwd=folder).exit_code == 0
    done = run("render", "--manifests", folder / "k8s", cwd=folder)
    assert done.exit_code == 0, done.stderr
    return folder


def checked(root: Path) -> CheckReport:
    return check([root / "envs", root / "modules", root / "k8s"], load_schemas(BUNDLED))


def crd_violations(report: CheckReport) -> list[Violation]:
    return [v for v in report.violations if v.code.startswith("crd-")]


def mutated(rendered: Path, tmp_path: Path, file: Path, old: str, new: str) -> Path:
    root = tmp_path / "tree"
    for name in ("envs", "modules", "k8s"):
        shutil.copytree(rendered / name, root / name)
    text = (root / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (root / file).write_text(text.replace(old, new), encoding="utf-8")
    return root


def line_of(path: Path, pattern: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if re.search(pattern, line))


def test_the_rendered_tree_passes_and_every_kind_is_counted(rendered: Path) -> None:
    report = checked(rendered)
    assert crd_violations(report) == []
    kinds = {(kind, release) for kind, _, release in report.crds.tallies}
    # The model-server module holds the multi-host group's LeaderWorkerSet and its Kueue
    # objects (Topology too), and gpu-platform GKE's RDMA networks, as literal manifests:
    # checked with the module even where no workload uses them.
    assert {k for k, _ in kinds} == {
        "ClusterQueue",
        "ComputeClass",
        "GKENetworkParamSet",
        "HTTPScaledObject",
        "LeaderWorkerSet",
        "LocalQueue",
        "Network",
        "Topology",
        "PodMonitoring",
        "ResourceFlavor",
        "ScaledObject",
        "TriggerAuthentication",
    }
    assert ("ScaledObject", "documented") in kinds
    # The root's class and the manifest's class, each against the CRD its cluster's minor
    # (1.35, gpuplat.dev/kubernetes-minor) serves: the master CRD, not 1.33's or 1.34's.
    served = "GKE after 1.34 (no release branch yet)"
    assert {r for k, r in kinds if k == "ComputeClass"} == {served, "documented"}
    cc = report.crds.of("ComputeClass", "cloud.google.com/v1", served)
    assert cc.objects == 2 and cc.rules == 68 and cc.outcomes["passed"] > 0
    assert report.manifests == 3  # the YAML files of dev: compute classes, chat, chat.keda


def test_a_nodepools_rule_with_machine_type_in_the_platform_root(
    rendered: Path, tmp_path: Path
) -> None:
    spot = '            nodepools = ["l4-shared-spot"]\n'
    root = mutated(
        rendered, tmp_path, PLATFORM, spot, spot + '            machineType = "g2-standard-8"\n'
    )
    found = crd_violations(checked(root))
    rule = line_of(root / PLATFORM, r'nodepools = \["l4-shared-spot"\]') - 1
    assert {(v.file, v.line, v.code) for v in found} == {(root / PLATFORM, rule, "crd-rule")}
    assert len(found) == 1  # the CRD GKE 1.35 serves, the class's minor
    assert all(v.address == "module.platform_inference-us.compute_classes[0]" for v in found)
    assert "spec.priorities[3]: Nodepool field cannot be set along with other" in found[0].message


def test_a_nodepools_rule_with_machine_type_in_the_manifests(
    rendered: Path, tmp_path: Path
) -> None:
    spot = "  - nodepools:\n    - l4-shared-spot\n"
    root = mutated(rendered, tmp_path, CLASSES, spot, spot + "    machineType: g2-standard-8\n")
    found = crd_violations(checked(root))
    assert {(v.file, v.line, v.code) for v in found} == {
        (root / CLASSES, line_of(root / CLASSES, "- l4-shared-spot") - 1, "crd-rule")
    }
    assert found[0].address == "ComputeClass/gpuplat-l4-shared"


def test_a_field_the_scaled_object_schema_does_not_have(rendered: Path, tmp_path: Path) -> None:
    old = "      minReplicaCount = var.replicas.min\n"
    root = mutated(rendered, tmp_path, ZERO, old, old + "      replicas        = 2\n")
    found = crd_violations(checked(root))
    line = line_of(root / ZERO, "replicas        = 2")
    assert [(v.file, v.line, v.code) for v in found] == [(root / ZERO, line, "crd-schema")]
    assert found[0].address == "kubernetes_manifest.scaled_object"
    assert found[0].message.startswith("spec.replicas: unknown field replicas")


def test_a_min_replica_count_above_the_callers_max(rendered: Path, tmp_path: Path) -> None:
    """The module alone cannot tell (both counts are its variable); with the serving root's
    replicas = { min = 9, max = 4 } the CRD's CEL rule refuses it, reported at the call."""
    floor = '    min = min(4, max(0, lookup(var.failover_floor, "serve_chat_inference-us", 0)))\n'
    old = f"  replicas = {{\n    max = 4\n{floor}  }}\n  http = {{\n"
    root = mutated(rendered, tmp_path, SERVING, old, old.replace(floor, "    min = 9\n"))
    found = crd_violations(checked(root))
    call = line_of(root / SERVING, r'^module "zero_chat_inference-us"')
    assert [(v.file, v.line, v.code) for v in found] == [(root / SERVING, call, "crd-rule")]
    assert found[0].address == "module.zero_chat_inference-us (kubernetes_manifest.scaled_object)"
    assert "minReplicaCount must be less than or equal to maxReplicaCount" in found[0].message


def test_a_min_replica_count_above_the_max_in_the_manifests(rendered: Path, tmp_path: Path) -> None:
    root = mutated(rendered, tmp_path, KEDA, "  minReplicaCount: 0\n", "  minReplicaCount: 9\n")
    found = crd_violations(checked(root))
    lines = (root / KEDA).read_text(encoding="utf-8").splitlines()
    spec = max(i for i, line in enumerate(lines, 1) if line == "spec:")  # the ScaledObject's
    assert [(v.file, v.line, v.code) for v in found] == [(root / KEDA, spec, "crd-rule")]


def test_a_documented_rule_in_the_manifests(rendered: Path, tmp_path: Path) -> None:
    old = "scalerAddress: keda-add-ons-http-external-scaler.keda.svc.cluster.local:9090"
    root = mutated(rendered, tmp_path, KEDA, old, "scalerAddress: http://scaler.keda")
    found = crd_violations(checked(root))
    line = line_of(root / KEDA, "- type: external-push")
    assert [(v.file, v.line, v.code) for v in found] == [(root / KEDA, line, "crd-documented")]
    assert "an external-push trigger needs metadata.scalerAddress as host:port" in found[0].message
    assert "keda.sh/docs" in found[0].message


def test_a_second_autoscaler_of_the_same_workload(rendered: Path, tmp_path: Path) -> None:
    """KEDA's webhook refuses a ScaledObject for a workload an HPA already scales."""
    hpa = (
        "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
        "metadata: {name: chat, namespace: chat}\n"
        "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: chat}\n"
        "  minReplicas: 1\n  maxReplicas: 2\n"
    )
    text = (rendered / KEDA).read_text(encoding="utf-8")
    root = mutated(rendered, tmp_path, KEDA, text, text + hpa)
    found = crd_violations(checked(root))
    assert [v.code for v in found] == ["crd-documented"]
    assert "already scaled by another ScaledObject or HorizontalPodAutoscaler" in found[0].message


def test_the_fixture_of_every_layer() -> None:
    report = check([FIXTURES / "crds"], load_schemas(BUNDLED))
    found = [(v.file.name, v.line, v.code) for v in report.violations]
    assert found == [
        ("cel.yaml", 7, "crd-rule"),
        ("main.tf", 11, "crd-schema"),
        ("main.tf", 26, "crd-rule"),
        ("main.tf", 26, "crd-rule"),
        ("main.tf", 43, "crd-documented"),
        ("main.tf", 50, "crd-missing"),
    ]
    assert [(v.file.name, v.line, v.code) for v in report.notes] == [
        ("main.tf", 58, "crd-not-checked")
    ]
