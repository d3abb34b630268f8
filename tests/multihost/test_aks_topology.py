"""Kueue's topology-aware scheduling on AKS: an InfiniBand pool's nodes carry gpuplat's
``gpuplat.dev/infiniband-network`` label (the AKS node pool, one scale set and one physical
InfiniBand network), and a group is placed by that network, then by host.

The worked example is Llama 3.1 405B on 2 x Standard_ND96isr_H100_v5
(tests/multihost/data/aks-nd-llama405b).
"""

from __future__ import annotations

from pathlib import Path

from gpuplat import crds
from gpuplat.labels import INFINIBAND_LABEL, POOL_LABEL
from gpuplat.manifests.objects import serving_objects
from gpuplat.spec.ladder import RUNG_LABEL
from gpuplat.spec.load import load_project
from gpuplat.targets import target
from tests.multihost.test_group import DATA, TODAY, plans

EXAMPLE = "aks-nd-llama405b"
HOSTNAME = "kubernetes.io/hostname"


def test_an_infiniband_group_on_aks_is_placed_by_its_network_then_its_host(
    tmp_path: Path,
) -> None:
    # Kueue places by topology only on nodes that exist: the pool keeps its four nodes up.
    (plan,) = plans(tmp_path, EXAMPLE, ("min_nodes: 0", "min_nodes: 4"))
    assert plan.topology == (INFINIBAND_LABEL, HOSTNAME)
    objects = {str(o["kind"]): o for o in serving_objects(plan)}
    topology = objects["Topology"]
    levels = [level["nodeLabel"] for level in topology["spec"]["levels"]]  # type: ignore[index]
    assert levels == [INFINIBAND_LABEL, HOSTNAME]
    flavor = objects["ResourceFlavor"]
    assert flavor["spec"]["topologyName"] == topology["metadata"]["name"]  # type: ignore[index]
    assert flavor["spec"]["nodeLabels"] == {POOL_LABEL: "ndh100"}  # type: ignore[index]
    template = objects["LeaderWorkerSet"]["spec"]["leaderWorkerTemplate"]  # type: ignore[index]
    for role in ("leaderTemplate", "workerTemplate"):
        annotations = template[role]["metadata"]["annotations"]
        assert annotations["kueue.x-k8s.io/podset-preferred-topology"] == INFINIBAND_LABEL
        assert annotations["kueue.x-k8s.io/podset-group-name"] == "llama-405b"
    for kind in ("Topology", "ResourceFlavor", "ClusterQueue"):
        assert crds.check_object(objects[kind], crds.Result()) == []


def test_the_infiniband_pool_carries_its_network_label_and_other_pools_none(
    tmp_path: Path,
) -> None:
    folder = tmp_path / EXAMPLE
    text = (DATA / EXAMPLE / "gpuplat.yaml").read_text(encoding="utf-8")
    other = (
        "      - name: ncl40s\n"
        "        machine_type: Standard_NC24ads_A100_v4\n"
        '        zones: ["1"]\n'
        "        driver: {install: none}\n"
        "        autoscaling: {min_nodes: 0, max_nodes: 1}\n"
    )
    folder.mkdir()
    (folder / "gpuplat.yaml").write_text(
        text.replace("    node_pools:\n", "    node_pools:\n" + other, 1), encoding="utf-8"
    )
    env = next(iter(load_project(folder, today=TODAY).envs.values()))
    (cluster,) = env.spec.clusters
    aks = target("aks")
    labels = {p.name: aks.pool_labels(env.spec, p) for p in cluster.node_pools}
    assert labels["ndh100"][INFINIBAND_LABEL] == "ndh100"
    assert INFINIBAND_LABEL not in labels["ncl40s"]


def test_each_rung_of_an_infiniband_ladder_is_a_network_of_its_own(tmp_path: Path) -> None:
    folder = tmp_path / EXAMPLE
    text = (DATA / EXAMPLE / "gpuplat.yaml").read_text(encoding="utf-8")
    folder.mkdir()
    (folder / "gpuplat.yaml").write_text(
        text.replace(
            "        infiniband: true\n",
            "        infiniband: true\n        capacity: [spot, on-demand]\n",
            1,
        ),
        encoding="utf-8",
    )
    # A group on a ladder is refused at the pool's capacity; the rungs' labels are not.
    loaded = load_project(folder, today=TODAY, tolerate=lambda _, d: d.path[-1:] == ("capacity",))
    env = next(iter(loaded.envs.values()))
    (cluster,) = env.spec.clusters
    aks = target("aks")
    ladder = aks.ladder(cluster, cluster.node_pools[0])
    rungs = {r.pool.name: aks.rung_labels(env.spec, ladder, r) for r in ladder.rungs}
    assert set(rungs) == {"ndh100spot", "ndh100od"}
    for node_pool, labels in rungs.items():
        # One scale set, one InfiniBand network: never the ladder's shared pool name.
        assert labels[INFINIBAND_LABEL] == node_pool
        assert labels[POOL_LABEL] == "ndh100"
        assert RUNG_LABEL in labels


def test_a_group_without_infiniband_gets_no_topology(tmp_path: Path) -> None:
    (plan,) = plans(
        tmp_path, EXAMPLE, ("        infiniband: true\n", ""), ("min_nodes: 0", "min_nodes: 4")
    )
    assert plan.topology == ()
    kinds = {str(o["kind"]) for o in serving_objects(plan)}
    assert "Topology" not in kinds and "ClusterQueue" in kinds
