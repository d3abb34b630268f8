"""`gpuplat place`: which clusters of a two-cloud spec can run a workload, and why not."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.support.cli import run


def two_clouds(folder: Path, source: str) -> Path:
    """The GKE example plus the EKS example's cluster with a 4 x L4 pool; a 2-GPU workload
    placed on that pool only."""
    assert run("init", folder).exit_code == 0
    eks_folder = folder.parent / f"eks-{folder.name}"
    assert run("init", "-x", "eks-l4-vllm", eks_folder).exit_code == 0
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    eks = yaml.safe_load((eks_folder / "gpuplat.yaml").read_text(encoding="utf-8"))["clusters"][0]
    eks["node_pools"].append(
        {
            "name": "l4x4",
            "machine_type": "g6.12xlarge",
            "capacity": {"type": "on-demand"},
            "autoscaling": {"min_nodes": 0, "max_nodes": 2},
        }
    )
    spec["clusters"].append(eks)
    workload = spec["workloads"][0]
    workload.update(
        {
            "gpus": 2,
            "scale_to_zero": False,
            "replicas": {"min": 1, "max": 2},
            "clusters": ["inference-use1"],
            "pool": "l4x4",
            # Fixed at its count: placement, not the queue's Prometheus, is what is tested.
            "autoscaling": {"metric": None},
        }
    )
    workload["model"]["source"] = source
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return folder


def report(folder: Path) -> dict[str, dict[str, object]]:
    result = run("place", "-e", "dev", "--json", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["dev"]["chat"]  # type: ignore[no-any-return]


def test_each_cluster_says_whether_it_can_run_the_workload_and_why_not(tmp_path: Path) -> None:
    chat = report(two_clouds(tmp_path / "hf", "hf://meta-llama/Llama-3.2-3B-Instruct"))
    assert chat["inference-use1"] == {
        "fits": True,
        "placed": True,
        "pools": ["l4x4"],
        # The 1-GPU pool of the same cluster is no use to a 2-GPU replica.
        "reasons": [
            'pool l4-shared: pool "l4-shared" in cluster "inference-use1" shares GPUs by '
            "time-slicing: a replica can take 1 shared GPU, not 2"
        ],
    }
    gke = chat["inference-us"]
    assert (gke["fits"], gke["placed"], gke["pools"]) == (False, False, [])
    assert gke["reasons"] == [
        'pool l4-shared: pool "l4-shared" in cluster "inference-us" shares GPUs by '
        "time-slicing: a replica can take 1 shared GPU, not 2"
    ]


def test_weights_one_cloud_reads_are_a_reason_on_the_other(tmp_path: Path) -> None:
    folder = two_clouds(tmp_path / "gs", "gs://acme-models/meta-llama/Llama-3.2-3B-Instruct")
    # validate refuses gs:// weights on an EKS placement: place the workload on GKE only and
    # ask whether the EKS cluster could take it.
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    chat_spec = spec["workloads"][0]
    chat_spec.update({"clusters": ["inference-us"], "gpus": 1})
    chat_spec.pop("pool")
    chat_spec.pop("autoscaling", None)  # GKE refuses an HPA on a vLLM metric
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    chat = report(folder)
    assert chat["inference-use1"]["fits"] is False
    assert any(
        r.startswith(
            "weights at gs:// are read with the nodes' GKE identity, which EKS nodes do not have"
        )
        for r in chat["inference-use1"]["reasons"]  # type: ignore[attr-defined]
    )
    text = run("place", "-e", "dev", cwd=folder)
    assert text.exit_code == 0
    assert "inference-use1  cannot run it" in text.stdout


def test_a_listed_cluster_that_cannot_run_the_workload_is_reported_not_fatal(
    tmp_path: Path,
) -> None:
    """Issue 25: the workload listed on both clouds, without a pool: the GKE cluster's only
    GPU pool time-slices (1 shared GPU a replica, not 2) and the EKS cluster has two GPU pools
    to choose from. `validate` refuses that spec; `place` answers it, per cluster, exit 0."""
    folder = two_clouds(tmp_path / "both", "hf://meta-llama/Llama-3.2-3B-Instruct")
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    chat_spec = spec["workloads"][0]
    chat_spec["clusters"] = ["inference-use1", "inference-us"]
    chat_spec.pop("pool")
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert run("validate", "-e", "dev", cwd=folder).exit_code == 4
    chat = report(folder)
    gke, eks = chat["inference-us"], chat["inference-use1"]
    assert (gke["fits"], gke["placed"], gke["pools"]) == (False, True, [])
    assert gke["reasons"] == [
        'pool l4-shared: pool "l4-shared" in cluster "inference-us" shares GPUs by '
        "time-slicing: a replica can take 1 shared GPU, not 2"
    ]
    assert (eks["fits"], eks["placed"], eks["pools"]) == (True, True, ["l4x4"])
    text = run("place", "-e", "dev", cwd=folder)
    assert text.exit_code == 0, text.stderr
    assert "inference-us    cannot run it (placed):" in text.stdout
    assert "inference-use1  can run it (placed): l4x4" in text.stdout


def test_errors_other_than_where_a_workload_runs_still_stop_place(tmp_path: Path) -> None:
    """Only the workload checks' errors are the report's answer: a bad cluster still fails."""
    folder = two_clouds(tmp_path / "bad", "hf://meta-llama/Llama-3.2-3B-Instruct")
    spec = yaml.safe_load((folder / "gpuplat.yaml").read_text(encoding="utf-8"))
    spec["clusters"][0]["node_pools"][0]["machine_type"] = "g6.xlarge"
    (folder / "gpuplat.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    result = run("place", "-e", "dev", cwd=folder)
    assert result.exit_code == 4
    assert "clusters[0].node_pools[0].machine_type" in result.stderr
