"""infracost usage files: the keys infracost reads, at addresses the rendered roots have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.support.cli import run
from tests.support.specs import GKE_LADDER_PATCH, project, scaled_prod

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("example", "resource", "key"),
    [
        ("gke-l4-vllm", "google_container_node_pool", "nodes"),
        ("gke-h100-mig", "google_container_node_pool", "nodes"),
        ("eks-l4-vllm", "aws_eks_node_group", "instances"),
    ],
)
def test_usage_file_addresses_exist_in_the_rendered_root(
    tmp_path: Path, example: str, resource: str, key: str
) -> None:
    root = project(tmp_path, example=example)
    target = tmp_path / "usage.yml"
    done = run("cost", "prod", "--infracost-usage", target, cwd=root)
    assert done.exit_code == 0, done.stderr
    assert done.stderr == f"wrote {target}\n"
    usage = yaml.safe_load(target.read_text(encoding="utf-8"))
    assert usage["version"] == 0.1
    golden = REPO / "tests" / "golden" / example
    main = (next((golden / "envs" / "prod").glob("*/infra")) / "main.tf").read_text(
        encoding="utf-8"
    )
    for address, counts in usage["resource_usage"].items():
        module, kind, name = re.fullmatch(
            r"module\.([^.]+)\.([^.]+)\.([^.\[]+)(?:\[0\])?", address
        ).groups()  # type: ignore[union-attr]
        if kind == "google_compute_router_nat":
            assert list(counts) == ["assigned_vms"], address
        else:
            assert list(counts) == [key], address
            assert kind == resource
        source = re.search(rf'module "{re.escape(module)}" {{\n  source = "([^"]+)"', main)
        assert source is not None, f"{module} is not in the rendered prod infra root"
        module_dir = (next((golden / "envs" / "prod").glob("*/infra")) / source.group(1)).resolve()
        assert f'resource "{kind}" "{name}"' in (module_dir / "main.tf").read_text(), address


def test_gke_counts_are_per_zone_at_the_ceiling(tmp_path: Path) -> None:
    root = scaled_prod(project(tmp_path))
    target = tmp_path / "u.yml"
    assert run("cost", "prod", "--infracost-usage", target, cwd=root).exit_code == 0
    usage = yaml.safe_load(target.read_text())["resource_usage"]
    # prod l4-shared: 8 nodes in total over the cluster's 2 zones -> 4 per zone; system: 3 ->
    # 2 per zone (rounded up: infracost multiplies by the zones).
    # The Cloud NAT of the private nodes is billed per VM behind it: 8 + 3 = 11 (infracost's
    # `assigned_vms` defaults to 0, pricing the gateway at $0).
    nat = "module.cluster_inference-us.google_compute_router_nat.nat[0]"
    assert usage == {
        "module.cluster_inference-us.google_container_node_pool.system": {"nodes": 2},
        "module.pool_inference-us_l4-shared.google_container_node_pool.this": {"nodes": 4},
        nat: {"assigned_vms": 11},
    }
    assert run("cost", "dev", "--infracost-usage", target, "--at", "floor", cwd=root).exit_code == 0
    assert yaml.safe_load(target.read_text())["resource_usage"] == {
        "module.cluster_inference-us.google_container_node_pool.system": {"nodes": 1},
        "module.pool_inference-us_l4-shared.google_container_node_pool.this": {"nodes": 0},
        nat: {"assigned_vms": 2},  # GKE creates the system pool's 1 in each of 2 zones
    }


def test_a_regional_cluster_without_zones_counts_three_zones(tmp_path: Path) -> None:
    """gke-l4-vllm without its zones: a regional cluster's pools span the region's three zones,
    and infracost multiplies a count by them. The system pool's 3 nodes are 1 per zone (3 in
    infracost), not 3 per zone (9)."""
    root = project(tmp_path, (("    zones: [us-central1-a, us-central1-c]\n", ""),))
    target = tmp_path / "u.yml"
    assert run("cost", "prod", "--infracost-usage", target, cwd=root).exit_code == 0
    text = target.read_text()
    usage = yaml.safe_load(text)["resource_usage"]
    assert usage["module.cluster_inference-us.google_container_node_pool.system"] == {"nodes": 1}
    assert "system pool of inference-us: 3 nodes over 3 zones\n" in text
    # prod l4-shared: 8 nodes over 3 zones; infracost's count is per zone, so it prices 9.
    assert "inference-us/l4-shared: 8 nodes over 3 zones; infracost prices 3 x 3 = 9" in text


def test_a_ladder_is_counted_on_its_rung_node_pools(tmp_path: Path) -> None:
    """The ladder renders one node pool per rung (l4-shared-res, -od, -flex, -spot): the usage
    file names those, with the reservation at the 2 nodes it holds and the cap of 2 on the
    dearest other rung (on-demand), as `cost` prices the ceiling; the others at 0."""
    root = project(tmp_path, GKE_LADDER_PATCH)
    target = tmp_path / "u.yml"
    assert run("cost", "dev", "--infracost-usage", target, cwd=root).exit_code == 0
    usage = yaml.safe_load(target.read_text())["resource_usage"]
    pools = {k.split(".")[1]: v["nodes"] for k, v in usage.items() if "pool_" in k}
    # The reservation is in one zone (2 per zone); the other rungs span the cluster's 2 zones.
    assert pools == {
        "pool_inference-us_l4-shared-res": 2,
        "pool_inference-us_l4-shared-od": 1,
        "pool_inference-us_l4-shared-flex": 0,
        "pool_inference-us_l4-shared-spot": 0,
    }


def test_eks_counts_are_instances(tmp_path: Path) -> None:
    root = project(tmp_path, example="eks-l4-vllm")
    target = tmp_path / "u.yml"
    assert run("cost", "dev", "--infracost-usage", target, cwd=root).exit_code == 0
    assert yaml.safe_load(target.read_text())["resource_usage"] == {
        "module.cluster_inference-use1.aws_eks_node_group.system": {"instances": 3},
        "module.pool_inference-use1_l4-shared.aws_eks_node_group.this": {"instances": 2},
    }


def test_several_environments_need_a_placeholder(tmp_path: Path) -> None:
    root = project(tmp_path)
    refused = run("cost", "--infracost-usage", tmp_path / "u.yml", cwd=root)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: --infracost-usage")
    assert not (tmp_path / "u.yml").exists()
    done = run("cost", "--infracost-usage", tmp_path / "u-{env}.yml", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert (tmp_path / "u-dev.yml").is_file() and (tmp_path / "u-prod.yml").is_file()


def test_an_unwritable_file_is_a_clear_error(tmp_path: Path) -> None:
    root = project(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = run("cost", "prod", "--infracost-usage", blocker / "u.yml", cwd=root)
    assert done.exit_code == 1
    assert done.stderr.startswith("Error: cannot write the infracost usage file:")
