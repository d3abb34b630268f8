"""`gpuplat validate`: exit codes, --json, --strict, -e."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run


def init(tmp_path: Path) -> Path:
    assert run("init", tmp_path).exit_code == 0
    return tmp_path


def test_valid_project(tmp_path: Path) -> None:
    result = run("validate", cwd=init(tmp_path))
    assert (result.exit_code, result.stdout) == (0, "")
    # dev's spot pool: GKE's 15 s preemption notice against the rendered grace period.
    assert result.stderr == (
        'Note: workload "chat" on spot pool inference-us/l4-shared: GKE gives non-system pods '
        "about 15 s on a Spot preemption, best effort (GKE Spot VMs). The rendered grace of "
        "135s (preStop 15s + drain_time 120s) holds on upgrades, repairs and scale-down, not "
        "on a preemption: there the preStop (readiness off, endpoints removed) takes 15s of "
        "the 15s and in-flight requests get 0s (in dev)\n"
        "valid: dev, prod\n"
        # What the queue trigger asks for: 921 s = node start 600 + pull 240 + copy 64 + load 17;
        # the copy: 6.5 GB through a 200 GB pd-balanced boot disk at 140 MiB/s (baseline,
        # unverified) + 0.28 MiB/s per GiB = 196 MiB/s, shared by the 2 replicas a node starts.
        "  dev: chat on inference-us: 0..4 replicas on vllm:num_requests_waiting: ceil(sum over "
        "the pods / 4) — 8 waiting ask for 2, 16 waiting ask for 4; a replica on a new node takes "
        "about 921s (node start + pull + load)\n"
        "  prod: chat on inference-us: 2..16 replicas on vllm:num_requests_waiting: ceil(sum over "
        "the pods / 4) — 16 waiting ask for 4, 64 waiting ask for 16; a replica on a new node "
        "takes about 921s (node start + pull + load)\n"
    )


def test_one_environment(tmp_path: Path) -> None:
    result = run("validate", "-e", "prod", cwd=init(tmp_path))
    assert result.stderr == (
        "valid: prod\n"
        "  prod: chat on inference-us: 2..16 replicas on vllm:num_requests_waiting: ceil(sum over "
        "the pods / 4) — 16 waiting ask for 4, 64 waiting ask for 16; a replica on a new node "
        "takes about 921s (node start + pull + load)\n"
    )


def test_json_output_valid(tmp_path: Path) -> None:
    result = run("validate", "--json", cwd=init(tmp_path))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "valid": True,
        "environments": ["dev", "prod"],
        "valid_environments": ["dev", "prod"],
        "errors": 0,
        "warnings": 0,
        "diagnostics": [],
        "notes": [
            'workload "chat" on spot pool inference-us/l4-shared: GKE gives non-system pods '
            "about 15 s on a Spot preemption, best effort (GKE Spot VMs). The rendered grace of "
            "135s (preStop 15s + drain_time 120s) holds on upgrades, repairs and scale-down, "
            "not on a preemption: there the preStop (readiness off, endpoints removed) takes "
            "15s of the 15s and in-flight requests get 0s (in dev)"
        ],
        "scaling": [
            "dev: chat on inference-us: 0..4 replicas on vllm:num_requests_waiting: ceil(sum over "
            "the pods / 4) — 8 waiting ask for 2, 16 waiting ask for 4; a replica on a new node "
            "takes about 921s (node start + pull + load)",
            "prod: chat on inference-us: 2..16 replicas on vllm:num_requests_waiting: ceil(sum "
            "over the pods / 4) — 16 waiting ask for 4, 64 waiting ask for 16; a replica on a new "
            "node takes about 921s (node start + pull + load)",
        ],
    }


def test_json_output_invalid(tmp_path: Path) -> None:
    project = init(tmp_path)
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text().replace("max_clients: 2", "max_clients: 99"))
    line = spec.read_text().splitlines().index("          max_clients: 99") + 1
    result = run("validate", "--json", cwd=project)
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["valid"] is False
    assert data["diagnostics"][0] == {
        "severity": "error",
        "message": "max_clients must be between 2 and 48, got 99",
        "file": "gpuplat.yaml",
        "line": line,
        "column": 24,
        "path": "clusters[0].node_pools[0].sharing.max_clients",
        "hint": "1 means no sharing: use mode: none",
        "details": [],
        "environments": [],
        "related": [],
    }


def test_json_names_the_overlay_value_that_caused_a_problem(tmp_path: Path) -> None:
    project = init(tmp_path)
    (project / "envs" / "dev.yaml").write_text(
        "clusters:\n  - name: inference-us\n    node_pools:\n      - name: l4-shared\n"
        "        autoscaling:\n          min_nodes: 1\n"
    )
    result = run("validate", "--json", "-e", "dev", cwd=project)
    assert result.exit_code == 4
    (diag,) = json.loads(result.stdout)["diagnostics"]
    assert diag["path"] == "workloads[0].scale_to_zero"
    assert diag["file"] == "gpuplat.yaml"
    assert diag["related"] == [
        {
            "file": "envs/dev.yaml",
            "line": 6,
            "column": 22,
            "path": "clusters[0].node_pools[0].autoscaling.min_nodes",
            "note": "min_nodes of pool l4-shared",
        }
    ]


def test_warnings_fail_only_under_strict(tmp_path: Path) -> None:
    project = init(tmp_path)
    spec = project / "gpuplat.yaml"
    spec.write_text(spec.read_text().replace("vllm/vllm-openai:v0.11.0", "vllm/vllm-openai"))
    relaxed = run("validate", cwd=project)
    assert relaxed.exit_code == 0
    assert relaxed.stderr.startswith('Warning: image "vllm/vllm-openai" is not pinned\n')
    assert "\n1 warning\n" in relaxed.stderr  # then dev's note on its spot pool
    assert "\nvalid: dev, prod (1 warning)\n  dev: chat" in relaxed.stderr
    strict = run("validate", "--strict", cwd=project)
    assert strict.exit_code == 4
    assert strict.stderr.endswith("1 warning (errors under --strict)\n")


def test_no_spec(tmp_path: Path) -> None:
    result = run("validate", cwd=tmp_path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: no gpuplat.yaml in {tmp_path}\n"
        "Hint: run `gpuplat init` to write one, or pass the project folder with -C DIR\n"
    )


def test_json_on_failure_lists_the_environments_still_valid(tmp_path: Path) -> None:
    """dev's overlay breaks dev only: a CI job can still tell prod is fine."""
    project = init(tmp_path)
    (project / "envs" / "dev.yaml").write_text(
        "workloads:\n  - name: chat\n    replicas:\n      max: -4\n"
    )
    result = run("validate", "--json", cwd=project)
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert (data["environments"], data["valid_environments"]) == (["dev", "prod"], ["prod"])
    base = project / "gpuplat.yaml"
    base.write_text(base.read_text().replace("max_clients: 2", "max_clients: 99"))
    data = json.loads(run("validate", "--json", cwd=project).stdout)
    assert (data["environments"], data["valid_environments"]) == (["dev", "prod"], [])
