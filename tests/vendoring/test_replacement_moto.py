"""The upgrade report's "forces replacement" against the real aws provider, planning on moto.

The EKS example's infra stage is applied on moto; then the eks-gpu-node-group module is
changed the way a new version could change it, and the real terraform plans the change. What
the report predicts for each resource of the GPU node group must be what the provider does:
an argument the table says forces a replacement is among the plan's ``replace_paths``, and one
it says updates in place is not.

moto's artifacts (tests/eks/test_moto.py MOTO_ARTIFACTS) make every node group look replaced
on any second plan (``remote_access``), so for the node group the test compares the paths that
force the replacement, not the action alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuplat.app.upgrade_report import _impact_lines
from gpuplat.releases.versions import latest
from gpuplat.terraform import Action, Terraform, find_binary
from gpuplat.vendoring.impact import impact
from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.eks.terraform import EXAMPLE, terraform
from tests.eks.test_moto import override, patches
from tests.support.cli import run
from tests.support.moto import MotoServer, aws_env, moto_server, write_cli_config
from tests.support.realparts import terraform_bin
from tests.support.specs import project
from tests.vendoring.repos import edit

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

CLUSTER = "impact-use1"
POOL = f"module.pool_{CLUSTER}_l4-shared"
BUCKET = "acme-inference-tfstate"

IN_PLACE = (
    ("  labels = var.labels\n", '  labels = merge(var.labels, { cost-center = "ml" })\n'),
    (
        "      volume_size           = var.disk.size_gb\n",
        "      volume_size           = var.disk.size_gb + 50\n",
    ),
)
REPLACING = (
    ("  ami_type        = var.ami_type\n", '  ami_type        = "BOTTLEROCKET_x86_64_NVIDIA"\n'),
    (
        '  name_prefix = "${substr(local.full_name, 0, 98)}-"\n',
        '  name_prefix = "${substr(local.full_name, 0, 90)}-gpu-"\n',
    ),
)

SAME_VALUE = (
    (
        "concat([var.instance_type], var.extra_instance_types)",
        "concat([var.instance_type], var.extra_instance_types, [])",
    ),
)
"""A replacing argument whose text changes but not its value: the report may only say "may be
replaced" (the case of the shipped 1.0.0 -> 1.1.0, where a real plan updated in place)."""


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        yield server
        # moto's backends are per process: leave nothing for another test in this worker.
        import urllib.request

        urllib.request.urlopen(
            urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
        )


def _plan(tf: Terraform, name: str, tmp: Path) -> dict[str, tuple[Action, set[str]]]:
    plan_file = tmp / f"{name}.tfplan"
    # Just applied: no need to read every resource back again, nor to plan other modules.
    done = terraform(
        [
            "plan",
            "-refresh=false",
            f"-target={POOL}",
            "-input=false",
            "-no-color",
            f"-out={plan_file}",
        ],
        tf.cwd,
        tf.environment(),
    )
    assert done.returncode == 0, done.stderr
    return {
        c.address.removeprefix(POOL + "."): (c.action, {str(p[0]) for p in c.replace_paths if p})
        for c in tf.show_plan(plan_file).changes
        if c.address.startswith(POOL + ".")
    }


def test_predicted_replacements_are_the_providers(moto: MotoServer, tmp_path: Path) -> None:
    # Named apart from tests/eks/test_moto.py's cluster: moto's backends are per process.
    folder = project(tmp_path / "project", patches(moto.endpoint), example=EXAMPLE)
    for path in (folder / "gpuplat.yaml", *(folder / "envs").glob("*.yaml")):
        path.write_text(
            path.read_text(encoding="utf-8").replace("inference-use1", CLUSTER), encoding="utf-8"
        )
    assert run("render", cwd=folder).exit_code == 0
    root = folder / "envs" / "dev" / CLUSTER / "infra"
    (root / "moto_override.tf").write_text(override(f"cluster_{CLUSTER}"), encoding="utf-8")
    s3 = moto.client("s3")
    if BUCKET not in {b["Name"] for b in s3.list_buckets()["Buckets"]}:
        moto.create_bucket(BUCKET)
    tf = Terraform(
        find_binary(terraform_bin()),
        root,
        data_dir=tmp_path / "tfdata",
        plugin_cache_dir=tmp_path / "plugins",
        cli_config_file=write_cli_config(tmp_path / "terraformrc"),
        env=aws_env(),
    )
    tf.init()
    first = tmp_path / "first.tfplan"
    tf.plan(first)
    tf.apply(first)

    module = folder / "modules" / "eks-gpu-node-group" / latest("eks-gpu-node-group").version
    pristine = {p.name: p.read_text(encoding="utf-8") for p in module.iterdir()}
    for name, edits in (
        ("in-place", IN_PLACE),
        ("replacing", REPLACING),
        ("same-value", SAME_VALUE),
    ):
        (module / "main.tf").write_text(pristine["main.tf"], encoding="utf-8")
        for old, new in edits:
            edit(module / "main.tf", old, new)
        changed = {**pristine, "main.tf": (module / "main.tf").read_text(encoding="utf-8")}
        predicted = {r.address: r for r in impact(pristine, changed).resources}
        planned = _plan(tf, name, tmp_path)
        if name == "same-value":
            assert "instance_types" not in planned["aws_eks_node_group.this"][1], planned
            said = _impact_lines(impact(pristine, changed))
            assert any("may be replaced" in line and "instance_types" in line for line in said)
            assert not any("REPLACED" in line for line in said), said
            continue
        assert set(predicted) <= set(planned), (predicted, planned)
        for address, change in predicted.items():
            action, forced = planned[address]
            for arg in change.args:
                top = arg.path.split(".")[0]
                if arg.effect == "replace":
                    assert action is Action.REPLACE and top in forced, (name, address, arg, forced)
                else:
                    assert arg.effect == "update", (name, address, arg)
                    assert top not in forced, (name, address, arg, forced)
            if change.action == "update" and address.startswith("aws_launch_template"):
                assert action is Action.UPDATE, (name, address, action)
        if name == "replacing":
            assert predicted["aws_eks_node_group.this"].action == "replace"
            assert predicted["aws_launch_template.this"].action == "replace"
        else:
            assert predicted["aws_eks_node_group.this"].action == "update"
            assert predicted["aws_launch_template.this"].action == "update"
