"""Plans told in the spec's terms: elements, replace reasons, GPU deltas, protected changes.

The plans here are written in the `terraform show -json` format (1.2) by hand: the google
provider cannot run on this machine, so no real GKE plan can be recorded. The EKS tests record
real plans against moto.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplat.addresses import element_of, elements
from gpuplat.app.apply import _check_destroys
from gpuplat.app.saved import SavedPlan
from gpuplat.errors import RefusedError
from gpuplat.spec.load import load_project
from gpuplat.summary import gpu_delta, summarize
from gpuplat.terraform import parse_plan
from gpuplat.workspace import StageRoot
from tests.support.cli import run


def pool_values(
    min_nodes: int, max_nodes: int, gpus: int, machine: str = "g2-standard-8"
) -> dict[str, object]:
    return {
        "autoscaling": [{"total_min_node_count": min_nodes, "total_max_node_count": max_nodes}],
        "node_config": [
            {"machine_type": machine, "guest_accelerator": [{"count": gpus, "type": "nvidia-l4"}]}
        ],
        "node_locations": ["us-central1-a", "us-central1-c"],
    }


def change(
    address: str, kind: str, actions: list[str], before: object, after: object, **extra: object
) -> dict[str, object]:
    _module, _, _rest = address.rpartition(".")
    return {
        "address": address,
        "module_address": address.rsplit(".", 2)[0],
        "mode": "managed",
        "type": kind,
        "name": address.rsplit(".", 1)[-1],
        "provider_name": "registry.terraform.io/hashicorp/google",
        "change": {"actions": actions, "before": before, "after": after, **extra},
    }


def plan_text(changes: list[dict[str, object]]) -> str:
    return json.dumps(
        {
            "format_version": "1.2",
            "terraform_version": "1.11.4",
            "resource_changes": changes,
            "applyable": True,
            "complete": True,
            "errored": False,
        }
    )


def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    assert run("init", tmp_path).exit_code == 0
    return elements(load_project(tmp_path, ["prod"]).envs["prod"].spec)


def test_elements_map_module_addresses_to_the_spec(tmp_path: Path) -> None:
    t = table(tmp_path)
    pool = element_of("module.pool_inference-us_l4-shared.google_container_node_pool.this", t)
    assert (pool.kind, pool.name, pool.path) == (
        "pool",
        "inference-us/l4-shared",
        ("clusters", 0, "node_pools", 0),
    )
    cluster = element_of("module.cluster_inference-us.google_container_cluster.this", t)
    assert cluster.label() == "cluster inference-us"
    workload = element_of("module.serve_chat_inference-us.kubernetes_deployment_v1.this[0]", t)
    assert workload.label() == "workload chat@inference-us"
    assert element_of("terraform_data.x", t).kind == "other"


def test_pool_resize_and_gpu_delta(tmp_path: Path) -> None:
    address = "module.pool_inference-us_l4-shared.google_container_node_pool.this"
    plan = parse_plan(
        plan_text(
            [
                change(
                    address,
                    "google_container_node_pool",
                    ["update"],
                    pool_values(1, 8, 1),
                    pool_values(2, 16, 1),
                )
            ]
        )
    )
    summary = summarize("prod", "infra", plan, table(tmp_path))
    assert summary.counts == {"update": 1}
    assert summary.gpus is not None
    assert summary.gpus.text() == "GPUs at min: 1 -> 2 (+1); at max: 8 -> 16 (+8)"
    assert summary.lines() == [
        "  infra: 0 to create, 1 to update, 0 to replace, 0 to destroy",
        "    pool inference-us/l4-shared  update   (1 update)",
        "    GPUs at min: 1 -> 2 (+1); at max: 8 -> 16 (+8)",
        # g2-standard-8 on-demand is 0.85363 $/h in the catalog: x 730 h = $623.15 a node.
        "    cost/month at min: $623.15 -> $1,246.30 (+$623.15); "
        "at max: $4,985.20 -> $9,970.40 (+$4,985.20)",
    ]
    assert summary.protected() == []


def test_replaced_pool_names_the_reason_and_is_protected(tmp_path: Path) -> None:
    address = "module.pool_inference-us_l4-shared.google_container_node_pool.this"
    plan = parse_plan(
        plan_text(
            [
                change(
                    address,
                    "google_container_node_pool",
                    ["delete", "create"],
                    pool_values(0, 4, 1),
                    pool_values(0, 4, 2, "g2-standard-24"),
                    replace_paths=[["node_config", 0, "machine_type"]],
                )
            ]
        )
    )
    summary = summarize("prod", "infra", plan, table(tmp_path))
    assert summary.elements[0].reasons == [
        "google_container_node_pool.this: node_config.0.machine_type forces replacement"
    ]
    assert summary.gpus is not None
    assert (summary.gpus.max_before, summary.gpus.max_after) == (4, 8)
    assert [(e.name, what, verb) for e, what, verb in summary.protected()] == [
        ("inference-us/l4-shared", "GPU pool", "replace")
    ]


def test_destroyed_cluster_counts_no_gpus_after(tmp_path: Path) -> None:
    address = "module.pool_inference-us_l4-shared.google_container_node_pool.this"
    plan = parse_plan(
        plan_text(
            [change(address, "google_container_node_pool", ["delete"], pool_values(1, 8, 1), None)]
        )
    )
    summary = summarize("prod", "infra", plan, table(tmp_path))
    assert summary.gpus is not None
    assert (summary.gpus.min_after, summary.gpus.max_after) == (0, 0)
    assert summary.elements[0].headline() == "destroy"


def test_json_form(tmp_path: Path) -> None:
    address = "module.serve_chat_inference-us.kubernetes_deployment_v1.this[0]"
    plan = parse_plan(
        plan_text([change(address, "kubernetes_deployment_v1", ["create"], None, {})])
    )
    data = summarize("prod", "serving", plan, table(tmp_path)).to_json()
    assert data["counts"] == {"create": 1}
    assert data["gpus"] is None
    assert data["elements"] == [
        {
            "kind": "workload",
            "name": "chat@inference-us",
            "action": "create",
            "actions": {"create": 1},
            "replace_reasons": [],
            "resources": [{"address": address, "action": "create"}],
        }
    ]


def aks_pool_values(machine: str, min_nodes: int, max_nodes: int) -> dict[str, object]:
    """An azurerm_kubernetes_cluster_node_pool as `terraform show -json` writes it (the
    attributes the aks-gpu-node-pool module sets and the summary reads)."""
    return {
        "name": "a100mig",
        "vm_size": machine,
        "auto_scaling_enabled": True,
        "min_count": min_nodes,
        "max_count": max_nodes,
        "node_count": None,
        "priority": "Spot",
        "eviction_policy": "Delete",
        "gpu_instance": "MIG3g",
        "zones": ["1", "2", "3"],
    }


def test_aks_pool_gpus_come_from_the_vm_size_and_a_replace_is_named(tmp_path: Path) -> None:
    """AKS plans carry no GPU count: the summary reads it from the VM size in the catalog
    (Standard_NC24ads_A100_v4: 1 A100, Standard_NC48ads_A100_v4: 2). No real AKS plan can be
    recorded here (no Azure emulator exists), so the plan is written by hand as the others."""
    assert run("init", tmp_path, "--example", "aks-a100-vllm").exit_code == 0
    t = elements(load_project(tmp_path, ["prod"]).envs["prod"].spec)
    address = "module.pool_inference-eus_a100mig.azurerm_kubernetes_cluster_node_pool.this"
    pool = change(
        address,
        "azurerm_kubernetes_cluster_node_pool",
        ["delete", "create"],
        aks_pool_values("Standard_NC24ads_A100_v4", 0, 4),
        aks_pool_values("Standard_NC48ads_A100_v4", 1, 4),
        replace_paths=[["vm_size"]],
    )
    summary = summarize("prod", "infra", parse_plan(plan_text([pool])), t)
    assert summary.gpus is not None
    assert summary.gpus.text() == "GPUs at min: 0 -> 2 (+2); at max: 4 -> 8 (+4)"
    (element,) = summary.elements
    assert element.element.label() == "pool inference-eus/a100mig"
    assert element.reasons == [
        "azurerm_kubernetes_cluster_node_pool.this: vm_size forces replacement"
    ]
    assert [(e.name, what, verb) for e, what, verb in summary.protected()] == [
        ("inference-eus/a100mig", "GPU pool", "replace")
    ]


def test_a_ladder_counts_its_cap_once_at_max() -> None:
    """Two rungs of one ladder (each may hold the whole cap of 4 nodes) and a lone pool."""

    def rung(name: str, labels: dict[str, str], spot: bool) -> dict[str, object]:
        values = pool_values(0, 4, 1)
        node_config = values["node_config"][0]  # type: ignore[index]
        node_config.update({"labels": labels, "spot": spot})
        return change(
            f"module.pool_inference-us_{name}.google_container_node_pool.this",
            "google_container_node_pool",
            ["create"],
            None,
            values,
        )

    ladder = {"gpuplat.dev/pool": "l4", "gpuplat.dev/rung": "od"}
    plan = parse_plan(
        plan_text(
            [
                rung("l4-od", ladder, False),
                rung("l4-spot", {**ladder, "gpuplat.dev/rung": "spot"}, True),
                rung("other", {"gpuplat.dev/pool": "other"}, False),
            ]
        )
    )
    delta = gpu_delta(plan)
    assert delta is not None
    # The ladder: 4 GPUs at most (not 4 + 4); the lone pool: 4 more.
    assert delta.text() == "GPUs at min: 0 -> 0; at max: 0 -> 8 (+8)"


def test_a_ladder_costs_its_dearest_rung_at_the_cap() -> None:
    """The same two rungs and lone pool, priced: the ladder's ceiling is its dearer rung at
    the cap of 4 nodes, never the two rungs together.

    Worked from the catalog's rates for g2-standard-8 (1 x L4) in us-central1:
    ceiling = 4 x on-demand (the ladder: on-demand is dearer than spot) + 4 x on-demand (the
    lone pool) = 8 x on-demand; summing the rungs would add 4 x spot on top.
    """
    from gpuplat.cost.planned import cost_delta
    from gpuplat.cost.rates import shape_rate

    def rung(name: str, labels: dict[str, str], spot: bool) -> dict[str, object]:
        values = pool_values(0, 4, 1)
        node_config = values["node_config"][0]  # type: ignore[index]
        node_config.update({"labels": labels, "spot": spot})
        return change(
            f"module.pool_inference-us_{name}.google_container_node_pool.this",
            "google_container_node_pool",
            ["create"],
            None,
            values,
        )

    ladder = {"gpuplat.dev/pool": "l4", "gpuplat.dev/rung": "od"}
    plan = parse_plan(
        plan_text(
            [
                rung("l4-od", ladder, False),
                rung("l4-spot", {**ladder, "gpuplat.dev/rung": "spot"}, True),
                rung("other", {"gpuplat.dev/pool": "other"}, False),
            ]
        )
    )
    on_demand = shape_rate("gke", "g2-standard-8", "on-demand", "us-central1").usd_per_hour
    spot = shape_rate("gke", "g2-standard-8", "spot", "us-central1").usd_per_hour
    assert on_demand is not None and spot is not None and spot < on_demand
    delta = cost_delta(plan, {}, {"inference-us": "us-central1"})
    assert delta is not None
    assert delta.ceiling_after.usd_per_hour == pytest.approx(8 * on_demand)
    assert delta.ceiling_after.usd_per_hour < 8 * on_demand + 4 * spot
    assert delta.floor_after.usd_per_hour == 0


def test_a_destroyed_traffic_manager_profile_is_protected(tmp_path: Path) -> None:
    """The first cluster's serving root owns the front door's profile: a plan that destroys it
    (that cluster removed from the workload) takes the door down and must be allowed by name."""
    assert run("init", tmp_path, "--example", "failover-gke-aks").exit_code == 0
    t = elements(load_project(tmp_path, ["prod"]).envs["prod"].spec)
    address = "module.door_chat_inference-us.azurerm_traffic_manager_profile.this[0]"
    profile = change(address, "azurerm_traffic_manager_profile", ["delete"], {}, None)
    summary = summarize("prod", "serving", parse_plan(plan_text([profile])), t)
    assert [(e.name, what, verb) for e, what, verb in summary.protected()] == [
        ("chat@inference-us", "front door profile", "destroy")
    ]
    # apply refuses the saved plan unless the workload placement is named.
    meta = SavedPlan("prod", "serving", "h", "g", "t", "c", True, None, summary.to_json())
    stage = StageRoot(tmp_path, "prod", "inference-us", "serving")
    with pytest.raises(RefusedError) as refused:
        _check_destroys("prod", [(stage, meta)], ())
    assert (
        refused.value.hint is not None and "--allow-destroy chat@inference-us" in refused.value.hint
    )
    _check_destroys("prod", [(stage, meta)], ("chat@inference-us",))


def test_the_profile_of_a_cluster_removed_from_the_workload_names_its_placement(
    tmp_path: Path,
) -> None:
    """The first cluster taken out of the workload: its root's profile destroy is still named
    after the placement, so --allow-destroy takes chat@inference-us, not "-"."""
    assert run("init", tmp_path, "--example", "failover-gke-aks").exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    (workload,) = spec.workloads
    kept = workload.model_copy(update={"clusters": ["inference-eus"]})
    table = elements(spec.model_copy(update={"workloads": [kept]}))
    address = "module.door_chat_inference-us.azurerm_traffic_manager_profile.this[0]"
    element = element_of(address, table)
    assert (element.kind, element.name) == ("workload", "chat@inference-us")


def test_a_workload_taken_out_of_the_spec_is_named_in_its_destroy(tmp_path: Path) -> None:
    """The workload removed from the spec entirely: its serving root's plan destroys the
    namespace and the front door's profile. Nothing of the spec names them any more, but the
    summary reads the placement off the module label, so apply's refusal names a value that
    --allow-destroy takes (not "-")."""
    assert run("init", tmp_path, "--example", "failover-gke-aks").exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    table = elements(spec.model_copy(update={"workloads": []}), "inference-us")
    gone = [
        change(
            "module.door_chat_inference-us.azurerm_traffic_manager_profile.this[0]",
            "azurerm_traffic_manager_profile",
            ["delete"],
            {},
            None,
        ),
        change(
            "module.serve_chat_inference-us.kubernetes_namespace_v1.this",
            "kubernetes_namespace_v1",
            ["delete"],
            {},
            None,
        ),
    ]
    plan = parse_plan(plan_text(gone))
    summary = summarize("prod", "serving", plan, table, cluster="inference-us")
    assert sorted((e.name, what, verb) for e, what, verb in summary.protected()) == [
        ("chat@inference-us", "front door profile", "destroy"),
        ("chat@inference-us", "workload namespace", "destroy"),
    ]
    meta = SavedPlan("prod", "serving", "h", "g", "t", "c", True, None, summary.to_json())
    stage = StageRoot(tmp_path, "prod", "inference-us", "serving")
    with pytest.raises(RefusedError) as refused:
        _check_destroys("prod", [(stage, meta)], ())
    hint = refused.value.hint or ""
    assert "--allow-destroy chat@inference-us;" in hint and "--allow-destroy -" not in hint
    _check_destroys("prod", [(stage, meta)], ("chat@inference-us",))


def test_a_pool_taken_out_of_the_spec_is_named_in_its_destroy(tmp_path: Path) -> None:
    """A GPU pool removed from its cluster: its destroy names cluster/pool, read off the label;
    the same label read without the cluster (whose roots?) stays "other"."""
    assert run("init", tmp_path, "--example", "failover-gke-aks").exit_code == 0
    spec = load_project(tmp_path, ["prod"]).envs["prod"].spec
    gke, aks = spec.clusters
    table = elements(
        spec.model_copy(update={"clusters": [gke.model_copy(update={"node_pools": []}), aks]}),
        "inference-us",
    )
    address = "module.pool_inference-us_l4-shared.google_container_node_pool.this"
    pool = change(address, "google_container_node_pool", ["delete"], pool_values(0, 4, 1), None)
    summary = summarize(
        "prod", "infra", parse_plan(plan_text([pool])), table, cluster="inference-us"
    )
    assert [(e.name, what) for e, what, _verb in summary.protected()] == [
        ("inference-us/l4-shared", "GPU pool")
    ]
    assert element_of(address, table).kind == "other"
    assert element_of("module.fabric_inference-us.x.y", table, "inference-us").kind == "other"
