"""Environments share what no overlay touches: its models, and its clusters' checks.

Each subtree the merged trees share is validated once per load, and a cluster they share is
checked once; a value an overlay changes gives that environment models and problems of its
own, and a bad value is still reported where it was written, with the environments it breaks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplat.errors import SpecError
from gpuplat.spec.checks import pools
from gpuplat.spec.checks.reuse import ClusterChecks, pool_context
from gpuplat.spec.diagnostics import Diagnostic
from gpuplat.spec.load import SPEC_FILE, EnvSpec, load_project
from gpuplat.spec.locate import Locator
from gpuplat.spec.model import Cluster, Spec
from gpuplat.spec.resolve import resolve_pool
from gpuplat.targets import target

SPEC = """\
version: 1
project: demo
clusters:
  - name: c0
    cloud: gke
    region: us-central1
    zones: [us-central1-a]
    gcp: {project: demo-project-1}
    node_pools:
      - name: p0
        machine_type: g2-standard-8
        capacity: {type: spot}
        autoscaling: {min_nodes: 0, max_nodes: 4}
      - name: p1
        machine_type: g2-standard-8
        capacity: {type: spot}
        autoscaling: {min_nodes: 0, max_nodes: 2}
  - name: c1
    cloud: gke
    region: us-central1
    zones: [us-central1-a]
    gcp: {project: demo-project-1}
    node_pools:
      - name: p0
        machine_type: g2-standard-8
        capacity: {type: spot}
        autoscaling: {min_nodes: 0, max_nodes: 4}
workloads:
  - name: chat
    image: vllm/vllm-openai:v0.11.0
    model: {source: gs://demo/model, size_gb: 10}
    pool: p0
    replicas: {min: 1, max: 4}
    clusters: [c1]
environments:
  - name: dev
  - name: prod
"""


def _project(tmp_path: Path, dev: str, prod: str) -> Path:
    (tmp_path / "envs").mkdir()
    (tmp_path / "gpuplat.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "envs" / "dev.yaml").write_text(dev, encoding="utf-8")
    (tmp_path / "envs" / "prod.yaml").write_text(prod, encoding="utf-8")
    return tmp_path


def test_what_no_overlay_touches_is_one_model_in_every_environment(tmp_path: Path) -> None:
    folder = _project(
        tmp_path,
        "clusters:\n  - name: c0\n    labels: {stage: dev}\n",
        "clusters:\n  - name: c0\n    node_pools:\n      - name: p1\n"
        "        autoscaling: {min_nodes: 0, max_nodes: 8}\n",
    )
    loaded = load_project(folder)
    dev, prod = loaded.envs["dev"].spec, loaded.envs["prod"].spec
    assert dev.clusters[1] is prod.clusters[1]
    assert dev.workloads[0] is prod.workloads[0]
    # c0 differs; of its pools, only the one prod's overlay changes is prod's own.
    assert dev.clusters[0] is not prod.clusters[0]
    assert dev.clusters[0].labels == {"stage": "dev"} and prod.clusters[0].labels == {}
    assert dev.clusters[0].node_pools[0] is prod.clusters[0].node_pools[0]
    assert dev.clusters[0].node_pools[1] is not prod.clusters[0].node_pools[1]
    assert dev.clusters[0].node_pools[1].autoscaling.max_nodes == 2
    assert prod.clusters[0].node_pools[1].autoscaling.max_nodes == 8
    # The same models a load without any sharing gives.
    alone = load_project(folder, ["prod"]).envs["prod"].spec
    assert alone == prod and alone.model_dump() == prod.model_dump()


def test_a_bad_value_of_one_overlay_is_reported_where_it_was_written(tmp_path: Path) -> None:
    folder = _project(
        tmp_path,
        "clusters:\n  - name: c0\n    labels: {stage: dev}\n",
        "clusters:\n  - name: c1\n    node_pools:\n      - name: p0\n"
        "        autoscaling: {min_nodes: 0, max_nodes: many}\n",
    )
    with pytest.raises(SpecError) as raised:
        load_project(folder)
    (problem,) = [d for d in raised.value.diagnostics if d.is_error]
    assert problem.envs == ("prod",)
    assert str(problem.mark) == "envs/prod.yaml:5:48"
    assert problem.path == ("clusters", 1, "node_pools", 0, "autoscaling", "max_nodes")
    assert load_project(folder, ["dev"]).envs["dev"].spec.clusters[0].labels == {"stage": "dev"}


def _checked(envs: list[EnvSpec]) -> list[tuple[str, int]]:
    """Which environment's clusters the pool checks ran on, one load's reuse across them."""
    reuse = ClusterChecks()
    ran: list[tuple[str, int]] = []
    for env in envs:

        def check(spec: Spec, i: int, cluster: Cluster, loc: Locator) -> list[Diagnostic]:
            ran.append((env.name, i))  # noqa: B023 - called before the loop moves on
            return list(pools.cluster_pools(spec, i, cluster, loc))

        loc = Locator(env.tree, {SPEC_FILE: 0, env.overlay: 1})
        reuse.run("pools", check, env.spec, loc, pool_context(env.spec, loc))
    return ran


def test_a_cluster_no_overlay_touches_is_checked_once(tmp_path: Path) -> None:
    folder = _project(tmp_path, "clusters:\n  - name: c0\n    labels: {stage: dev}\n", "")
    loaded = load_project(folder)
    assert _checked(list(loaded.envs.values())) == [("dev", 0), ("dev", 1), ("prod", 0)]
    # What the pool checks read besides the cluster, changed by an overlay: all checked again.
    (folder / "envs" / "prod.yaml").write_text("addons: {metrics: {dcgm_exporter: false}}\n")
    loaded = load_project(folder)
    assert _checked(list(loaded.envs.values())) == [
        ("dev", 0),
        ("dev", 1),
        ("prod", 0),
        ("prod", 1),
    ]


def test_a_problem_of_a_shared_pool_is_reported_once_with_each_environment(
    tmp_path: Path,
) -> None:
    wrong = "        machine_type: g2-standard-8\n        accelerator: nvidia-tesla-t4\n"
    folder = _project(
        tmp_path,
        "clusters:\n  - name: c1\n    node_pools:\n      - name: p0\n"
        "        autoscaling: {min_nodes: 0, max_nodes: 8}\n",
        "",
    )
    spec = (folder / "gpuplat.yaml").read_text(encoding="utf-8")
    first = spec.index("  - name: c1")
    spec = spec[:first] + spec[first:].replace("        machine_type: g2-standard-8\n", wrong, 1)
    (folder / "gpuplat.yaml").write_text(spec, encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_project(folder)
    problems = [d for d in raised.value.diagnostics if d.is_error]
    assert [(d.message, str(d.mark), d.envs) for d in problems] == [
        ("g2-standard-8 comes with nvidia-l4, not nvidia-tesla-t4", "gpuplat.yaml:26:22", ())
    ]


def test_a_pool_the_environments_share_has_its_gpu_resolved_once(tmp_path: Path) -> None:
    folder = _project(tmp_path, "clusters:\n  - name: c0\n    labels: {stage: dev}\n", "")
    loaded = load_project(folder)
    dev, prod = loaded.envs["dev"].spec, loaded.envs["prod"].spec
    gpu = resolve_pool(dev.clusters[1], dev.clusters[1].node_pools[0])
    assert gpu is resolve_pool(prod.clusters[1], prod.clusters[1].node_pools[0])
    assert (gpu.accelerator, gpu.gpus_per_node) == ("nvidia-l4", 1)
    # An equal pool of its own (another load) is resolved for itself, to the same facts.
    again = load_project(folder).envs["dev"].spec.clusters[1]
    assert resolve_pool(again, again.node_pools[0]) == gpu


def test_a_shared_pool_has_one_view_but_each_environment_s_resource_labels(
    tmp_path: Path,
) -> None:
    folder = _project(tmp_path, "clusters:\n  - name: c0\n    labels: {stage: dev}\n", "")
    loaded = load_project(folder)
    gke = target("gke")
    dev, prod = (
        gke.infra(loaded.envs[name], loaded.envs[name].spec.clusters[1]) for name in ("dev", "prod")
    )
    (dev_pool,), (prod_pool,) = dev.cluster.pools, prod.cluster.pools
    assert dev_pool.args["accelerator"] is prod_pool.args["accelerator"]
    assert dev_pool.args["labels"] is prod_pool.args["labels"]
    assert [dict(v.args["resource_labels"])["gpuplat-env"] for v in (dev_pool, prod_pool)] == [
        "dev",
        "prod",
    ]
    assert list(dev_pool.args) == list(prod_pool.args)  # the same arguments in the same order
