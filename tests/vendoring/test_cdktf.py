"""CDKTF: the typed constructs of the vendored EKS modules, in a real CDKTF 0.21.0 app.

The app is synthesised by CDKTF itself (``app.synth()``, on Node through jsii), and the
synthesised JSON is initialised and validated by the real terraform with the real aws
provider.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from gpuplat.errors import ExitCode
from gpuplat.releases.versions import latest
from tests.support.cdktf import cdktf_python
from tests.support.cli import run
from tests.vendoring.repos import INTO, make_repo, validate

GROUP = latest("eks-gpu-node-group").version

pytestmark = pytest.mark.terraform

APP = """\
import sys

sys.path.insert(0, "../{into}/cdktf/python")

from cdktf import App, TerraformOutput, TerraformStack
from gpuplat_modules import EksCluster, EksGpuNodeGroup, EksNetwork


class Gpu(TerraformStack):
    def __init__(self, scope, id):
        super().__init__(scope, id)
        self.add_override(
            "terraform.required_providers.aws", {{"source": "hashicorp/aws", "version": "~> 5.40"}}
        )
        self.add_override("provider.aws", [{{"region": "us-east-1"}}])
        net = EksNetwork(
            self, "network", name="inference", vpc_cidr="10.40.0.0/16",
            zones=["us-east-1a", "us-east-1b"],
        )
        cluster = EksCluster(
            self, "cluster", name="inference",
            network={{"vpc_id": net.vpc_id, "subnet_ids": net.private_subnet_ids}},
        )
        EksGpuNodeGroup(
            self, "l4", cluster_name=cluster.name, kubernetes_version=cluster.kubernetes_version,
            node_role_arn=cluster.node_role_arn, subnet_ids=net.private_subnet_ids, name="l4",
            instance_type="g6.xlarge", gpus_per_node=1,
            scaling={{"min_nodes": 0, "max_nodes": 2}}, capacity={{"type": "SPOT"}},
        )
        TerraformOutput(self, "endpoint", value=cluster.endpoint)


app = App(outdir="cdktf.out")
Gpu(app, "gpu")
app.synth()
"""


def test_constructs_synthesise_and_the_json_validates_with_the_real_aws_provider(
    tmp_path: Path,
) -> None:
    python = cdktf_python()
    repo = make_repo(tmp_path / "repo")
    modules = "eks-network,eks-cluster,eks-gpu-node-group"
    done = run("vendor", repo, "--modules", modules, "--into", INTO, "--cdktf", "python")
    assert done.exit_code == 0, done.stderr
    constructs = repo / INTO / "cdktf" / "python" / "gpuplat_modules.py"
    assert f"  wrote {INTO}/cdktf/python/gpuplat_modules.py" in done.stderr.splitlines()
    assert run("vendor", "--check", repo).exit_code == 0  # the constructs are in the lock

    app = repo / "cdk"
    app.mkdir()
    (app / "app.py").write_text(APP.format(into=INTO), encoding="utf-8")
    started = time.monotonic()
    synth = subprocess.run(
        [str(python), "app.py"], cwd=app, capture_output=True, text=True, timeout=300
    )
    seconds = time.monotonic() - started
    assert synth.returncode == 0, synth.stderr
    assert seconds < 60, f"synth took {seconds:.1f} s"

    stack = app / "cdktf.out" / "stacks" / "gpu"
    doc = json.loads((stack / "cdk.tf.json").read_text())
    assert set(doc["module"]) == {"network", "cluster", "l4"}
    group = doc["module"]["l4"]
    assert group["instance_type"] == "g6.xlarge"
    assert group["scaling"] == {"min_nodes": 0, "max_nodes": 2}
    assert group["cluster_name"] == "${module.cluster.name}"
    # The JSON calls the vendored folder itself, relative to the stack's folder.
    assert group["source"] == f"../../../../{INTO}/eks-gpu-node-group/{GROUP}"
    assert (stack / group["source"] / "main.tf").resolve() == (
        repo / INTO / "eks-gpu-node-group" / GROUP / "main.tf"
    )

    validated = validate(stack, tmp_path / "tf")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "The configuration is valid" in validated.stdout
    assert constructs.is_file()


def test_a_missing_required_variable_is_a_type_error_before_terraform(tmp_path: Path) -> None:
    python = cdktf_python()
    repo = make_repo(tmp_path / "repo")
    assert (
        run(
            "vendor", repo, "--modules", "eks-cluster", "--into", INTO, "--cdktf", "python"
        ).exit_code
        == 0
    )
    script = (
        f"import sys; sys.path.insert(0, '../{INTO}/cdktf/python')\n"
        "from cdktf import App, TerraformStack\n"
        "from gpuplat_modules import EksCluster\n"
        "app = App(outdir='out')\n"
        "EksCluster(TerraformStack(app, 's'), 'c', name='x')\n"
    )
    (repo / "cdk").mkdir()
    (repo / "cdk" / "bad.py").write_text(script, encoding="utf-8")
    done = subprocess.run(
        [str(python), "bad.py"], cwd=repo / "cdk", capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "missing 1 required keyword-only argument: 'network'" in done.stderr


VENDORING_DOCS = Path(__file__).resolve().parents[2] / "docs" / "vendoring.md"


def _readme_app() -> str:
    text = VENDORING_DOCS.read_text(encoding="utf-8")
    section = text[text.index("## CDKTF") :]
    return section[section.index("```python\n") + 10 : section.index("```\n", 10)]


def _cdktf_synth(python: Path, app: Path) -> subprocess.CompletedProcess[str]:
    """Run the app the way `cdktf synth` does (cdktf-cli 0.21's synth-stack): its output folder
    in CDKTF_OUTDIR and its own context in CDKTF_CONTEXT_JSON, which replaces the app's
    context keys; with no cdktf.json terraformModules its cdktfRelativeModules is empty.
    The tests do not install the CLI (npm cdktf-cli, ~480 packages); it was run once by hand
    (cdktf-cli 0.21.0): the earlier README app failed with "Could not find lowest common path
    for relative modules", this one synthesises the same JSON as here."""
    env = {
        **os.environ,
        "CDKTF_OUTDIR": str(app / "cdktf.out"),
        "CDKTF_CONTEXT_JSON": json.dumps(
            {"cdktfJsonPath": str(app / "cdktf.json"), "cdktfRelativeModules": []}
        ),
    }
    return subprocess.run(
        [str(python), "app.py"], cwd=app, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_readme_app_synthesises_under_cdktf_synth_and_validates(tmp_path: Path) -> None:
    python = cdktf_python()
    repo = make_repo(tmp_path / "repo")
    modules = "eks-network,eks-cluster,eks-gpu-node-group"
    assert run("vendor", repo, "--modules", modules, "--cdktf", "python").exit_code == 0
    app = repo / "cdk"
    app.mkdir()
    (app / "app.py").write_text(_readme_app(), encoding="utf-8")
    (app / "cdktf.json").write_text('{"language": "python", "app": "python app.py"}\n')
    synth = _cdktf_synth(python, app)
    assert synth.returncode == 0, synth.stderr
    stack = app / "cdktf.out" / "stacks" / "gpu"
    doc = json.loads((stack / "cdk.tf.json").read_text())
    assert (
        doc["module"]["l4"]["source"] == f"../../../../modules/gpuplat/eks-gpu-node-group/{GROUP}"
    )
    validated = validate(stack, tmp_path / "tf")
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_upgrade_moves_the_constructs_and_check_catches_stale_ones(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    done = run(
        "vendor", repo, "--modules", "eks-cluster@1.0.0", "--into", INTO, "--cdktf", "python"
    )
    assert done.exit_code == 0, done.stderr
    constructs = repo / INTO / "cdktf" / "python" / "gpuplat_modules.py"
    lock_path = repo / INTO / "gpuplat-vendor.lock.json"
    old_text, old_lock = constructs.read_text(), json.loads(lock_path.read_text())
    assert "'eks-cluster': '../../eks-cluster/1.0.0'" in old_text

    up = run("vendor", "upgrade", repo, "--modules", "eks-cluster@1.1.1")
    assert up.exit_code == 0, up.stderr
    text = constructs.read_text()
    assert "'eks-cluster': '../../eks-cluster/1.1.1'" in text and "1.0.0" not in text
    assert run("vendor", "--check", repo).exit_code == 0

    # Constructs (and their lock record) left at the deleted version, as before this fix.
    constructs.write_text(old_text)
    lock = json.loads(lock_path.read_text())
    key = f"{INTO}/cdktf/python/gpuplat_modules.py"
    lock["generated"][key] = old_lock["generated"][key]
    lock_path.write_text(json.dumps(lock, indent=2) + "\n")
    stale = run("vendor", "--check", repo)
    assert stale.exit_code == ExitCode.STALE, stale.stderr
    assert (
        "the CDKTF constructs do not call the vendored versions (eks-cluster 1.1.1)" in stale.stderr
    )
    assert f"gpuplat vendor {repo} --cdktf python" in stale.stderr
