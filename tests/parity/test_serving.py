"""The modules' Kubernetes objects and the plain manifests carry the same fields.

Both renderings come from one ServingPlan. This test proves they agree: a real `terraform plan`
of a root that calls the released model-server and scale-to-zero modules with the plan's values
(exactly what the serving root passes), through the schema stand-in provider (which plans what is
configured, with no cluster), and `terraform show -json` give every Kubernetes resource the
modules create. Typed resources are turned back into Kubernetes objects (tests/parity/kube.py),
kubernetes_manifest resources are Kubernetes objects already; each is compared field by field
with the object of the same kind and name in the plain manifests. Two more tests change one side
alone and show that the comparison then fails, naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from gpuplat.hcl.writer import attributes
from gpuplat.manifests import objects
from gpuplat.releases.versions import latest, release_files
from gpuplat.render.serving import model_server_args, scaler_args
from gpuplat.spec.load import load_project
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.parity.kube import Obj, differences, normal, typed_object
from tests.support.realparts import provider_schema_dir
from tests.support.specs import (
    DRA_CLUSTER_PATCH,
    FUSE_PREFETCH_PATCH,
    GKE_LADDER_PATCH,
    POD_PATCH,
    project,
)
from tests.support.standin import build_stand_ins, run

pytestmark = pytest.mark.terraform

QUEUE_PATCH = (
    (
        "      target: 4\n",
        "      target: 4\n      prometheus_address: http://prometheus.monitoring:9090\n",
    ),
    *POD_PATCH,
)
# The anchor's serving details: the FUSE file cache in memory, mount options of the user's own,
# and a Recreate rollout.
MEMCACHE_PATCH = (
    (
        "      load_bandwidth_mbps: 800\n",
        "      load_bandwidth_mbps: 800\n      fuse_cache: memory\n"
        "      fuse_mount_options: [max-conns-per-host=500]\n",
    ),
    ("    load_time_budget: 20m\n", "    load_time_budget: 20m\n    rollout_strategy: recreate\n"),
)
# (case, example, patches to its gpuplat.yaml): every example, and the variants no example has.
CASES = [
    ("l4", "gke-l4-vllm", ()),
    ("mig", "gke-h100-mig", ()),
    ("eks", "eks-l4-vllm", ()),
    ("dra", "gke-l4-vllm", DRA_CLUSTER_PATCH),
    ("queue", "gke-l4-vllm", QUEUE_PATCH),
    ("aks", "aks-a100-vllm", ()),
    ("akscopy", "aks-a100-vllm", (("      mount: blobfuse ", "      mount: copy "),)),
    ("ladder", "gke-l4-vllm", GKE_LADDER_PATCH),
    ("memcache", "gke-h100-mig", MEMCACHE_PATCH),
    ("prefetch", "gke-h100-mig", FUSE_PREFETCH_PATCH),
]
MODULES = ("model-server", "scale-to-zero")

Manifests = Callable[[ServingPlan], list[Obj]]


def manifest_objects(plan: ServingPlan) -> list[Obj]:
    """What `gpuplat render --manifests` writes for one workload on one cluster."""
    out = objects.serving_objects(plan)
    if plan.scaler is not None:
        out += objects.keda_objects(plan, plan.scaler)
    return out


def label(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", "_".join(parts))


def case_plans(tmp_path: Path) -> dict[str, ServingPlan]:
    """Module label -> serving plan, for every case, environment, workload and cluster."""
    out: dict[str, ServingPlan] = {}
    for case, example, patches in CASES:
        folder = project(tmp_path / case, patches, example=example)
        envs = load_project(folder).envs
        for env_name, env in envs.items():
            for plan in serving_plans(env):
                out[label(case, env_name, plan.name, plan.cluster)] = plan
    return out


def write_root(root: Path, plans: dict[str, ServingPlan], edit: Callable[[str, str], str]) -> None:
    """A root calling the released modules with each plan's values; ``edit`` may change a module."""
    for name in MODULES:
        for file, text in release_files(latest(name)).items():
            if file.endswith(".tf"):
                path = root / "modules" / name / file
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(edit(f"{name}/{file}", text), encoding="utf-8")
    blocks = [
        'terraform {\n  required_providers {\n    kubernetes = { source = "hashicorp/kubernetes" }\n'
        '  }\n}\n\nprovider "kubernetes" {}\n'
    ]
    # AKS: a workload identity's client id is an output of the infra stage, which the serving
    # root reads as local.clusters; here it holds the placeholder the plain manifests carry.
    identities: dict[str, dict[str, str]] = {}
    for plan in plans.values():
        reader = plan.weights.reader
        if reader is not None:
            identities.setdefault(reader.cluster, {})[reader.workload] = reader.placeholder
    if identities:
        clusters = {c: {"workload_identities": ids} for c, ids in identities.items()}
        blocks.append(f"locals {{\n{attributes({'clusters': clusters}, 1)}\n}}\n")
    for key, plan in plans.items():
        blocks.append(
            f'module "{key}" {{\n  source = "./modules/model-server"\n\n'
            f"{attributes(model_server_args(plan), 1)}\n}}\n"
        )
        zero = scaler_args(plan)
        if zero is not None:
            blocks.append(
                f'module "{key}_zero" {{\n  source = "./modules/scale-to-zero"\n\n'
                f"{attributes(zero, 1)}\n}}\n"
            )
    root.mkdir(parents=True, exist_ok=True)
    (root / "main.tf").write_text("\n".join(blocks), encoding="utf-8")


def planned_objects(root: Path) -> dict[str, dict[tuple[str, str], Obj]]:
    """Module label -> {(kind, name): Kubernetes object} from a real plan of ``root``."""
    cli = build_stand_ins()
    for args in (("init", "-input=false"), ("plan", "-input=false", "-out=serving.tfplan")):
        done = run(cli, root, *args, timeout=600)
        assert done.returncode == 0, f"terraform {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    shown = run(cli, root, "show", "-json", "serving.tfplan", timeout=600)
    assert shown.returncode == 0, shown.stderr
    out: dict[str, dict[tuple[str, str], Obj]] = {}
    for change in json.loads(shown.stdout)["resource_changes"]:
        module = change["module_address"].removeprefix("module.").removesuffix("_zero")
        after = change["change"]["after"]
        if change["type"] == "kubernetes_manifest":
            obj = after["manifest"]
        else:
            obj = typed_object(provider_schema_dir(), change["type"], after)
        obj = normal(obj)
        assert isinstance(obj, dict)
        out.setdefault(module, {})[(obj["kind"], obj["metadata"]["name"])] = obj
    return out


def compare(
    plans: dict[str, ServingPlan],
    planned: dict[str, dict[tuple[str, str], Obj]],
    manifests: Manifests = manifest_objects,
) -> list[str]:
    problems: list[str] = []
    for key, plan in plans.items():
        expected = {}
        for obj in manifests(plan):
            obj = normal(obj)
            assert isinstance(obj, dict)
            expected[(obj["kind"], obj["metadata"]["name"])] = obj
        module = planned.get(key, {})
        for missing in sorted(set(expected) - set(module)):
            problems.append(f"{key}: the module makes no {missing[0]} {missing[1]}")
        for extra in sorted(set(module) - set(expected)):
            problems.append(f"{key}: the manifests have no {extra[0]} {extra[1]}")
        for ident in sorted(set(module) & set(expected)):
            made = module[ident]
            if ident[0] == "Deployment" and plan.scaler is not None:
                # The one intended difference: the module writes the first count and then
                # leaves it to the autoscaler (ignore_changes); a GitOps controller has no
                # ignore_changes, so the manifests leave the count out.
                spec = {k: v for k, v in made["spec"].items() if k != "replicas"}  # type: ignore[union-attr]
                made = {**made, "spec": spec}
            for diff in differences(made, expected[ident]):
                problems.append(f"{key}: {ident[0]} {ident[1]}: {diff}")
    return problems


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ServingPlan]:
    return case_plans(tmp_path_factory.mktemp("specs"))


@pytest.fixture(scope="module")
def planned(
    plans: dict[str, ServingPlan], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[tuple[str, str], Obj]]:
    root = tmp_path_factory.mktemp("root")
    write_root(root, plans, lambda _file, text: text)
    return planned_objects(root)


def test_cases_cover_every_object_kind(
    plans: dict[str, ServingPlan], planned: dict[str, dict[tuple[str, str], Obj]]
) -> None:
    kinds = {kind for module in planned.values() for kind, _ in module}
    assert kinds == {
        "Namespace",
        "ServiceAccount",
        "PriorityClass",
        "Deployment",
        "Service",
        "PodDisruptionBudget",
        "ResourceClaimTemplate",
        "ResourceQuota",
        "HTTPScaledObject",
        "ScaledObject",
        "TriggerAuthentication",
        "PodMonitoring",
        "PodMonitor",
    }
    assert {p.weights.mode for p in plans.values()} >= {"copy", "gcsfuse"}
    assert any(p.dra for p in plans.values()) and any(
        p.scaler and p.scaler.queue and p.scaler.http for p in plans.values()
    )
    # A warm workload scaled on its queue alone (no HTTP trigger) is covered too.
    assert any(p.scaler and p.scaler.queue and not p.scaler.http for p in plans.values())


def test_modules_and_manifests_carry_the_same_fields(
    plans: dict[str, ServingPlan], planned: dict[str, dict[tuple[str, str], Obj]]
) -> None:
    problems = compare(plans, planned)
    assert not problems, "\n".join(problems)


def test_a_manifest_change_alone_fails(
    plans: dict[str, ServingPlan], planned: dict[str, dict[tuple[str, str], Obj]]
) -> None:
    """The manifests renderer changes one field; the module does not: the test names it."""

    def drifted(plan: ServingPlan) -> list[Obj]:
        out = manifest_objects(plan)
        for obj in out:
            if obj["kind"] == "Deployment":
                spec = obj["spec"]
                assert isinstance(spec, dict)
                spec["revisionHistoryLimit"] = 10
        return out

    problems = compare(plans, planned, drifted)
    assert len(problems) == len(plans)
    assert all(p.endswith("spec.revisionHistoryLimit: module=5 manifests=10") for p in problems), (
        problems
    )


def test_a_module_change_alone_fails(plans: dict[str, ServingPlan], tmp_path: Path) -> None:
    """The module's one Deployment definition changes; the manifests do not: the test names it.

    The changed local feeds both the typed Deployment and the DRA manifest, so both modes fail.
    """
    old = '  shm_path      = "/dev/shm"\n'

    def edit(file: str, text: str) -> str:
        if file != "model-server/deployment.tf":
            return text
        assert text.count(old) == 1
        return text.replace(old, '  shm_path      = "/dev/shm2"\n')

    one = {k: p for k, p in plans.items() if k.startswith(("l4_dev_", "dra_dev_"))}
    assert len(one) == 2
    write_root(tmp_path, one, edit)
    problems = compare(one, planned_objects(tmp_path))
    field = "spec.template.spec.containers[0].volumeMounts[1].mountPath"
    assert problems == [
        f"{key}: Deployment chat: {field}: module='/dev/shm2' manifests='/dev/shm'" for key in one
    ]
