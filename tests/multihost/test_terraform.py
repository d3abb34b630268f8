"""The worked example's Terraform is real: the serving root's LeaderWorkerSet plans through the
schema stand-in (which checks each kubernetes_manifest against the vendored LWS CRD at plan,
as the real provider would against the cluster's) and equals the plain manifests field by
field; the infra root (EFA node group, placement group, EFA security group) passes real
`terraform validate` with the real hashicorp/aws provider.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuplat.spec.load import load_project
from gpuplat.workload.serving import ServingPlan, serving_plans
from tests.eks.terraform import validate
from tests.multihost.test_group import DATA, TODAY
from tests.parity.test_serving import compare, label, planned_objects, write_root
from tests.support.cli import run

pytestmark = pytest.mark.terraform


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mh") / "eks-p5-llama405b"
    shutil.copytree(DATA / "eks-p5-llama405b", folder)
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return folder


def test_the_group_plans_and_equals_the_plain_manifests(project: Path, tmp_path: Path) -> None:
    plans: dict[str, ServingPlan] = {}
    for env_name, env in load_project(project, today=TODAY).envs.items():
        for plan in serving_plans(env):
            plans[label("mh", env_name, plan.name, plan.cluster)] = plan
    write_root(tmp_path / "root", plans, lambda _file, text: text)
    planned = planned_objects(tmp_path / "root")
    (module,) = planned.values()
    assert ("LeaderWorkerSet", "llama-405b") in module
    assert ("Deployment", "llama-405b") not in module
    assert compare(plans, planned) == []


def test_the_efa_infra_root_validates_with_the_real_aws_provider(
    project: Path, tmp_path: Path
) -> None:
    root = project / "envs" / "dev" / "frontier-use1" / "infra"
    result = validate(root, tmp_path)
    assert result.valid, result.diagnostics
    text = (root / "main.tf").read_text(encoding="utf-8")
    assert "efa" in text and "compact_placement = true" in text
