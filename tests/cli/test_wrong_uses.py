"""The newcomer's wrong uses: each one a clear answer, the exit code the README's table says,
located where the mistake is in a file, and nothing written.

Run from inside a rendered project (as a person does: `cd` into it), with no cloud and no
terraform reachable: none of these may get as far as running terraform.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run

LONG = "a" * 300


def tree(folder: Path) -> dict[str, str]:
    """Every file of the project with its digest (gpuplat's run-lock files left out)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "locks" not in p.parts
    }


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("newcomer") / "p"
    assert run("init", "--example", "eks-l4-vllm", str(folder)).exit_code == 0
    assert run("render", cwd=folder).exit_code == 0
    return folder


# (what the newcomer typed, where, exit code, the line that must be said, where it is located)
WRONG_USES = [
    (["plan", "-e", "dev"], ".", 2, "Hint: plan takes environments as arguments", None),
    (["drift", "--env", "dev"], ".", 2, "Hint: drift takes environments as arguments", None),
    (["validate", "dev"], ".", 2, "Hint: validate takes environments with -e", None),
    (["render", "prod"], ".", 2, "Hint: render takes environments with -e", None),
    (["-C", "/missing", "validate"], ".", 1, "Error: -C /missing: no such folder", None),
    (["render", "-e", "staging"], ".", 1, "Error: unknown environment 'staging'", None),
    (["plan", "staging"], "envs", 1, "Error: unknown environment 'staging'", None),
    (["cost", "staging"], ".", 1, "Error: unknown environment 'staging'", None),
    (["place", "-e", "nope"], ".", 1, "Error: unknown environment 'nope'", None),
    (["validate", "-e", LONG], ".", 1, "Error: unknown environment", None),
    (["graph", "--format", "png"], ".", 2, "png writes a file: give it with -o", None),
    (["apply"], ".", 2, "Missing argument 'ENV'", None),
    (["drift"], "envs", 2, "Missing argument 'ENVS...'", None),
    (["plan", "dev", "--stage", "nope"], ".", 2, "'nope' is not one of", None),
    (["init", "."], ".", 1, "already exist", None),
    (["render", "--layout", "flux"], ".", 1, "needs --manifests DIR and --repo-url URL", None),
    (["failover", "chat", "--to", "x", "-e", "dev", "--dry-run"], ".", 1, '"x" is not', None),
    (["failover", "chat", "--to", "x", "dev"], ".", 2, "Missing option '-e'", None),
    (["conformance", "nothere.tf"], ".", 1, "no such file or directory: nothere.tf", None),
    (["vendor", "copy"], ".", 2, "Missing argument 'DEST'", None),
]


@pytest.mark.parametrize(
    ("args", "where", "code", "said", "located"),
    WRONG_USES,
    ids=[" ".join(a)[:40] for a, *_ in WRONG_USES],
)
def test_a_wrong_use_is_answered_and_writes_nothing(
    rendered: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    where: str,
    code: int,
    said: str,
    located: str | None,
) -> None:
    project = tmp_path / "p"
    shutil.copytree(rendered, project, symlinks=True)
    before = tree(project)
    monkeypatch.chdir(project / where)
    done = run(*args)
    assert done.exit_code == code, done.stderr
    assert said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    if located is not None:
        assert located in done.stderr, done.stderr
    assert tree(project) == before


TYPOS = [
    (
        ("  - name: inference-use1\n", "  - name: inference-use2\n"),
        'Error: cluster "inference-use2" is not in gpuplat.yaml; did you mean "inference-use1"?',
        "envs/dev.yaml:4:11  clusters[1].name  (in dev)",
        "give it every required key (cloud, region)",
    ),
    (
        ("      - name: l4-shared\n", "      - name: l4-share\n"),
        'Error: node pool "l4-share" is not in gpuplat.yaml; did you mean "l4-shared"?',
        "envs/dev.yaml:6:15  clusters[0].node_pools[1].name  (in dev)",
        "give it every required key (machine_type)",
    ),
]


@pytest.mark.parametrize(("edit", "said", "located", "hint"), TYPOS, ids=["cluster", "pool"])
def test_a_mistyped_name_in_an_overlay_is_not_a_new_item(
    rendered: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    edit: tuple[str, str],
    said: str,
    located: str,
    hint: str,
) -> None:
    """A typo used to become a new, incomplete item reported as "cloud is missing"."""
    project = tmp_path / "p"
    shutil.copytree(rendered, project, symlinks=True)
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(overlay.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    before = tree(project)
    monkeypatch.chdir(project)
    for command in (["validate"], ["render"]):
        done = run(*command)
        assert done.exit_code == 4, done.stderr
        assert done.stderr.startswith(said + "\n  " + located + "\n"), done.stderr
        assert hint in done.stderr
        assert "is missing" not in done.stderr
    assert tree(project) == before


def test_a_complete_new_cluster_in_an_overlay_is_still_added(
    rendered: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    shutil.copytree(rendered, project, symlinks=True)
    overlay = project / "envs" / "dev.yaml"
    overlay.write_text(
        overlay.read_text(encoding="utf-8").replace(
            "clusters:\n",
            "clusters:\n  - name: inference-use2\n    cloud: eks\n    region: us-east-2\n"
            "    node_pools:\n      - name: l4\n        machine_type: g6.xlarge\n",
            1,
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(project)
    done = run("validate", "-e", "dev")
    assert "is not in gpuplat.yaml" not in done.stderr, done.stderr


def test_a_machine_type_of_another_cloud_is_named_as_such(
    rendered: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A GCE machine type on an EKS cluster: not "unknown", but whose it is and what fits."""
    project = tmp_path / "p"
    shutil.copytree(rendered, project, symlinks=True)
    spec = project / "gpuplat.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace(
            "machine_type: g6.xlarge", "machine_type: g2-standard-8"
        ),
        encoding="utf-8",
    )
    before = tree(project)
    monkeypatch.chdir(project)
    done = run("validate")
    assert done.exit_code == 4, done.stderr
    assert done.stderr.startswith(
        'Error: "g2-standard-8" is a machine type of GKE (GCE machine type); this cluster runs '
        "on EKS\n  gpuplat.yaml:19:23  clusters[0].node_pools[0].machine_type\n"
    ), done.stderr
    assert "EC2 instance types with the same GPUs (g6.xlarge" in done.stderr
    assert tree(project) == before


def test_the_model_path_hint_pasted_into_a_flow_list_is_valid_yaml(
    rendered: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint's text, pasted where the wrong value was in `args: [...]`, fixes the error.

    Unquoted, `[--model={model_path}, ...]` is a YAML syntax error (braces open a mapping).
    """
    project = tmp_path / "p"
    shutil.copytree(rendered, project, symlinks=True)
    spec = project / "gpuplat.yaml"
    text = spec.read_text(encoding="utf-8")
    wrong = text.replace(
        "  - name: chat\n", "  - name: chat\n    args: [--model=/models/wrong, --port=8000]\n", 1
    )
    spec.write_text(wrong, encoding="utf-8")
    monkeypatch.chdir(project)
    done = run("validate")
    assert done.exit_code == 4
    hint = next(line for line in done.stderr.splitlines() if line.startswith("Hint: write "))
    pasted = hint.removeprefix("Hint: write ").split(", quoted")[0]
    assert pasted == '"--model={model_path}"'
    spec.write_text(wrong.replace("--model=/models/wrong", pasted), encoding="utf-8")
    fixed = run("validate")
    assert "--model" not in fixed.stderr and "syntax" not in fixed.stderr.lower(), fixed.stderr
