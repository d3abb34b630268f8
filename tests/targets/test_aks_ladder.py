"""An AKS capacity ladder as rendered and as real terraform plans it: one node pool per rung,
the priority expander turned on, and its ConfigMap's patterns matching exactly the pools.

The aks-a100-vllm example's pool becomes a ladder (capacity reservation group, regular, Spot
with a price cap).
The infra root and the platform stage's gpu-platform call are planned by real terraform
through the schema stand-in providers (real azurerm, kubernetes and helm schemas; computed
values unknown, nothing applied); the ConfigMap text is what the released module computes.
The scale set names the patterns are tried on have the form AKS gives them
(``aks-<pool>-<digits>-vmss``), written here, since no AKS cluster is reachable.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.support.cli import run
from tests.support.hclread import modules
from tests.support.specs import AKS_LADDER_PATCH, AKS_RESERVATION_GROUP, project
from tests.support.standin import RECORD_ENV, build_stand_ins
from tests.support.standin import run as terraform

pytestmark = pytest.mark.terraform

CLUSTER = "inference-eus"
RUNGS = ["a100migres", "a100migod", "a100migspot"]
SPOT_TAINT = "kubernetes.azure.com/scalesetpriority"
CONFIG_MAP = "module.platform_inference-eus.kubernetes_config_map_v1.priority_expander[0]"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = project(tmp_path_factory.mktemp("aks-ladder"), AKS_LADDER_PATCH, "aks-a100-vllm")
    result = run("render", cwd=folder)
    assert result.exit_code == 0, result.stderr
    return folder


@pytest.fixture(scope="module")
def env(rendered: Path) -> Path:
    return rendered / "envs" / "dev" / CLUSTER


@pytest.fixture(scope="module")
def planned(
    rendered: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, object]]:
    """Planned values by address: the infra root, and the platform root's module call.

    Each root is planned as rendered but for its backend (local state here) and, on the
    platform root, the providers: they read the cluster from the infra stage's state, which
    does not exist, so they are declared bare. The serving root is validated.
    """
    copy = tmp_path_factory.mktemp("aks-ladder-plan") / "project"
    shutil.copytree(rendered, copy)
    root = copy / "envs" / "dev" / CLUSTER
    for stage in ("infra", "platform"):
        (root / stage / "backend.tf").unlink()
    (root / "platform" / "providers.tf").write_text(
        f'provider "kubernetes" {{\n  alias = "cluster_{CLUSTER}"\n}}\n\n'
        f'provider "helm" {{\n  alias = "cluster_{CLUSTER}"\n}}\n',
        encoding="utf-8",
    )
    cli = build_stand_ins()
    out: dict[str, dict[str, object]] = {}
    for stage in ("infra", "platform"):
        workdir = root / stage
        for args in (("init", "-input=false"), ("plan", "-input=false", "-out=p.tfplan")):
            # Record mode only to read data sources (aks-cluster reads azurerm_client_config).
            done = terraform(cli, workdir, *args, timeout=600, env=RECORD_ENV)
            assert done.returncode == 0, f"{stage}: terraform {args[0]}:\n{done.stderr}"
        shown = terraform(cli, workdir, "show", "-json", "p.tfplan", timeout=600)
        assert shown.returncode == 0, shown.stderr
        for change in json.loads(shown.stdout)["resource_changes"]:
            out[change["address"]] = change["change"]["after"]
    serving = root / "serving"
    done = terraform(cli, serving, "init", "-backend=false", "-input=false", timeout=600)
    assert done.returncode == 0, done.stderr
    done = terraform(cli, serving, "validate", timeout=600)
    assert done.returncode == 0 and "Success!" in done.stdout, done.stderr
    return out


def _pools(planned: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    return {
        str(v["name"]): v
        for a, v in planned.items()
        if a.endswith("azurerm_kubernetes_cluster_node_pool.this")
    }


def test_one_node_pool_per_rung_with_the_pools_labels_and_the_one_cap(
    planned: dict[str, dict[str, object]],
) -> None:
    pools = _pools(planned)
    assert sorted(pools) == sorted(RUNGS)
    res, od, spot = (pools[name] for name in RUNGS)
    assert res["priority"] == "Regular"
    assert res["capacity_reservation_group_id"] == AKS_RESERVATION_GROUP
    assert od["priority"] == "Regular" and od["capacity_reservation_group_id"] is None
    assert spot["priority"] == "Spot" and spot["capacity_reservation_group_id"] is None
    assert spot["eviction_policy"] == "Delete" and spot["spot_max_price"] == 3.5
    for name, rung in zip(RUNGS, ("res", "od", "spot"), strict=True):
        labels = pools[name]["node_labels"]
        assert isinstance(labels, dict)
        # Workloads select the pool, whichever rung a node came from.
        assert labels["gpuplat.dev/pool"] == "a100mig"
        assert labels["gpuplat.dev/rung"] == rung
        # Dev caps the ladder at 2 nodes: each rung may alone have to hold all of them; the
        # warm floor (min_nodes 0 here) is the first rung's only.
        assert pools[name]["max_count"] == 2
        assert pools[name]["min_count"] == 0
    # AKS taints Spot nodes; the module declares the taint so plans show no drift.
    assert f"{SPOT_TAINT}=spot:NoSchedule" in spot["node_taints"]  # type: ignore[operator]
    assert not any(SPOT_TAINT in t for t in od["node_taints"])  # type: ignore[union-attr]
    (cluster,) = (v for a, v in planned.items() if a.endswith("azurerm_kubernetes_cluster.this"))
    (profile,) = cluster["auto_scaler_profile"]  # type: ignore[misc]
    assert profile["expander"] == "priority"
    (system,) = cluster["default_node_pool"]  # type: ignore[misc]
    assert system["name"] == "system"


def _vmss(pool: str, digits: str = "31415926") -> str:
    return f"aks-{pool}-{digits}-vmss"


def test_priority_expander_config_map_matches_exactly_the_rendered_pools(
    planned: dict[str, dict[str, object]],
) -> None:
    config_map = planned[CONFIG_MAP]
    (meta,) = config_map["metadata"]  # type: ignore[misc]
    assert (meta["name"], meta["namespace"]) == (
        "cluster-autoscaler-priority-expander",
        "kube-system",
    )
    data = config_map["data"]
    assert isinstance(data, dict)
    text = data["priorities"]
    # The autoscaler unmarshals a map of integers to regular expressions: bare integer keys.
    priorities = yaml.safe_load(text)
    assert all(isinstance(level, int) for level in priorities), text
    pools = [*_pools(planned), "system"]
    names = {pool: _vmss(pool) for pool in pools}
    # Names a pattern must not take: another scale set of the same pool is fine (AKS may
    # suffix other digits), a pool whose name extends this one's is not.
    decoys = [_vmss(f"{p}x") for p in pools] + [f"x{_vmss(p)}" for p in pools]
    decoys += [f"{_vmss(p)}2" for p in pools]
    matched: dict[str, list[int]] = {}
    for level, patterns in priorities.items():
        for pattern in patterns:
            hits = [n for n in [*names.values(), *decoys] if re.search(pattern, n)]
            assert len(hits) == 1, (pattern, hits)
            assert re.search(pattern, _vmss(next(p for p in pools if names[p] == hits[0]), "7"))
            matched.setdefault(hits[0], []).append(level)
    # Every rendered pool, the system pool included, is matched by exactly one pattern.
    assert sorted(matched) == sorted(names.values())
    assert all(len(levels) == 1 for levels in matched.values())
    order = sorted(pools, key=lambda p: -matched[names[p]][0])
    assert order == [*RUNGS, "system"]


def test_no_pool_pattern_matches_another_pool(env: Path) -> None:
    """Every pair of rendered pools, the system pool and ladder-less pools included."""
    platform = next(iter(modules(env / "platform" / "main.tf").values()))
    autoscaler = platform["cluster_autoscaler"]
    assert isinstance(autoscaler, dict) and autoscaler["enabled"] is False
    patterns = [p for group in autoscaler["priorities"].values() for p in group]
    infra = modules(env / "infra" / "main.tf")
    pools = [str(b["name"]) for n, b in infra.items() if n.startswith("pool_")] + ["system"]
    for pattern in patterns:
        owners = [p for p in pools if re.search(pattern, _vmss(p))]
        assert len(owners) == 1, (pattern, owners)
    assert len(patterns) == len(pools)


def test_spot_rung_taint_is_tolerated_by_the_gpu_daemonsets_and_the_workload(
    env: Path, planned: dict[str, dict[str, object]]
) -> None:
    platform = next(iter(modules(env / "platform" / "main.tf").values()))
    assert {"key": SPOT_TAINT, "effect": "NoSchedule"} in platform["pool_tolerations"]  # type: ignore[operator]
    for release in ("device_plugin", "dcgm_exporter"):
        address = f"module.platform_{CLUSTER}.helm_release.{release}[0]"
        values = yaml.safe_load(planned[address]["values"][0])  # type: ignore[index]
        tolerations = json.dumps(values)
        assert SPOT_TAINT in tolerations, (release, values)
    server = next(m for m in modules(env / "serving" / "main.tf").values() if "placement" in m)
    placement = server["placement"]
    assert isinstance(placement, dict)
    assert {
        "key": SPOT_TAINT,
        "operator": "Equal",
        "value": "spot",
        "effect": "NoSchedule",
    } in placement["tolerations"]
    # The cap in what the pods request: 2 nodes of one A100 split into two 3g.40gb instances.
    assert server["gpu_quota"] == 4


def test_conformance_of_the_rendered_roots(rendered: Path) -> None:
    result = run("conformance", "envs", "modules", cwd=rendered)
    assert result.exit_code == 0, result.stdout + result.stderr


def test_a_reservation_rung_gives_the_control_plane_a_user_assigned_identity(
    planned: dict[str, dict[str, object]],
) -> None:
    """AKS places nodes in a capacity reservation group only for a user-assigned control-plane
    identity with Contributor on the group's resource group (use-capacity-reservation-groups).
    What the stand-in cannot show: the role's propagation (Azure says up to 60 minutes)."""
    module = f"module.cluster_{CLUSTER}"
    cluster = planned[f"{module}.azurerm_kubernetes_cluster.this"]
    (identity,) = cluster["identity"]  # type: ignore[misc]
    assert identity["type"] == "UserAssigned"
    assert planned[f"{module}.azurerm_user_assigned_identity.control_plane[0]"]["name"] == (
        f"{CLUSTER}-control-plane"
    )
    group = AKS_RESERVATION_GROUP.split("/providers/")[0]
    role = planned[f'{module}.azurerm_role_assignment.reservations["{group}"]']
    assert (role["role_definition_name"], role["scope"]) == ("Contributor", group)
    assert role["principal_type"] == "ServicePrincipal"
