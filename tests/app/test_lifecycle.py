"""`gpuplat plan / apply / drift / destroy` for real: the EKS example's infra stage on moto.

The real terraform and the real aws provider (from the machine's filesystem mirror) run what
gpuplat rendered, with the state in moto's S3 and its lock file. gpuplat runs as a separate
process, as a person or CI would run it. moto's gaps are handled as in tests/eks/test_moto.py:
an override file turns off the EKS APIs moto lacks, and moto_eks.py fills in what EKS does by
itself; the replacements moto's answers cause on a second plan are the ones named there.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.eks.moto_eks import aws_managed_policies, node_groups_own_autoscaling_groups
from tests.support.moto import MotoServer, aws_env, moto_server, write_cli_config
from tests.support.realparts import terraform_bin

pytestmark = [pytest.mark.terraform, pytest.mark.integration]

CLUSTER = "inference-use1"
BUCKET = "acme-inference-tfstate"
LOCK_KEY = "acme-inference/dev/inference-use1/infra/terraform.tfstate.tflock"


@pytest.fixture(scope="module")
def moto_server_of_module() -> Iterator[MotoServer]:
    with aws_managed_policies(), node_groups_own_autoscaling_groups(), moto_server() as server:
        yield server


@pytest.fixture
def moto(moto_server_of_module: MotoServer) -> MotoServer:
    """The module's moto, emptied: each test starts with no AWS resources but the state bucket."""
    server = moto_server_of_module
    # moto keeps its emulated accounts per process, not per server: start from empty.
    urllib.request.urlopen(
        urllib.request.Request(f"{server.endpoint}/moto-api/reset", method="POST")
    ).close()
    server.create_bucket(BUCKET)
    return server


@pytest.fixture(scope="module")
def rendered(moto_server_of_module: MotoServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project every test starts from, initialised and rendered once for the module."""
    folder = tmp_path_factory.mktemp("lifecycle") / "p"
    return make_project(folder, moto_server_of_module.endpoint)


def copy_project(rendered: Path, folder: Path) -> Path:
    """A checkout of the rendered project of its own, as ``cp -a`` makes one."""
    subprocess.run(["cp", "-a", str(rendered), str(folder)], check=True)
    return folder


def make_project(folder: Path, endpoint: str) -> Path:
    """The eks-l4-vllm example with every AWS API and state backend pointed at moto."""
    assert gpuplat("init", "--example", "eks-l4-vllm", str(folder)).returncode == 0
    spec_file = folder / "gpuplat.yaml"
    spec = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
    spec["clusters"][0].setdefault("aws", {})["endpoint"] = endpoint
    for env in spec["environments"]:
        env["backend"]["endpoint"] = endpoint
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert gpuplat("-C", str(folder), "render").returncode == 0
    for env in ("dev", "prod"):
        (folder / "envs" / env / CLUSTER / "infra" / "moto_override.tf").write_text(
            f'module "cluster_{CLUSTER}" {{\n  addons              = {{}}\n'
            "  cluster_autoscaler  = { enabled = false }\n"
            "  workload_identities = {}\n}\n",
            encoding="utf-8",
        )
    return folder


def environment(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI",)}
    env.update(aws_env())
    env.update(
        {
            "TF_CLI_CONFIG_FILE": str(write_cli_config(tmp / "terraformrc")),
            "TF_PLUGIN_CACHE_DIR": str(tmp / "plugin-cache"),
            "GPUPLAT_TERRAFORM": terraform_bin(),
            "NO_COLOR": "1",
        }
    )
    (tmp / "plugin-cache").mkdir(exist_ok=True)
    return env


ENV_CACHE: dict[str, dict[str, str]] = {}


def gpuplat(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplat", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )


def start(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gpuplat", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def wait_for(proc: subprocess.Popen[str], needle: str, timeout: float = 120) -> str:
    """Read the process's output until a line contains ``needle``; return what was read."""
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return "".join(seen)
    raise AssertionError(f"{needle!r} never appeared:\n{''.join(seen)}")


def freeze_children(pid: int) -> list[int]:
    """SIGSTOP every process below ``pid`` (terraform and its providers); return their pids."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    below: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        below += children
        todo += children
    for child in below:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGSTOP)
    # SIGSTOP takes hold of each thread only when it next leaves the kernel: until every thread
    # has stopped, a running one could still take a later SIGINT into terraform's handler
    # (SIGINT is dequeued before SIGSTOP), and the signal would not be seen pending.
    deadline = time.monotonic() + 60
    while running := [task for pid in below for task in _running_threads(pid)]:
        assert time.monotonic() < deadline, ("threads never stopped", running)
        time.sleep(0.01)
    return below


def _running_threads(pid: int) -> list[str]:
    """The threads of ``pid`` not (yet) stopped; none when the process is gone."""
    states = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state not in ("T", "t", "Z", "X"):
                states.append(f"{pid}/{task.name}:{state}")
    return states


def sigint_pending(pid: int) -> bool:
    """Whether a SIGINT waits, undelivered, for the (stopped) process ``pid``."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    masks = [
        line.split()[1] for line in status.splitlines() if line.startswith(("SigPnd", "ShdPnd"))
    ]
    return any(int(mask, 16) & (1 << (signal.SIGINT - 1)) for mask in masks)


def test_plan_apply_refuse_replacements_drift_and_destroy(
    moto: MotoServer, rendered: Path, tmp_path: Path
) -> None:
    env = environment(tmp_path)
    project = copy_project(rendered, tmp_path / "p")
    where = ("-C", str(project))

    planned = gpuplat(*where, "plan", "dev", "--stage", "infra", env=env)
    assert planned.returncode == 10, planned.stderr
    assert planned.stdout.splitlines()[:5] == [
        f"Plan for dev, cluster {CLUSTER}:",
        "  infra: 48 to create, 0 to update, 0 to replace, 0 to destroy",
        "    outputs to change: clusters",
        f"    cluster {CLUSTER}         create   (37 create)",
        f"    pool {CLUSTER}/l4-shared  create   (11 create)",
    ]
    assert "GPUs at min: 0 -> 0; at max: 0 -> 2 (+2)" in planned.stdout
    assert (project / "envs/dev/.plans/inference-use1/infra.tfplan").is_file()

    applied = gpuplat(*where, "apply", "dev", env=env)
    assert applied.returncode == 0, applied.stderr
    assert f"applied dev: {CLUSTER}/infra" in applied.stderr
    assert not (project / "envs/dev/.plans/inference-use1/infra.tfplan").exists(), (
        "a plan is applied once"
    )
    # State in moto's S3, lock released.
    keys = {o["Key"] for o in moto.client("s3").list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert LOCK_KEY not in keys

    again = gpuplat(*where, "apply", "dev", env=env)
    assert again.returncode == 7
    assert again.stderr.startswith("Error: no saved plan for dev\n")

    # moto answers DescribeCluster/DescribeNodegroup without fields AWS returns, so the next plan
    # replaces the cluster and the GPU node group (tests/eks/test_moto.py MOTO_ARTIFACTS) —
    # which is exactly what apply must refuse without --allow-destroy.
    replan = gpuplat(*where, "plan", "dev", "--stage", "infra", env=env)
    assert replan.returncode == 10, replan.stderr
    refused = gpuplat(*where, "apply", "dev", env=env)
    assert refused.returncode == 7, refused.stderr
    assert refused.stderr.startswith(
        "Error: the plan of dev destroys or replaces what cannot simply be rebuilt\n"
    )
    assert (
        f"  replaces cluster module.cluster_{CLUSTER}.aws_eks_cluster.this of cluster {CLUSTER} ({CLUSTER}/infra)\n"
        in refused.stderr
    )
    assert (
        f"  replaces GPU pool module.pool_{CLUSTER}_l4-shared.aws_eks_node_group.this of pool "
        f"{CLUSTER}/l4-shared ({CLUSTER}/infra)\n" in refused.stderr
    )
    assert (
        f"Hint: if that is intended, apply with --allow-destroy {CLUSTER} "
        f"--allow-destroy {CLUSTER}/l4-shared;"
    ) in refused.stderr

    drift = gpuplat(*where, "drift", "dev", "--stage", "infra", env=env)
    assert drift.returncode in (0, 10), drift.stderr
    assert drift.stdout.startswith(f"dev/{CLUSTER}/infra: ")

    out = gpuplat(*where, "output", "dev", "--stage", "infra", env=env)
    assert out.returncode == 0, out.stderr
    assert '"cloud": "eks"' in out.stdout

    # The destroy of what this test applied is left to moto's end with the fixture: a real
    # destroy (70 s of the provider's deletion waiters) runs once, from inside the project, in
    # test_the_main_job_from_the_project_folder.


def test_a_stale_plan_is_refused(moto: MotoServer, rendered: Path, tmp_path: Path) -> None:
    env = environment(tmp_path)
    project = copy_project(rendered, tmp_path / "p")
    where = ("-C", str(project))
    assert gpuplat(*where, "plan", "dev", "--stage", "infra", env=env).returncode == 10
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(overlay.read_text().replace("max_nodes: 2", "max_nodes: 3"))
    refused = gpuplat(*where, "apply", "dev", env=env)
    assert refused.returncode == 7
    assert refused.stderr.startswith(
        f"Error: the saved plan of dev/{CLUSTER}/infra is stale: the rendered tree no longer "
        "matches the "
        "spec (it changed since the last render)\n"
    )
    assert gpuplat(*where, "render", env=env).returncode == 0
    refused = gpuplat(*where, "apply", "dev", env=env)
    assert refused.returncode == 7
    assert "the cluster's roots were rendered again after this plan was made" in refused.stderr
    assert "Hint: run `gpuplat plan dev` again and review the new plan" in refused.stderr


def test_a_protected_environment_needs_a_confirmation(
    moto: MotoServer, rendered: Path, tmp_path: Path
) -> None:
    env = environment(tmp_path)
    project = copy_project(rendered, tmp_path / "p")
    where = ("-C", str(project))
    assert gpuplat(*where, "plan", "prod", "--stage", "infra", env=env).returncode == 10
    refused = gpuplat(*where, "apply", "prod", env=env)
    assert refused.returncode == 7
    assert refused.stderr == (
        "Error: prod is protected: applying needs a confirmation\n"
        "Hint: run it in a terminal and confirm, or pass --yes (e.g. in a reviewed CI job)\n"
    )


def test_two_concurrent_applies_one_wins(moto: MotoServer, rendered: Path, tmp_path: Path) -> None:
    env = environment(tmp_path)
    first = copy_project(rendered, tmp_path / "a")
    # A second checkout of the same project: its own gpuplat locks, the same remote state.
    second = tmp_path / "b"
    subprocess.run(["cp", "-a", str(first), str(second)], check=True)
    for project in (first, second):
        planned = gpuplat("-C", str(project), "plan", "dev", "--stage", "infra", env=env)
        assert planned.returncode == 10, planned.stderr
    winner = start("-C", str(first), "apply", "dev", env=env)
    frozen: list[int] = []
    try:
        wait_for(winner, "create:")
        # Hold the winner mid-apply: its terraform and provider processes are stopped (SIGSTOP),
        # so both its locks stay held however slow the machine is, then resumed below.
        frozen = freeze_children(winner.pid)
        assert frozen, "the winner's terraform was not found among its processes"
        same = gpuplat("-C", str(first), "apply", "dev", env=env)
        assert same.returncode == 8
        assert same.stderr.startswith(
            f"Error: cannot apply dev/{CLUSTER}: another gpuplat run holds the env-dev-{CLUSTER} lock\n"
        )
        other = gpuplat("-C", str(second), "apply", "dev", env=env)
        assert other.returncode == 8, other.stderr
        # Terraform's S3 lock file on the shared state refuses the other checkout.
        assert other.stderr.startswith(
            f"Error: the terraform state of {second}/envs/dev/{CLUSTER}/infra is locked by another run\n"
        )
        assert "held by" in other.stderr and "(OperationTypeApply" in other.stderr
        assert (
            f"state: {BUCKET}/acme-inference/dev/{CLUSTER}/infra/terraform.tfstate" in other.stderr
        )
        assert " force-unlock -force " in other.stderr
    finally:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        rest, _ = winner.communicate(timeout=300)
    assert winner.returncode == 0, rest


def test_sigint_during_apply_leaves_usable_state(
    moto: MotoServer, rendered: Path, tmp_path: Path
) -> None:
    env = environment(tmp_path)
    project = copy_project(rendered, tmp_path / "p")
    where = ("-C", str(project))
    assert gpuplat(*where, "plan", "dev", "--stage", "infra", env=env).returncode == 10
    proc = start(*where, "apply", "dev", env=env)
    wait_for(proc, "created:")
    # Hold terraform mid-apply so the Ctrl-C lands while resources are still to be created,
    # however fast moto answers: gpuplat forwards it to the stopped terraform, where it waits
    # as a pending signal until terraform is resumed.
    frozen = freeze_children(proc.pid)
    try:
        proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 60
        while not any(sigint_pending(pid) for pid in frozen):
            assert time.monotonic() < deadline, (
                "gpuplat never passed the Ctrl-C to terraform",
                Path(f"/proc/{proc.pid}/status").read_text()[:700],
                [(pid, Path(f"/proc/{pid}/status").read_text()[:400]) for pid in frozen],
            )
            time.sleep(0.05)
    finally:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    rest, _ = proc.communicate(timeout=300)
    assert proc.returncode == 130, rest
    assert "interrupted" in rest.lower()
    keys = {o["Key"] for o in moto.client("s3").list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert LOCK_KEY not in keys, "terraform released its state lock"
    # The next plan and apply finish the job.
    replan = gpuplat(*where, "plan", "dev", "--stage", "infra", env=env)
    assert replan.returncode == 10, replan.stderr
    finished = gpuplat(*where, "apply", "dev", env=env)
    assert finished.returncode == 0, finished.stderr


def test_the_main_job_from_the_project_folder(
    moto: MotoServer, rendered: Path, tmp_path: Path
) -> None:
    """Every terraform-running command, run the three ways people run it.

    From inside the project with relative paths only, from its parent with a relative ``-C``,
    and with an absolute ``-C``. Terraform resolves paths against the root it runs in, not
    against gpuplat's folder: every path gpuplat hands it must survive that.
    """
    env = environment(tmp_path)
    project = copy_project(rendered, tmp_path / "p")
    ways = {
        "inside the project": (project, ()),
        "relative -C": (tmp_path, ("-C", "p")),
        "absolute -C": (Path("/"), ("-C", str(project))),
    }
    for way, (cwd, where) in ways.items():
        drift = gpuplat(*where, "drift", "dev", "--stage", "infra", env=env, cwd=cwd)
        assert drift.returncode == 0, (way, drift.stderr)
        assert drift.stdout == f"dev/{CLUSTER}/infra: no state (nothing applied yet)\n", way
        out = gpuplat(*where, "output", "dev", "--stage", "infra", env=env, cwd=cwd)
        assert out.returncode == 0, (way, out.stderr)
        assert json.loads(out.stdout) == {CLUSTER: {"infra": {}}}, way
        gone = gpuplat(*where, "destroy", "dev", "--stage", "infra", "--yes", env=env, cwd=cwd)
        assert gone.returncode == 0, (way, gone.stderr)
        assert "destroyed dev: nothing" in gone.stderr, way
        # Nothing applied: not even a destroy plan (seconds of refresh) is run.
        assert gone.stdout == f"dev/{CLUSTER}/infra: no state (nothing applied yet)\n", way
        planned = gpuplat(*where, "plan", "dev", "--stage", "infra", env=env, cwd=cwd)
        assert planned.returncode == 10, (way, planned.stderr)
        assert "infra: 48 to create" in planned.stdout, way
        assert (project / "envs/dev/.plans/inference-use1/infra.tfplan").is_file(), way
        assert not (cwd / "envs").exists() or cwd == project, f"{way}: wrote outside the project"

    # The Makefile `gpuplat init` writes, as CI runs it: from the project folder.
    gpuplat_cmd = f"{sys.executable} -m gpuplat"
    made = subprocess.run(
        ["make", "plan", "ENV=dev", f"GPUPLAT={gpuplat_cmd}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert "infra: 48 to create" in made.stdout
    assert "platform: waits for infra" in made.stdout

    applied = gpuplat("apply", "dev", env=env, cwd=project)
    assert applied.returncode == 0, applied.stderr
    out = gpuplat("-C", "p", "output", "dev", "--stage", "infra", env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert '"cloud": "eks"' in out.stdout
    drift = gpuplat("drift", "dev", "--stage", "infra", env=env, cwd=project)
    assert drift.returncode in (0, 10), drift.stderr
    assert drift.stdout.startswith(f"dev/{CLUSTER}/infra: ") and "no state" not in drift.stdout
    destroyed = gpuplat("destroy", "dev", "--stage", "infra", "--yes", env=env, cwd=project)
    assert destroyed.returncode == 0, destroyed.stderr
    assert f"destroyed dev: {CLUSTER}/infra" in destroyed.stderr
    assert "GPUs at min: 0 -> 0; at max: 2 -> 0 (-2)" in destroyed.stdout


def test_drift_and_output_before_render(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert gpuplat("init", "--example", "eks-l4-vllm", str(project)).returncode == 0
    for verb in ("drift", "output", "destroy"):
        extra = ("--yes",) if verb == "destroy" else ()
        done = gpuplat(verb, "dev", *extra, cwd=project)
        assert done.returncode == 1, done.stderr
        assert done.stderr == (
            f"Error: dev has not been rendered yet: no envs/dev/{CLUSTER}/infra\n"
            "Hint: run `gpuplat render -e dev` (or `gpuplat plan dev`, which renders first)\n"
        ), verb
