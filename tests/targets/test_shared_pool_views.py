"""A node pool's module call is built once for the environments that share the pool (every
cloud), and still carries each environment's own cloud resource labels."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import gpuplat.examples
from gpuplat.spec.load import load_project
from gpuplat.targets import target

EXAMPLES = Path(gpuplat.examples.__file__).parent


@pytest.mark.parametrize(
    ("example", "labels_arg"),
    [("gke-l4-vllm", "resource_labels"), ("eks-l4-vllm", "tags"), ("aks-a100-vllm", "tags")],
)
def test_a_shared_pool_has_one_view_but_each_environment_s_labels(
    tmp_path: Path, example: str, labels_arg: str
) -> None:
    folder = tmp_path / example
    shutil.copytree(EXAMPLES / example, folder)
    for overlay in (folder / "envs").glob("*.yaml"):
        overlay.write_text("", encoding="utf-8")  # no overlay: every cluster is shared
    loaded = load_project(folder, ["dev", "prod"])
    dev_env, prod_env = loaded.envs["dev"], loaded.envs["prod"]
    cluster = dev_env.spec.clusters[0]
    assert prod_env.spec.clusters[0] is cluster
    cloud = target(cluster.cloud)
    dev, prod = cloud.infra(dev_env, cluster), cloud.infra(prod_env, cluster)
    for dev_pool, prod_pool in zip(dev.cluster.pools, prod.cluster.pools, strict=True):
        assert dev_pool.args["labels"] is prod_pool.args["labels"]
        assert dev_pool.args["taints"] is prod_pool.args["taints"]
        envs = [dict(v.args[labels_arg])["gpuplat-env"] for v in (dev_pool, prod_pool)]
        assert envs == ["dev", "prod"]
        assert list(dev_pool.args) == list(prod_pool.args)  # the same order: the same HCL
