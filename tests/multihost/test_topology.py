"""Kueue's topology-aware scheduling on EKS: a group is placed by EKS's network topology labels
(``topology.k8s.aws/network-node-layer-<n>``) on instance types whose EC2 topology EKS labels;
``multi_host.topology`` turns it off, or requires it (refused where the nodes carry no labels).

The worked example is Llama 3.1 405B on 2 x p5.48xlarge (tests/multihost/data/eks-p5-llama405b).
Kueue places by topology only on nodes that exist, so these tests keep the pool's four nodes up
(``STANDING``); from zero the group is admitted by quota alone.
"""

from __future__ import annotations

from pathlib import Path

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from gpuplat.workload.queue import content_name
from tests.multihost.test_group import plans

STANDING = ("min_nodes: 0", "min_nodes: 4")
"""The example's pool at max_nodes 4 all the time: one group and a surge group of two nodes."""
LAYERS = [f"topology.k8s.aws/network-node-layer-{n}" for n in (1, 2, 3)]


def test_an_efa_group_on_p5_is_placed_by_the_network_layers(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path, "eks-p5-llama405b", STANDING)
    assert plan.topology == (*LAYERS, "kubernetes.io/hostname")
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    topology = objects["Topology"]
    levels = [level["nodeLabel"] for level in topology["spec"]["levels"]]  # type: ignore[index]
    assert levels == [*LAYERS, "kubernetes.io/hostname"]
    flavor = objects["ResourceFlavor"]
    assert flavor["spec"]["topologyName"] == topology["metadata"]["name"]  # type: ignore[index]
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        annotations = template[role]["metadata"]["annotations"]
        # The bottom layer: the nodes under one network node are the closest to each other.
        assert annotations["kueue.x-k8s.io/podset-preferred-topology"] == LAYERS[-1]
        assert annotations["kueue.x-k8s.io/podset-group-name"] == "llama-405b"
    for kind in ("Topology", "ResourceFlavor", "ClusterQueue"):
        assert crds.check_object(objects[kind], crds.Result()) == []


def test_p6_b200_nodes_have_a_fourth_layer(tmp_path: Path) -> None:
    (plan,) = plans(
        tmp_path,
        "eks-p5-llama405b",
        ("machine_type: p5.48xlarge", "machine_type: p6-b200.48xlarge"),
        ("kv_cache_gb: 67.6", "kv_cache_gb: 67"),
        STANDING,
    )
    fourth = "topology.k8s.aws/network-node-layer-4"
    assert plan.topology == (*LAYERS, fourth, "kubernetes.io/hostname")
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    annotations = template["workerTemplate"]["metadata"]["annotations"]
    assert annotations["kueue.x-k8s.io/podset-preferred-topology"] == fourth


def test_topology_false_leaves_the_group_to_the_quota_alone(tmp_path: Path) -> None:
    (plan,) = plans(
        tmp_path,
        "eks-p5-llama405b",
        ("    multi_host:\n", "    multi_host:\n      topology: false\n"),
        STANDING,
    )
    assert plan.topology == ()
    kinds = {str(o["kind"]) for o in serving_objects(plan)}
    assert "Topology" not in kinds and "ClusterQueue" in kinds


def test_a_pool_that_scales_from_zero_gets_no_topology(tmp_path: Path) -> None:
    # Kueue would find no topology domain on a pool at zero nodes and hold the group's pods
    # behind its gate, which the autoscaler does not scale up for: quota alone admits it.
    (plan,) = plans(tmp_path)
    assert plan.topology == ()
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    assert "Topology" not in objects and "ClusterQueue" in objects
    assert "topologyName" not in objects["ResourceFlavor"]["spec"]  # type: ignore[operator]
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    annotations = template["workerTemplate"]["metadata"].get("annotations", {})
    assert "kueue.x-k8s.io/podset-preferred-topology" not in annotations


def test_the_topology_waits_for_every_group_and_its_surge_on_standing_nodes(
    tmp_path: Path,
) -> None:
    # Three standing nodes: one group of two fits, but not the rollout's surge group.
    (plan,) = plans(tmp_path, "eks-p5-llama405b", ("min_nodes: 0", "min_nodes: 3"))
    assert plan.topology == ()


def _queue_objects(tmp_path: Path, *edits: tuple[str, str]) -> dict[str, dict[str, object]]:
    (plan,) = plans(tmp_path, "eks-p5-llama405b", STANDING, *edits)
    kinds = ("Topology", "ResourceFlavor", "ClusterQueue")
    return {str(o["kind"]): o for o in serving_objects(plan) if o["kind"] in kinds}


def _name(obj: dict[str, object]) -> str:
    return str(obj["metadata"]["name"])  # type: ignore[index]


def test_other_levels_make_a_new_topology_and_flavor_the_queue_names(tmp_path: Path) -> None:
    # Kueue holds a Topology's levels immutable, and a topology-placed flavor's nodeLabels and
    # topologyName: p5 (three layers) to p6-b200 (four) must make new objects, not edit them.
    p5 = _queue_objects(tmp_path / "p5")
    b200 = _queue_objects(
        tmp_path / "b200",
        ("machine_type: p5.48xlarge", "machine_type: p6-b200.48xlarge"),
        ("kv_cache_gb: 67.6", "kv_cache_gb: 67"),
    )
    assert _name(b200["Topology"]) != _name(p5["Topology"])
    assert _name(b200["ResourceFlavor"]) != _name(p5["ResourceFlavor"])
    assert _name(b200["ClusterQueue"]) == _name(p5["ClusterQueue"])
    for objects in (p5, b200):
        flavor = objects["ResourceFlavor"]
        assert flavor["spec"]["topologyName"] == _name(objects["Topology"])  # type: ignore[index]
        groups = objects["ClusterQueue"]["spec"]["resourceGroups"]  # type: ignore[index]
        assert [f["name"] for f in groups[0]["flavors"]] == [_name(flavor)]
        for obj in objects.values():
            assert len(_name(obj)) <= 63
            assert crds.check_object(obj, crds.Result()) == []
    # The same content keeps its names: an apply without a change replaces nothing.
    assert _queue_objects(tmp_path / "again") == p5


def test_names_stay_within_a_label_length() -> None:
    name = content_name("gpuplat-" + "a-very-long-workload-name" * 4, ["x"])
    assert len(name) == 63
    assert name[-7] == "-"
    assert content_name("gpuplat-x", ["x"]) != content_name("gpuplat-x", ["y"])
