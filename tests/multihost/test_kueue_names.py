"""Another instance family replaces Kueue's Topology and flavor, in an order Kueue accepts.

Kueue holds a Topology's levels immutable, and a topology-placed flavor's nodeLabels and
topologyName (the CEL rules of its 0.17.3 CRDs), so gpuplat names both after that content: a
change makes new objects. The kubernetes provider replaces a kubernetes_manifest whose
metadata.name changes (its PlanResourceChange requires replacement on manifest.metadata.name,
v2.38.0). The schema stand-in does not ask for that, so the test names the replacement with
``-replace``, and real terraform applies the change in record mode: the new Topology and flavor
first, then the ClusterQueue naming the new flavor, and only then the old flavor (which Kueue's
``kueue.x-k8s.io/resource-in-use`` finalizer holds while a ClusterQueue names it) and the old
Topology.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.workload.queue import QueuePlan, queue_of
from tests.multihost.test_group import plans
from tests.multihost.test_topology import STANDING
from tests.parity.test_serving import label, write_root
from tests.support.standin import build_stand_ins, record_env, recorded_applies, run

pytestmark = pytest.mark.terraform

B200 = (
    ("machine_type: p5.48xlarge", "machine_type: p6-b200.48xlarge"),
    ("kv_cache_gb: 67.6", "kv_cache_gb: 67"),
)
KUEUE = ("Topology", "ResourceFlavor", "ClusterQueue")


def _write(root: Path, folder: Path, *edits: tuple[str, str]) -> tuple[str, QueuePlan]:
    (plan,) = plans(folder, "eks-p5-llama405b", STANDING, *edits)
    queue = queue_of(plan)
    assert queue is not None and queue.topology
    key = label("mh", plan.name, plan.cluster)
    write_root(root, {key: plan}, lambda _file, text: text)
    return key, queue


def test_another_family_creates_the_new_objects_before_destroying_the_old(
    tmp_path: Path,
) -> None:
    cli = build_stand_ins()
    root = tmp_path / "root"
    log = tmp_path / "applies.jsonl"
    env = record_env(log)
    key, p5 = _write(root, tmp_path / "p5")
    for args in (("init", "-input=false"), ("apply", "-input=false", "-auto-approve")):
        done = run(cli, root, *args, timeout=600, env=env)
        assert done.returncode == 0, f"terraform {args[0]}:\n{done.stdout}\n{done.stderr}"
    first = len(recorded_applies(log))

    _, b200 = _write(root, tmp_path / "b200", *B200)
    assert b200.topology_name != p5.topology_name and b200.flavor_name != p5.flavor_name
    replace = [f"-replace=module.{key}.kubernetes_manifest.{r}[0]" for r in ("topology", "flavor")]
    done = run(cli, root, "apply", "-input=false", "-auto-approve", *replace, timeout=600, env=env)
    assert done.returncode == 0, f"terraform apply:\n{done.stdout}\n{done.stderr}"

    steps = []
    for applied in recorded_applies(log)[first:]:
        if applied["type"] != "kubernetes_manifest":
            continue
        # A dynamic value as stored: [its type, the value].
        _type, manifest = applied["state"]["manifest"]  # type: ignore[index]
        if manifest["kind"] in KUEUE:
            steps.append((applied["action"], manifest["kind"], manifest["metadata"]["name"]))
    assert steps == [
        ("create", "Topology", b200.topology_name),
        ("create", "ResourceFlavor", b200.flavor_name),
        ("update", "ClusterQueue", b200.cluster_queue),
        ("delete", "ResourceFlavor", p5.flavor_name),
        ("delete", "Topology", p5.topology_name),
    ]
