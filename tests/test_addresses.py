"""Terraform addresses back to spec elements, one cluster's roots at a time."""

from __future__ import annotations

from gpuplat.addresses import element_of, elements
from gpuplat.spec.model import Spec


def _spec() -> Spec:
    def cluster(name: str, pool: str) -> dict[str, object]:
        return {
            "name": name,
            "cloud": "eks",
            "region": "us-east-1",
            "network": {"vpc_cidr": "10.0.0.0/16"},
            "node_pools": [{"name": pool, "machine_type": "g6.xlarge"}],
        }

    return Spec.model_validate(
        {
            "project": "demo",
            "clusters": [cluster("a_b", "c"), cluster("a", "b_c")],
            "environments": [{"name": "dev"}],
        }
    )


def test_labels_that_collide_across_clusters_are_read_per_cluster() -> None:
    spec = _spec()
    address = "module.pool_a_b_c.aws_eks_node_group.this"
    # Both clusters' infra roots call `module "pool_a_b_c"`: each root only has its own.
    assert element_of(address, elements(spec, "a_b")).name == "a_b/c"
    assert element_of(address, elements(spec, "a")).name == "a/b_c"
    assert element_of(address, elements(spec, "a")).cluster == "a"
