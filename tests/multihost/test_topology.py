"""Kueue's topology-aware scheduling on EKS: a group is placed by EKS's network topology labels
(``topology.k8s.aws/network-node-layer-<n>``) on instance types whose EC2 topology EKS labels;
``multi_host.topology`` turns it off, or requires it (refused where the nodes carry no labels).

The worked example is Llama 3.1 405B on 2 x p5.48xlarge (tests/multihost/data/eks-p5-llama405b).
"""

from __future__ import annotations

from pathlib import Path

from gpuplat import crds
from gpuplat.manifests.objects import serving_objects
from tests.multihost.test_group import plans

LAYERS = [f"topology.k8s.aws/network-node-layer-{n}" for n in (1, 2, 3)]


def test_an_efa_group_on_p5_is_placed_by_the_network_layers(tmp_path: Path) -> None:
    (plan,) = plans(tmp_path)
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
    )
    assert plan.topology == ()
    kinds = {str(o["kind"]) for o in serving_objects(plan)}
    assert "Topology" not in kinds and "ClusterQueue" in kinds
